#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
import { existsSync, readdirSync, statSync } from "node:fs";

const root = new URL("../", import.meta.url);
const fail = (message) => {
  process.stderr.write(`envelope: ${message}\n`);
  process.exit(1);
};

// Before `npm ci` there is no dist/ (and in a clone no node_modules/): say what to run rather
// than let the import below fail with a stack trace. An installed package has no src/, and
// its dependencies may sit in a node_modules/ further up, so only a clone is held to that.
if (!existsSync(new URL("dist/cli/run.js", root))) fail("not built yet — run `npm ci` (it builds dist/)");
const checkout = existsSync(new URL("src/", root));
if (checkout && !existsSync(new URL("node_modules/", root))) fail("the dependencies are not installed — run `npm ci`");

// In a checkout, refuse a dist/ older than the sources: templates/ are read live, so stale
// compiled code with new templates fails in confusing ways (a missing template, a field the
// view no longer has).
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = new URL(entry.name + (entry.isDirectory() ? "/" : ""), dir);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}
if (checkout && newest(new URL("src/", root)) > statSync(new URL("dist/cli/run.js", root)).mtimeMs) {
  fail("dist/ is older than src/; run `npm run build` first");
}
// An export starts faster from the bundle and its code cache (dist/envelope.cjs, see
// src/cli/bundle.ts); a bundle older than dist/cli/run.js (tsc run on its own since) would be
// stale code, so then the modules themselves run. Only `export`: the other commands load a few
// modules (`--version`, `validate`) or run for long (`serve`), and reading the whole bundle and
// its cache costs them more than it saves (bench/RESULTS.md).
const bundle = new URL("dist/envelope.cjs", root);
const bundled = process.argv[2] === "export" && existsSync(bundle) && statSync(bundle).mtimeMs >= statSync(new URL("dist/cli/run.js", root)).mtimeMs;
try {
  if (bundled) (await import("../dist/cli/bundle.js")).loadBundle().run();
  else await import("../dist/cli/run.js");
} catch (e) {
  // A dependency missing from node_modules/ (an interrupted install): the same remedy.
  if (e?.code !== "ERR_MODULE_NOT_FOUND" || !/Cannot find package/.test(e.message)) throw e;
  fail(`${e.message.split("\n")[0]} — run \`npm ci\``);
}
