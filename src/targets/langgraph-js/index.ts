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

/** js/project-lock/envelope-runtime-js.json: the runtime as `npm pack` makes it (runtime-entry.mjs). */
interface RuntimeEntry {
  name: string;
  version: string;
  filename: string;
  integrity: string;
  license: string;
  engines: Record<string, string>;
  peerDependencies: Record<string, string>;
}

interface Cached {
  runtime: Array<{ path: string; bytes: Uint8Array }>;
  packageJson: Record<string, unknown>;
  lock: Record<string, unknown>;
  entry: RuntimeEntry;
}

/** The registry npm uses when the export names none. */
export const DEFAULT_REGISTRY = "https://registry.npmjs.org/";
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
    entry: JSON.parse(readFileSync(join(JS_ROOT, "project-lock/envelope-runtime-js.json"), "utf8")) as RuntimeEntry,
  };
  return cached;
}

type Lock = { name: string; version: string; packages: Record<string, Record<string, unknown>> };

/**
 * `--runtime index`: the runtime pinned exactly and installed from a registry (`indexUrl`, else
 * npm's default), not vendored: package.json's dependency and the lock's entry (resolved from
 * that registry, with the integrity of js/envelope-runtime's `npm pack`), in place of the `file:` link.
 */
function pinFromRegistry(packageJson: Record<string, unknown>, lock: Lock, entry: RuntimeEntry, registry: string): void {
  const deps = { ...(packageJson.dependencies as Record<string, string>), [entry.name]: entry.version };
  packageJson.dependencies = deps;
  lock.packages[""] = { ...lock.packages[""], dependencies: { ...(lock.packages[""]!.dependencies as Record<string, string>), [entry.name]: entry.version } };
  delete lock.packages[RUNTIME_DIR];
  const base = registry.endsWith("/") ? registry : `${registry}/`;
  const packages: Record<string, Record<string, unknown>> = {};
  // npm's order: the root, then every path sorted; the entry takes the link's place.
  for (const [path, value] of Object.entries(lock.packages)) {
    packages[path] =
      path === `node_modules/${entry.name}`
        ? { version: entry.version, resolved: `${base}${entry.name}/-/${entry.filename}`, integrity: entry.integrity, license: entry.license, engines: entry.engines, peerDependencies: entry.peerDependencies }
        : value;
  }
  lock.packages = packages;
}

function generate({ model, definitionText, loss, connections, runtime }: TargetInput): FileSet {
  // prettier loads in its worker thread while this one loads ts-morph (2 cores: about in parallel).
  startFormatter();
  const view = buildView(model, loss, connections);
  const { env, statics } = loadTemplateDir(TEMPLATE_FOLDERS, HELPERS, VALUE_HELPERS);
  const files = new FileSet();
  const js = jsInputs();

  for (const s of statics) files.add(s.path, s.bytes, s.executable ? 0o755 : 0o644, true);
  const fromIndex = runtime?.mode === "index";
  if (!fromIndex) for (const f of js.runtime) files.add(`${RUNTIME_DIR}/${f.path}`, f.bytes, 0o644, true);

  const team = view.team;
  const packageJson: Record<string, unknown> = { ...js.packageJson, name: team.slug, version: team.version, description: team.description };
  const lock = structuredClone(js.lock) as Lock;
  lock.name = team.slug;
  lock.version = team.version;
  lock.packages[""] = { ...lock.packages[""], name: team.slug, version: team.version };
  if (fromIndex) {
    pinFromRegistry(packageJson, lock, js.entry, runtime.indexUrl ?? DEFAULT_REGISTRY);
    // The organisation's registry, for every package (npm ci fetches each lock entry from it).
    if (runtime.indexUrl) files.add(".npmrc", `registry=${runtime.indexUrl}\n`);
  }
  // npm's own layout: two-space JSON and a final newline, as `npm install` writes it.
  files.addLock("package-lock.json", JSON.stringify(lock, null, 2) + "\n", "npm install");
  // A gated team's server cleans each resume before it is stored (src/server.ts).
  const http = team.gates.length ? { http: { app: "./src/server.ts:app" } } : {};
  const langgraphJson = { node_version: "20", graphs: { [team.slug]: "./src/graph.ts:graph" }, env: ".env", dependencies: ["."], ...http };

  const jobs: FormatJob[] = [
    ...buildTypeScript(view).map((f) => ({ path: f.path, text: f.text, parser: "typescript" as const })),
    // JSON.stringify leaves DEL and the bidirectional controls raw: escaped, as nothing else in the file has them.
    { path: "package.json", text: JSON.stringify(packageJson).replace(/[\u007f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`), parser: "json-stringify" },
    { path: "langgraph.json", text: JSON.stringify(langgraphJson), parser: "json" },
  ];
  const formatted = formatAll(jobs);
  jobs.forEach((job, i) => files.add(job.path, formatted[i]!));

  files.add("README.md", env.render("README.md.hbs", { ...view, runtime: { vendored: !fromIndex, version: js.entry.version, indexUrl: fromIndex ? (runtime.indexUrl ?? DEFAULT_REGISTRY) : undefined, npmrc: fromIndex && runtime.indexUrl !== undefined } }));
  files.add(".env.example", env.render("env.example.hbs", view));
  files.add(LOSS_REPORT_PATH, lossReportMarkdown(loss, model.team.name, "LangGraph.js", view.connectionRows));
  if (model.team.readme !== undefined) files.add("TEAM.md", HELPERS.md_doc!(model.team.readme) as string);
  files.add("src/envelope.json", definitionText);
  return files;
}

export const langgraphJsTarget: ExportTarget = {
  name: "langgraph-js",
  title: "LangGraph.js",
  language: "typescript",
  fieldRules: LANGGRAPH_JS_FIELD_RULES,
  // An agent's identifier is only its context field (view.contextFields numbers one named `model`).
  reservedMembers: new Set(),
  generate,
};
