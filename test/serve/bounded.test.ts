// An answer's size is bounded by a small multiple of the request's (issue 16): identical
// diagnostics are collapsed into one with a count, and every answer lists at most
// MAX_DIAGNOSTICS of them, saying how many it left out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_DIAGNOSTICS } from "../../src/serve/diagnostic-cap.js";
import { EXAMPLE, post, serve, type Served } from "./helpers.js";

let s: Served;
beforeAll(async () => {
  s = await serve({ workers: 1 });
});
afterAll(async () => {
  await s.close();
});

/** The example team with its first agent allowed the given hosts (and no access policy). */
function withHosts(hosts: string[]): string {
  const def = JSON.parse(EXAMPLE.toString());
  delete def.agents[0].accessPolicy;
  def.agents[0].allowedHosts = hosts;
  return JSON.stringify(def);
}

describe("the amplification request", () => {
  // Under 1 MiB, once 115,000 warnings and a 39 MB answer: each "{{X}}" host is an unknown placeholder.
  const same = withHosts(Array.from({ length: 115_000 }, () => "{{X}}"));
  // Each host is its own message, so nothing collapses: the cap bounds it.
  const distinct = withHosts(Array.from({ length: 60_000 }, (_, i) => `h:${i}`));

  it("identical warnings at many places are one diagnostic with a count and the first places", async () => {
    expect(same.length).toBeLessThan(1024 * 1024);
    const a = await post(s, "/v1/validate", same);
    expect(a.status).toBe(200);
    expect(a.bytes.length).toBeLessThanOrEqual(4 * same.length);
    const unknown = a.json.diagnostics.filter((d: { code: string }) => d.code === "W_PLACEHOLDER_UNKNOWN");
    expect(unknown).toMatchObject([{ pointer: "/agents/0/allowedHosts/0", count: 115_000 }]);
    expect(unknown[0].alsoAt.map((p: { pointer: string }) => p.pointer)).toEqual([1, 2, 3, 4].map((i) => `/agents/0/allowedHosts/${i}`));
    expect(a.json.warnings).toBe(a.json.diagnostics.length);
    expect(a.json).not.toHaveProperty("diagnosticsOmitted");
  }, 60_000);

  it("distinct warnings are capped: errors and warnings count them all, diagnosticsOmitted the rest", async () => {
    const a = await post(s, "/v1/validate", distinct);
    expect(a.status).toBe(200);
    expect(a.bytes.length).toBeLessThanOrEqual(4 * distinct.length);
    expect(a.json.diagnostics.length).toBeLessThanOrEqual(MAX_DIAGNOSTICS);
    expect(a.json.warnings).toBeGreaterThanOrEqual(60_000);
    expect(a.json.diagnosticsOmitted).toBe(a.json.warnings + a.json.errors - a.json.diagnostics.length);
    const preview = await post(s, "/v1/exports?target=langgraph", distinct, { accept: "application/json" });
    expect(preview.status).toBe(200);
    expect(preview.headers.get("envelope-warnings")).toBe(String(a.json.warnings));
    expect(preview.json.diagnostics.length).toBeLessThanOrEqual(MAX_DIAGNOSTICS);
    expect(preview.json.diagnosticsOmitted).toBe(a.json.diagnosticsOmitted);
    expect(preview.json.loss.entries.length).toBeLessThan(100); // one entry per field, not per item
  }, 120_000);

  it("a problem's diagnostics are capped, errors first", async () => {
    const def = JSON.parse(withHosts(Array.from({ length: 20_000 }, (_, i) => `h:${i}`)));
    for (let i = 0; i < 20_000; i++) def.agents[0][`x${i}`] = 0; // unknown properties: errors
    const body = JSON.stringify(def);
    const a = await post(s, "/v1/exports?target=crewai", body, { accept: "application/json" });
    expect(a.status).toBe(422);
    expect(a.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(a.bytes.length).toBeLessThanOrEqual(4 * body.length);
    expect(a.json.detail).toBe("the definition has 20000 errors");
    expect(a.json.diagnostics.length).toBeLessThanOrEqual(MAX_DIAGNOSTICS);
    expect(a.json.diagnostics.every((d: { severity: string }) => d.severity === "error")).toBe(true);
    expect(a.json.diagnosticsOmitted).toBeGreaterThan(20_000);
  }, 60_000);
});
