// Second half of `npm run build`, after tsc: code generated from the sources, so a cold CLI
// neither compiles the schema (Ajv) nor the templates (Handlebars) at run time (issue 18).
//  - dist/validate/team-validator.cjs: the team schema as a standalone Ajv validator;
//  - dist/export/render/compiled/<folders>.cjs: each target's templates, precompiled.
// Each carries what it was made from (the schema text, a hash of the templates); the code
// using it compares that and compiles at run time on a mismatch, so schema/ and templates/
// remain the source of truth.
import { mkdirSync, writeFileSync } from "node:fs";
import { teamSchema } from "../dist/schema/compose-schema.js";
import { standaloneValidatorCode } from "../dist/validate/compile-schema.js";
import { HELPERS, VALUE_HELPERS } from "../dist/export/render/helpers.js";
import { compiledFileName, compiledTemplatesModule } from "../dist/export/render/template-dir.js";
import { TEMPLATE_FOLDERS as CREWAI } from "../dist/targets/crewai/index.js";
import { TEMPLATE_FOLDERS as LANGGRAPH } from "../dist/targets/langgraph/index.js";
import { TEMPLATE_FOLDERS as LANGGRAPH_JS } from "../dist/targets/langgraph-js/index.js";

const dist = new URL("../dist/", import.meta.url);

writeFileSync(new URL("validate/team-validator.cjs", dist), standaloneValidatorCode(teamSchema()));

const compiled = new URL("export/render/compiled/", dist);
mkdirSync(compiled, { recursive: true });
for (const folders of [CREWAI, LANGGRAPH, LANGGRAPH_JS]) {
  writeFileSync(new URL(compiledFileName(folders), compiled), compiledTemplatesModule(folders, HELPERS, VALUE_HELPERS));
}
