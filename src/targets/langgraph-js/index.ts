// The LangGraph.js target: TeamModel → a TypeScript project (src/graph.ts exporting `graph`
// for langgraph.json, zod schemas, a vitest suite that runs the team offline), its generic code
// the npm package envelope-runtime-js (js/envelope-runtime/, vendored under vendor/ and
// depended on as file:), its package-lock.json written offline from js/project-lock/.
// TypeScript is built with ts-morph and formatted with prettier, both loaded for this target only.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { FileSet } from "../../export/file-set.js";
import { LOSS_REPORT_PATH, lossReportMarkdown } from "../../export/loss-markdown.js";
import { HELPERS, VALUE_HELPERS } from "../../export/render/helpers.js";
import { loadTemplateDir } from "../../export/render/template-dir.js";
import type { ExportTarget, TargetInput } from "../../export/target.js";
import { LANGGRAPH_JS_FIELD_RULES } from "./field-rules.js";
import { formatAll, type FormatJob, startFormatter } from "./format.js";
import { buildTypeScript } from "./typescript.js";
import { buildView } from "./view.js";

const JS_ROOT = fileURLToPath(new URL("../../../js/", import.meta.url));
/** Where the runtime package goes in the project, and the dependency that names it. */
export const RUNTIME_DIR = "vendor/envelope-runtime-js";

/** The folders under templates/ this target renders from. */
export const TEMPLATE_FOLDERS = ["langgraph-js"] as const;

interface Cached {
  runtime: Array<{ path: string; bytes: Uint8Array }>;
  packageJson: Record<string, unknown>;
  lock: Record<string, unknown>;
}
let cached: Cached | undefined;

/** The runtime package's files as published (package.json `files`: dist/, README, CHANGELOG), the project package.json and lock. */
function jsInputs(): Cached {
  if (cached) return cached;
  const root = join(JS_ROOT, "envelope-runtime");
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  const paths = ["package.json", "README.md", "CHANGELOG.md", ...walk(join(root, "dist")).map((p) => relative(root, p).split(sep).join("/"))].sort();
  cached = {
    runtime: paths.map((p) => ({ path: p, bytes: readFileSync(join(root, p)) })),
    packageJson: JSON.parse(readFileSync(join(JS_ROOT, "project-lock/package.json"), "utf8")) as Record<string, unknown>,
    lock: JSON.parse(readFileSync(join(JS_ROOT, "project-lock/package-lock.json"), "utf8")) as Record<string, unknown>,
  };
  return cached;
}

function generate({ model, definitionText, loss, connections }: TargetInput): FileSet {
  // prettier loads in its worker thread while this one loads ts-morph (2 cores: about in parallel).
  startFormatter();
  const view = buildView(model, loss, connections);
  const { env, statics } = loadTemplateDir(TEMPLATE_FOLDERS, HELPERS, VALUE_HELPERS);
  const files = new FileSet();
  const js = jsInputs();

  for (const s of statics) files.add(s.path, s.bytes, s.executable ? 0o755 : 0o644, true);
  for (const f of js.runtime) files.add(`${RUNTIME_DIR}/${f.path}`, f.bytes, 0o644, true);

  const team = view.team;
  const packageJson = { ...js.packageJson, name: team.slug, version: team.version, description: team.description };
  const lock = structuredClone(js.lock) as { name: string; version: string; packages: Record<string, Record<string, unknown>> };
  lock.name = team.slug;
  lock.version = team.version;
  lock.packages[""] = { ...lock.packages[""], name: team.slug, version: team.version };
  // npm's own layout: two-space JSON and a final newline, as `npm install` writes it.
  files.add("package-lock.json", JSON.stringify(lock, null, 2) + "\n");
  const langgraphJson = { node_version: "20", graphs: { [team.slug]: "./src/graph.ts:graph" }, env: ".env", dependencies: ["."] };

  const jobs: FormatJob[] = [
    ...buildTypeScript(view).map((f) => ({ path: f.path, text: f.text, parser: "typescript" as const })),
    { path: "package.json", text: JSON.stringify(packageJson), parser: "json-stringify" },
    { path: "langgraph.json", text: JSON.stringify(langgraphJson), parser: "json" },
  ];
  const formatted = formatAll(jobs);
  jobs.forEach((job, i) => files.add(job.path, formatted[i]!));

  files.add("README.md", env.render("README.md.hbs", view));
  files.add(".env.example", env.render("env.example.hbs", view));
  files.add(LOSS_REPORT_PATH, lossReportMarkdown(loss, model.team.name, "LangGraph.js", view.connectionRows));
  if (model.team.readme !== undefined) files.add("TEAM.md", HELPERS.md_doc!(model.team.readme) as string);
  files.add("src/envelope.json", definitionText);
  return files;
}

export const langgraphJsTarget: ExportTarget = {
  name: "langgraph-js",
  title: "LangGraph.js",
  fieldRules: LANGGRAPH_JS_FIELD_RULES,
  generate,
};
