// Reads a target's template folder once per process: `*.hbs` files are templates (compiled
// once, through the safe environment), everything under `static/` is copied verbatim.
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

export function loadTemplateDir(target: string, helpers: Record<string, Helper>, valueHelpers: Record<string, (...args: never[]) => unknown> = {}): TemplateDir {
  const hit = cache.get(target);
  if (hit) return hit;
  const root = join(TEMPLATES_ROOT, target);
  const staticRoot = join(root, "static");
  const templates: Record<string, string> = {};
  const statics: TemplateDir["statics"] = [];
  for (const file of walk(root)) {
    const rel = relative(root, file).split(sep).join("/");
    if (file.startsWith(staticRoot + sep)) {
      const bytes = readFileSync(file);
      statics.push({ path: relative(staticRoot, file).split(sep).join("/"), bytes, executable: rel.endsWith(".sh") });
    } else if (rel.endsWith(".hbs")) {
      templates[rel] = readFileSync(file, "utf8");
    }
  }
  const dir = { env: createTemplateEnv(templates, helpers, valueHelpers), statics };
  cache.set(target, dir);
  return dir;
}
