// The shared access-policy vectors (spec/access-policy-vectors.json) against the model's
// normalized policy: normalization (allowedHosts → deny-by-default rules, require_approval →
// deny) must keep every decision the generated projects make.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { normalizeAccessPolicy } from "../src/model/access-policy.js";
import { evaluatePolicy, removeDotSegments } from "../src/model/evaluate-policy.js";

interface Vector {
  name: string;
  policy: { accessPolicy?: never; allowedHosts?: string[] };
  method: string;
  url: string;
  variables: Record<string, string>;
  expect: { decision: "allow" | "deny"; reason: string; rule: number | null };
}

const VECTORS = JSON.parse(readFileSync(new URL("../spec/access-policy-vectors.json", import.meta.url), "utf8")) as Vector[];

describe("access-policy vectors", () => {
  it("cover allowedHosts, every action, wildcards, methods, path prefixes and placeholders", () => {
    const text = JSON.stringify(VECTORS);
    for (const feature of ["allowedHosts", "require_approval", '"deny"', "*.", "pathPrefix", "methods", "{{", "defaultAction\":\"allow"]) {
      expect(text, feature).toContain(feature);
    }
    expect(VECTORS.length).toBeGreaterThanOrEqual(20);
  });
  it.each(VECTORS.map((v) => [v.name, v] as const))("%s", (_name, v) => {
    const model = normalizeAccessPolicy(0, v.policy as Parameters<typeof normalizeAccessPolicy>[1]);
    expect(evaluatePolicy(model, v.method, v.url, v.variables)).toEqual(v.expect);
  });
  it("removes dot segments like RFC 3986", () => {
    expect(removeDotSegments("/a/b/../c/./d")).toBe("/a/c/d");
    expect(removeDotSegments("/api/v2/tickets/%2e%2e/users")).toBe("/api/v2/users");
    expect(removeDotSegments("/..")).toBe("/");
  });
});
