// An answer's size is bounded by a small multiple of the request's (issue 16): identical
// diagnostics are collapsed into one with a count, and every answer lists at most
// MAX_DIAGNOSTICS of them, saying how many it left out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWER_ALLOWANCE, ANSWER_MULTIPLE } from "../../src/serve/answer-bound.js";
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

describe(`every answer is at most ${ANSWER_MULTIPLE} × its request + ${ANSWER_ALLOWANCE / 1024 / 1024} MiB`, () => {
  const within = (a: { bytes: Buffer }, body: string) => expect(a.bytes.length, `${a.bytes.length} bytes for ${Buffer.byteLength(body)}`).toBeLessThanOrEqual(ANSWER_MULTIPLE * Buffer.byteLength(body) + ANSWER_ALLOWANCE);
  /** The example with its first agent's prompt made of `unit` up to the 1 MiB body limit. */
  function withPrompt(unit: string): string {
    const def = JSON.parse(EXAMPLE.toString());
    const room = 1024 * 1024 - 2048 - Buffer.byteLength(JSON.stringify(def));
    def.agents[0].prompt = unit.repeat(Math.floor(room / Buffer.byteLength(JSON.stringify(unit).slice(1, -1))));
    return JSON.stringify(def);
  }
  // What each costs in the request, and what it became: a C0 control is 6 bytes here and 1 in
  // a prompt file; DEL, C1 controls, U+2028 and U+FEFF are 1–3 bytes here and a 4–6 byte YAML
  // escape, whose backslash the JSON preview escapes again, and the pristine record holds both
  // copies escaped once more (a DEL prompt: 24 × the request). Plain text was 4.35 ×.
  const worst: Array<[string, string]> = [
    ["plain text", "a"],
    ["C0 controls (\\u0000-style)", "\u0000\u0001\u001f"],
    ["DEL", "\u007f"],
    ["C1 controls", "\u0080\u0085\u009f"],
    ["U+2028 and U+FEFF", "\u2028\ufeff"],
    ["</script>", "</script>"],
    ["quotes and backslashes", '"\\'],
    ["non-BMP", "\u{1F600}"],
  ];
  for (const [what, unit] of worst) {
    it(`a prompt of ${what}: the JSON preview, the zip and the validation, both targets`, async () => {
      const body = withPrompt(unit);
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1024 * 1024);
      within(await post(s, "/v1/validate", body), body);
      for (const target of ["crewai", "langgraph"]) {
        const preview = await post(s, `/v1/exports?target=${target}`, body, { accept: "application/json" });
        expect(preview.status, preview.text.slice(0, 300)).toBe(200);
        within(preview, body);
        // What fits is whole; what does not is named, largest first, never cut.
        const omitted = preview.json.files.filter((f: { encoding: string }) => f.encoding === "omitted");
        expect(preview.json.contentOmitted ?? 0).toBe(omitted.length);
        for (const f of preview.json.files) if (f.encoding === "utf-8") expect(Buffer.byteLength(f.content), f.path).toBe(f.size);
        if (omitted.length) expect(omitted.map((f: { path: string }) => f.path)).toContain(".envelope/pristine.json");
        const zip = await post(s, `/v1/exports?target=${target}`, body);
        expect(zip.status).toBe(200);
        within(zip, body);
      }
    }, 240_000);
  }

  it("a team of 2,000 agents: the preview and a strict refusal list the loss report within the bound, and count it all", async () => {
    const def = JSON.parse(EXAMPLE.toString());
    const worker = def.agents[1];
    def.agents = [def.agents[0], ...Array.from({ length: 2000 }, (_, i) => ({ key: `a${i}`, name: `a${i}`, title: "t", role: "worker", adapterType: worker.adapterType, model: worker.model, prompt: "x", reportsToKey: def.agents[0].key }))];
    const body = JSON.stringify(def);
    const preview = await post(s, "/v1/exports?target=langgraph", body, { accept: "application/json" });
    expect(preview.status).toBe(200);
    within(preview, body); // was 36 × the request
    const { counts, entries, entriesOmitted } = preview.json.loss;
    expect(entriesOmitted).toBeGreaterThan(0);
    expect(entries.length + entriesOmitted).toBe(counts.carried + counts.approximated + counts.dropped);
    const strict = await post(s, "/v1/exports?target=crewai&strict=true", body);
    expect(strict.status).toBe(422);
    expect(strict.json.type).toBe("urn:envelope-export:problem:lossy-export");
    within(strict, body); // was 6.7 ×
    // What strict refuses is listed first, whatever is left out.
    expect(strict.json.loss.entries.filter((e: { status: string; registryOnly?: boolean }) => e.status !== "carried" && !e.registryOnly).length).toBeGreaterThan(0);
  }, 240_000);

  it("a zip that would exceed the bound is refused whole (422 export-too-large), never cut; the preview leaves contents out instead", async () => {
    // An enum value is written in several files (state, team, README, the copy and the pristine
    // record of each): 1 MiB of it that deflate cannot shrink made a zip of 6 × the request.
    let seed = 2463534242;
    const next = () => {
      seed ^= seed << 13;
      seed >>>= 0;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>>= 0);
    };
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const def = JSON.parse(EXAMPLE.toString());
    const room = 1024 * 1024 - 2048 - Buffer.byteLength(JSON.stringify(def));
    def.inputs.priority_override.enum[0] = Array.from({ length: room }, () => alphabet[next() % alphabet.length]).join("");
    const body = JSON.stringify(def);
    const zip = await post(s, "/v1/exports?target=langgraph", body);
    expect(zip.status).toBe(422);
    expect(zip.json.type).toBe("urn:envelope-export:problem:export-too-large");
    expect(zip.json.detail).toMatch(/^the answer would be \d+ bytes, over the \d+ this server answers to a request this size \(3 × the request \+ 2 MiB\); the CLI exports it/);
    within(zip, body);
    const preview = await post(s, "/v1/exports?target=langgraph", body, { accept: "application/json" });
    expect(preview.status).toBe(200);
    within(preview, body);
    expect(preview.json.contentOmitted).toBeGreaterThan(0);
  }, 240_000);
});
