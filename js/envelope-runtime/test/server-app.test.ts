// resumeRedaction: the app langgraph.json's http.app names. Driven with Hono's app.request (no
// network), alone and mounted the way @langchain/langgraph-api mounts it (app.route("/", api)
// before its own routes, which read the body through Hono's json validator).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Hono } from "hono";
import { validator } from "hono/validator";
import { describe, expect, it } from "vitest";
import { ECHO_LIMIT } from "../src/gates.js";
import { bounded, cleanedResume, MAX_BODY, MAX_DEPTH, MAX_ITEMS, REFUSED_PATH, resumeRedaction, rewritten, RUN_PATH, TEXT_LIMIT } from "../src/server-app.js";
import type { GateSpec } from "../src/gates.js";

const SECRET = "sk-live-0123456789abcdef";
const env = { API_TOKEN: SECRET };
const gate: GateSpec = {
  name: "review",
  type: "approval",
  afterStep: "a",
  triggersStep: "b",
  fields: ["title"],
  trigger: "all_resolved",
  thresholdCount: null,
  onReject: "skip",
  actions: [
    { label: "Approve", verb: "approve" },
    { label: "Reject", verb: "reject" },
  ],
  timeout: null,
};
const team = { gates: [gate], secrets: ["API_TOKEN"] };

/** A server like @langchain/langgraph-api's: the http.app's routes first, then a runs route that validates the JSON body and stores what it got. */
function server(stored: unknown[]): Hono {
  const app = new Hono();
  app.route("/", resumeRedaction(team, env));
  const json = validator("json", (value) => value);
  const store = (c: { req: { valid: (t: "json") => unknown } }) => {
    stored.push(c.req.valid("json"));
    return new Response("{}", { headers: { "content-type": "application/json" } });
  };
  for (const path of ["/threads/:id/runs", "/threads/:id/runs/wait", "/threads/:id/runs/stream", "/runs", "/runs/wait", "/runs/stream", "/runs/batch"]) app.post(path, json, store);
  app.post("/threads/:id/state", json, store);
  app.post("/threads/:id/commands", json, store);
  return app;
}

const post = (app: Hono, path: string, body: unknown) => app.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });

