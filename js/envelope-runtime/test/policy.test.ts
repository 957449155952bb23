// The access-policy decisions every Envelope target makes alike: envelope-export's shared vectors.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluate, fromAllowedHosts, type AccessPolicy } from "../src/policy.js";

interface Vector {
  name: string;
  policy: { accessPolicy?: { defaultAction?: "allow" | "deny"; rules?: AccessPolicy["rules"] }; allowedHosts?: string[] };
  method: string;
  url: string;
  variables: Record<string, string>;
  expect: { decision: "allow" | "deny"; reason: string; rule: number | null };
}

const vectors = JSON.parse(readFileSync(new URL("../../../spec/access-policy-vectors.json", import.meta.url), "utf8")) as Vector[];

describe("access-policy vectors", () => {
  it("has the shared vectors", () => expect(vectors.length).toBeGreaterThan(50));
  it.each(vectors.map((v, i) => [i, v.name, v] as const))("%i %s", (_i, _name, v) => {
    const policy: AccessPolicy = v.policy.allowedHosts ? fromAllowedHosts(v.policy.allowedHosts) : { defaultAction: v.policy.accessPolicy?.defaultAction ?? "deny", rules: v.policy.accessPolicy?.rules ?? [] };
    const decision = evaluate(policy, v.method, v.url, v.variables ?? {});
    expect({ decision: decision.allowed ? "allow" : "deny", reason: decision.reason, rule: decision.rule }).toEqual(v.expect);
  });
});
