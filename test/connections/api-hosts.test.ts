// The shared apiHosts vectors (spec/api-hosts-vectors.json) against the TypeScript rule, and
// a property: whatever label is put in front of an entry, only a dot joins it.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apiHostsAllow } from "../../src/connections/api-hosts.js";

interface Vector {
  apiHosts: string[];
  host: string;
  allowed: boolean;
  why: string;
}
const { vectors } = JSON.parse(readFileSync(new URL("../../spec/api-hosts-vectors.json", import.meta.url), "utf8")) as { vectors: Vector[] };

describe("apiHosts (dot-anchored suffix, fail-closed)", () => {
  it.each(vectors)("$host against $apiHosts: $why", ({ apiHosts, host, allowed }) => {
    expect(apiHostsAllow(apiHosts, host)).toBe(allowed);
  });

  it("a label before an entry is allowed only across a dot", () => {
    const label = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
    fc.assert(
      fc.property(label, label, (prefix, name) => {
        const entry = `${name}.example`;
        expect(apiHostsAllow([entry], `${prefix}.${entry}`)).toBe(true);
        expect(apiHostsAllow([entry], `${prefix}${entry}`)).toBe(false);
      }),
    );
  });
});
