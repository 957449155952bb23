// V8 flags of a one-shot export, in one place: commands.ts sets them before the formatter is
// first loaded, and the bundle loader (bundle.ts) before it compiles the CLI, since V8 accepts a
// code cache only under the flags it was made with.
import { setFlagsFromString } from "node:v8";

/**
 * A one-shot export formats a handful of modules once, so V8's baseline WebAssembly compiler is
 * all ruff's formatter needs: optimizing it on background threads only takes CPU from the
 * export (about 15 ms of a cold export on 2 cores; bench/RESULTS.md). Never for `serve`, whose
 * workers format all day.
 */
export function baselineWasmOnly(): void {
  setFlagsFromString("--liftoff-only");
  // And each function validated when first compiled, like it is compiled, rather than all
  // 1.2 MB up front: an export calls a fraction of the formatter (about 3 ms).
  setFlagsFromString("--wasm-lazy-validation");
}
