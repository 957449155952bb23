// The CrewAI target: TeamModel → a classic CrewAI project (src/<package>/crew.py, config/,
// tools/, main.py), runnable and tested offline. Templates live in templates/crewai/.
import { FileSet } from "../../export/file-set.js";
import { formatPython } from "../../export/format/python.js";
import { addVendoredRuntime } from "../python-common/runtime-library.js";
import { addUvLock } from "../python-common/uv-lock.js";
import { LOSS_REPORT_PATH, lossReportMarkdown } from "../../export/loss-markdown.js";
import { HELPERS, VALUE_HELPERS } from "../../export/render/helpers.js";
import { loadTemplateDir } from "../../export/render/template-dir.js";
import type { ExportTarget, TargetInput } from "../../export/target.js";
import { RESERVED_MEMBERS } from "../../model/reserved-words.js";
import { CREWAI_FIELD_RULES } from "./field-rules.js";
import { buildView } from "./view.js";

/** The folders under templates/ this target renders from (the build compiles them). */
export const TEMPLATE_FOLDERS = ["python-common", "crewai"] as const;

function generate({ model, definitionText, loss, connections, runtime }: TargetInput): FileSet {
  const view = buildView(model, loss, connections, runtime);
  const { env, statics } = loadTemplateDir(TEMPLATE_FOLDERS, HELPERS, VALUE_HELPERS);
  const files = new FileSet();
  const pkg = `src/${view.package}`;
  const text = (path: string, template: string) => files.add(path, env.render(template, view));
  const python = (path: string, template: string) => files.add(path, formatPython(env.render(template, view), path));

  // Project files every export has (.gitignore, knowledge/...); the generic Python is the
  // runtime library, vendored or pinned (python-common/runtime-library.ts).
  for (const s of statics) files.add(s.path, s.bytes, s.executable ? 0o755 : 0o644, true);
  addVendoredRuntime(files, view.runtime);
  text("pyproject.toml", "pyproject.toml.hbs");
  addUvLock(files, "crewai", view.runtime);
  text("README.md", "README.md.hbs");
  text(".env.example", "env.example.hbs");
  files.add(LOSS_REPORT_PATH, lossReportMarkdown(loss, model.team.name, "CrewAI", view.connections.rows));
  if (model.team.readme !== undefined) text("TEAM.md", "TEAM.md.hbs");
  if (view.schedules.hasWorkflow) text(".github/workflows/scheduled-run.yml", "scheduled-run.yml.hbs");

  files.add(`${pkg}/envelope.json`, definitionText);
  text(`${pkg}/config/agents.yaml`, "src/config/agents.yaml.hbs");
  text(`${pkg}/config/tasks.yaml`, "src/config/tasks.yaml.hbs");
  if (view.anyEgress) text(`${pkg}/config/access_policies.yaml`, "src/config/access_policies.yaml.hbs");
  python(`${pkg}/__init__.py`, "src/__init__.py.hbs");
  python(`${pkg}/team.py`, "src/team.py.hbs");
  python(`${pkg}/models.py`, "src/models.py.hbs");
  python(`${pkg}/crew.py`, "src/crew.py.hbs");
  python(`${pkg}/main.py`, "src/main.py.hbs");
  // tools/: where the developer's own CrewAI tools go (CrewAI's layout), an example about this team
  python(`${pkg}/tools/__init__.py`, "src/tools/__init__.py.hbs");
  python(`${pkg}/tools/custom_tool.py`, "src/tools/custom_tool.py.hbs");
  if (view.mode === "pipeline") python(`${pkg}/flow.py`, "src/flow.py.hbs");
  // CrewAI's switches set before it is imported, and with MCP servers the tests' fake one.
  python("tests/conftest.py", "tests/conftest.py.hbs");
  python("tests/test_team.py", "tests/test_team.py.hbs");
  return files;
}

export const crewaiTarget: ExportTarget = {
  name: "crewai",
  title: "CrewAI",
  language: "python",
  fieldRules: CREWAI_FIELD_RULES,
  // Agents and steps are methods of the generated @CrewBase class (crew.py), beside its members.
  reservedMembers: RESERVED_MEMBERS,
  generate,
};
