// Python formatting in-process with ruff's formatter compiled to WASM, configured like the
// `[tool.ruff]` section generated projects carry, so `ruff format --check` agrees with us.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { format, initSync } from "@wasm-fmt/ruff_fmt/web";

export const PYTHON_LINE_WIDTH = 100;

// Formatting is a third of an export's CPU, and most modules render to the same text again
// when a definition is exported twice with small edits (a prompt, a description: the page
// previews after every pause in typing). Formatted text is kept by rendered text, least
// recently used out, bounded by characters held. Keyed by the text alone: the path only
// names the module in errors (every generated module is a .py file).
const CACHE_CHARS = 4 * 1024 * 1024;
const formatted = new Map<string, string>();
let cachedChars = 0;

// The package's Node entry finds its .wasm by its own import.meta.url, which the CLI bundle
// (scripts/bundle-cli.mjs) cannot give a dependency; the file is found from here instead.
let loaded = false;
function loadFormatter(): void {
  if (loaded) return;
  initSync(readFileSync(createRequire(import.meta.url).resolve("@wasm-fmt/ruff_fmt/wasm")));
  loaded = true;
}

/** Empties the cache of formatted text: for a bench that measures formatting itself. */
export function forgetFormatted(): void {
  formatted.clear();
  cachedChars = 0;
}

export function formatPython(source: string, path: string): string {
  const hit = formatted.get(source);
  if (hit !== undefined) {
    formatted.delete(source); // re-insert: Map order is the recency order
    formatted.set(source, hit);
    return hit;
  }
  let out: string;
  loadFormatter();
  try {
    out = format(source, path, { line_width: PYTHON_LINE_WIDTH, indent_style: "space", indent_width: 4, quote_style: "double", line_ending: "lf" });
  } catch (e) {
    // A template produced invalid Python: a bug in the target, reported with the source.
    throw new Error(`generated ${path} is not valid Python (${(e as Error).message ?? String(e)}):\n${source}`);
  }
  const size = source.length + out.length;
  if (size <= CACHE_CHARS / 16) {
    formatted.set(source, out);
    cachedChars += size;
    for (const [key, value] of formatted) {
      if (cachedChars <= CACHE_CHARS) break;
      formatted.delete(key);
      cachedChars -= key.length + value.length;
    }
  }
  return out;
}
