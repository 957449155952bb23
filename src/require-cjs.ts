// CommonJS loaded synchronously from our ES modules: the build's artifacts in dist/ (the
// compiled templates, the standalone schema validator) and Handlebars' runtime. One seam on
// purpose: the CLI bundle (scripts/bundle-cli.mjs) replaces this module with one that has
// the files an export loads inlined, so they share the bundle's code cache (issue 18).
import { createRequire } from "node:module";

/** `require(id)` as the module at `from` (its import.meta.url) would resolve it. */
export function requireCjs(from: string, id: string): unknown {
  return createRequire(from)(id);
}
