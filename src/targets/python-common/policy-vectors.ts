// The access-policy vectors (spec/access-policy-vectors.json) every Python target copies
// into its project's tests, so all targets and the TypeScript evaluator agree on them.
import { readFileSync } from "node:fs";

let vectors: Uint8Array | undefined;

/** Read once per process, not once per export. */
export function policyVectors(): Uint8Array {
  vectors ??= readFileSync(new URL("../../../spec/access-policy-vectors.json", import.meta.url));
  return vectors;
}
