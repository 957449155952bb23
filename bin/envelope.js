#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
import { readdirSync, statSync } from "node:fs";

// In a checkout (src/ beside dist/), refuse a dist/ older than the sources: templates/ are read
// live, so stale compiled code with new templates fails in confusing ways (a missing template,
// a field the view no longer has). An installed package has no src/ and skips this.
const root = new URL("../", import.meta.url);
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = new URL(entry.name + (entry.isDirectory() ? "/" : ""), dir);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}
let built = -1;
let sources = 0;
try {
  built = statSync(new URL("dist/cli/run.js", root)).mtimeMs;
  sources = newest(new URL("src/", root));
} catch {
  // no src/ (an installed package) or no dist/ yet (the import below says so)
}
if (built >= 0 && sources > built) {
  process.stderr.write("envelope: dist/ is older than src/; run `npm run build` first\n");
  process.exit(1);
}
await import("../dist/cli/run.js");
