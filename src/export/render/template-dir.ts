// Reads a target's template folders once per process: `*.hbs` files are templates (compiled
// once, through the safe environment), everything under `static/` is copied verbatim. A
// target can draw on folders it shares with others (`python-common` for the Python targets):
// a file lives in exactly one folder, so a path found in two is an error, never an override.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { createTemplateEnv, type Helper, type TemplateEnv } from "./template-env.js";

export const TEMPLATES_ROOT = fileURLToPath(new URL("../../../templates/", import.meta.url));

export interface TemplateDir {
  env: TemplateEnv;
  /** Static files: project-relative path → bytes and whether executable. */
  statics: Array<{ path: string; bytes: Uint8Array; executable: boolean }>;
}

// Tool caches a developer's local runs leave among static files (git ignores them too);
// shipping them would put machine-specific junk into every exported project.
const CACHE_DIRS = new Set(["__pycache__", ".ruff_cache", ".pytest_cache", ".mypy_cache"]);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !(e.isDirectory() && CACHE_DIRS.has(e.name)))
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

const cache = new Map<string, TemplateDir>();

/** `folders` are names under `root` (templates/), e.g. `["python-common", "crewai"]`. */
export function loadTemplateDir(
  folders: string | readonly string[],
  helpers: Record<string, Helper>,
  valueHelpers: Record<string, (...args: never[]) => unknown> = {},
  root: string = TEMPLATES_ROOT,
): TemplateDir {
  const list = typeof folders === "string" ? [folders] : folders;
  const key = [root, ...list].join("\0");
  const hit = cache.get(key);
  if (hit) return hit;
  const templates: Record<string, string> = {};
  const statics: TemplateDir["statics"] = [];
  const owner = new Map<string, string>();
  const claim = (kind: string, path: string, folder: string) => {
    const first = owner.get(`${kind}:${path}`);
    if (first !== undefined) throw new Error(`templates/${first} and templates/${folder} both have the ${kind} ${path}: a file belongs to one folder`);
    owner.set(`${kind}:${path}`, folder);
  };
  for (const folder of list) {
    const dir = join(root, folder);
    const staticRoot = join(dir, "static");
    for (const file of walk(dir)) {
      const rel = relative(dir, file).split(sep).join("/");
      if (file.startsWith(staticRoot + sep)) {
        const path = relative(staticRoot, file).split(sep).join("/");
        claim("static file", path, folder);
        statics.push({ path, bytes: readFileSync(file), executable: rel.endsWith(".sh") });
      } else if (rel.endsWith(".hbs")) {
        claim("template", rel, folder);
        templates[rel] = readFileSync(file, "utf8");
      }
    }
  }
  statics.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const loaded = { env: createTemplateEnv(templates, helpers, valueHelpers), statics };
  cache.set(key, loaded);
  return loaded;
}