describe("resumeRedaction", () => {
  it("cleans command.resume on every route that creates a run, before the server's handler reads the body", async () => {
    const stored: unknown[] = [];
    const app = server(stored);
    const resume = { decisions: [{ record: "r1", action: "Approve", feedback: `the key is ${SECRET}` }], [`k-${SECRET}`]: 1 };
    for (const path of ["/threads/t1/runs", "/threads/t1/runs/wait", "/threads/t1/runs/stream", "/runs", "/runs/wait", "/runs/stream"]) {
      const response = await post(app, path, { assistant_id: "team", command: { resume }, input: { note: SECRET } });
      expect(response.status, path).toBe(200);
    }
    await post(app, "/runs/batch", [{ assistant_id: "team", command: { resume } }, { assistant_id: "team" }]);
    expect(stored).toHaveLength(7);
    for (const body of stored) for (const run of [body].flat() as Array<{ command?: unknown }>) expect(JSON.stringify(run.command ?? null)).not.toContain(SECRET);
    expect(stored[0]).toEqual({
      assistant_id: "team",
      command: { resume: { decisions: [{ record: "r1", action: "Approve", feedback: "the key is {{API_TOKEN}}" }], "k-{{API_TOKEN}}": 1 } },
      input: { note: SECRET }, // only command.resume is the middleware's: the graph redacts its input
    });
    expect((stored[6] as unknown[])[1]).toEqual({ assistant_id: "team" });
  });

  it("passes other requests and bodies without a command unchanged, and refuses v2 commands, event streams and A2A", async () => {
    const stored: unknown[] = [];
    const app = server(stored);
    await post(app, "/threads/t1/state", { values: { x: SECRET }, command: { resume: SECRET } });
    await post(app, "/threads/t1/runs/wait", { assistant_id: "team", input: { x: SECRET } });
    expect(stored).toEqual([{ values: { x: SECRET }, command: { resume: SECRET } }, { assistant_id: "team", input: { x: SECRET } }]);
    const refused = await post(app, "/threads/t1/commands", { method: "input.respond", params: { response: SECRET } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(((await refused.json()) as { title: string }).title).toBe("Forbidden");
    expect((await app.request("/threads/t1/stream/events")).status).toBe(403);
    expect((await app.request("/a2a/team", { method: "POST", body: "{}" })).status).toBe(403);
    expect(stored).toHaveLength(2);
    // Not JSON: the server answers it.
    expect(rewritten('{"command": ', env, ECHO_LIMIT)).toBe('{"command": ');
  });

  it("hands on a body it does not change byte for byte (not JSON, not UTF-8)", async () => {
    const app = new Hono();
    app.route("/", resumeRedaction(team, env));
    app.post("/threads/:id/runs", async (c) => new Response(await c.req.arrayBuffer()));
    const sent = new Uint8Array([0x7b, 0xff, 0xfe, 0x22, 0x63, 0x6f, 0x6d, 0x6d, 0x61, 0x6e, 0x64, 0x22]); // {\xff\xfe"command"
    const got = await app.request("/threads/t1/runs", { method: "POST", body: sent });
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(sent);
  });

  it("refuses a body over MAX_BODY with 413, by its declared length or as it is read", async () => {
    const stored: unknown[] = [];
    const app = server(stored);
    const declared = await app.request("/runs/wait", { method: "POST", headers: { "content-type": "application/json", "content-length": String(MAX_BODY + 1) }, body: "{}" });
    expect(declared.status).toBe(413);
    const big = JSON.stringify({ command: { resume: "x".repeat(MAX_BODY) } });
    const read = await post(app, "/threads/t1/runs", big);
    expect(read.status).toBe(413);
    expect(((await read.json()) as { status: number }).status).toBe(413);
    expect(stored).toHaveLength(0);
  });

  it("bounds every part of a resume as the Python runtime does, redacting each text whole before it is cut", () => {
    const longest = ECHO_LIMIT;
    const feedback = "a".repeat(TEXT_LIMIT - 5) + SECRET;
    const out = cleanedResume({ decisions: [{ record: "r".repeat(ECHO_LIMIT + 1), action: "Approve", feedback }] }, env, longest) as { decisions: Array<Record<string, string>> };
    const d = out.decisions[0]!;
    expect(d.record).toBe(`${"r".repeat(ECHO_LIMIT - 18)}… (${ECHO_LIMIT + 1} characters)`);
    expect(Array.from(d.feedback!).length).toBe(TEXT_LIMIT);
    expect(d.feedback).not.toContain("sk-live");
    const many = bounded({ decisions: Array.from({ length: MAX_ITEMS + 5 }, () => ({ record: "r1" })) }, longest) as { decisions: unknown[] };
    expect(many.decisions).toHaveLength(MAX_ITEMS + 1);
    expect(many.decisions.at(-1)).toEqual({ record: "… and 5 more items", action: "… and 5 more items" });
    let deep: unknown = "x";
    for (let i = 0; i < MAX_DEPTH + 2; i++) deep = [deep];
    expect(JSON.stringify(bounded(deep, longest))).toContain(`nested deeper than ${MAX_DEPTH} levels`);
    const keys = bounded(Object.fromEntries(Array.from({ length: MAX_ITEMS + 2 }, (_, i) => [`k${i}`, i])), longest) as Record<string, unknown>;
    expect(keys["…"]).toBe("and 2 more keys");
    // "__proto__" stays a key of the map, not its prototype.
    const proto = bounded(JSON.parse('{"__proto__": {"x": 1}}'), longest) as object;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(["__proto__"]);
  });

  it("covers every route of the installed @langchain/langgraph-api that may carry a resume", () => {
    const require = createRequire(import.meta.url);
    const dist = dirname(require.resolve("@langchain/langgraph-api/server"));
    const routes = [...readFileSync(join(dist, "api/runs.mjs"), "utf8").matchAll(/api\.(post|patch|put)\("([^"]+)"/g), ...readFileSync(join(dist, "api/protocol.mjs"), "utf8").matchAll(/api\.(post|get)\("([^"]+)"/g)].map((m) => m[2]!);
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      const path = route.replace(/:[a-z_]+/g, "id");
      if (/search|cancel/.test(path)) continue;
      expect(RUN_PATH.test(path) || REFUSED_PATH.test(path), path).toBe(true);
    }
  });
});
