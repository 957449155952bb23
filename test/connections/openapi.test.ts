// A pack's OpenAPI document → the operations its tools are made of: names, parameters, bodies,
// local refs, and every refusal with the file and pointer it is about.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readOpenApi } from "../../src/connections/openapi.js";
import type { ConnectionPack } from "../../src/connections/read-packs.js";
import { ROOT } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "envelope-openapi-"));
let n = 0;

function packWith(doc: unknown, ref = "./openapi.json", text?: string): ConnectionPack {
  const d = join(dir, `p${++n}`);
  mkdirSync(d);
  if (doc !== undefined || text !== undefined) writeFileSync(join(d, ref), text ?? JSON.stringify(doc, null, 2));
  return {
    file: join(d, "pack.json"),
    name: "community.envelope.acme",
    version: "1.0.0",
    provider: { id: "acme", displayName: "Acme", auth: { kind: "bearer" }, reach: { openapi: { ref } }, apiHosts: ["acme.example.com"] },
  };
}

const doc = (paths: unknown, extra: Record<string, unknown> = {}) => ({ openapi: "3.1.0", info: { title: "t", version: "1" }, servers: [{ url: "https://api.acme.example.com/v1/" }], paths, ...extra });

describe("reading a pack's OpenAPI document", () => {
  it("the fixture's two operations: names, parameters from the path item and a $ref, the body from components", () => {
    const pack: ConnectionPack = { file: join(ROOT, "test/fixtures/connections/helpdesk/pack.json"), name: "x", version: "1", provider: { id: "helpdesk", displayName: "Helpdesk", auth: { kind: "api_key" }, reach: { openapi: { ref: "./openapi.json" } }, apiHosts: ["helpdesk.example.com"] } };
    const r = readOpenApi(pack);
    expect(r.diagnostics).toEqual([]);
    const api = r.api!;
    expect(api.baseUrl).toBe("https://api.helpdesk.example.com/v2");
    expect(api.apiKeyHeader).toBe("X-Helpdesk-Key");
    expect(api.operations.map((o) => [o.tool, o.method, o.path])).toEqual([
      ["helpdesk_get_ticket", "GET", "/tickets/{ticket_id}"],
      ["helpdesk_post_tickets_ticket_id_comments", "POST", "/tickets/{ticket_id}/comments"],
    ]);
    const [get, post] = api.operations;
    expect(get!.description).toBe("Read a ticket: Returns the ticket with its status and requester.");
    expect(get!.params).toEqual([
      { arg: "ticket_id", name: "ticket_id", in: "path", required: true, description: "The ticket's id.", schema: { type: "integer" } },
      { arg: "include", name: "include", in: "query", required: false, description: "Side-load related records.", schema: { type: "string", enum: ["comments", "users"] } },
    ]);
    expect(get!.body).toBeUndefined();
    expect(post!.body).toEqual({
      required: true,
      description: "",
      schema: { type: "object", required: ["body"], properties: { body: { type: "string", description: "The comment's text." }, public: { type: "boolean", description: "Whether the customer sees it." }, tags: { type: "array", items: { type: "string" } } } },
    });
  });

  it("tool names: at most 64 characters, unique across packs; argument names are Python identifiers, unique", () => {
    const long = "x".repeat(80);
    const taken = new Set(["acme_list"]);
    const r = readOpenApi(
      packWith(
        doc({
          "/a": { get: { operationId: "list", parameters: [{ name: "X-Request-Id", in: "header", schema: { type: "string" } }, { name: "class", in: "query" }, { name: "x_request_id", in: "query" }] } },
          "/b": { get: { operationId: long }, post: { operationId: long } },
        }),
      ),
      taken,
    );
    expect(r.diagnostics).toEqual([]);
    const tools = r.api!.operations.map((o) => o.tool);
    expect(tools[0]).toBe("acme_list_2");
    expect(tools.every((t) => t.length <= 64)).toBe(true);
    expect(new Set(tools).size).toBe(3);
    expect(r.api!.operations[0]!.params.map((p) => [p.arg, p.name])).toEqual([
      ["x_request_id", "X-Request-Id"],
      ["class_", "class"],
      ["x_request_id_", "x_request_id"],
    ]);
  });

  it("refusals name the file and the pointer: remote ref, recursion, oneOf, cookie, non-JSON body, no servers", () => {
    const r = readOpenApi(
      packWith(
        doc(
          {
            "/remote": { get: { parameters: [{ $ref: "https://elsewhere.example.com/p.json" }] } },
            "/loop": { post: { requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } } } } },
            "/one": { get: { parameters: [{ name: "q", in: "query", schema: { oneOf: [{ type: "string" }] } }] } },
            "/cookie": { get: { parameters: [{ name: "sid", in: "cookie" }] } },
            "/form": { post: { requestBody: { content: { "application/x-www-form-urlencoded": {} } } } },
            "/host": { get: { parameters: [{ name: "Authorization", in: "header" }, { name: "Host", in: "header" }] } },
          },
          { servers: [], components: { schemas: { Node: { type: "object", properties: { next: { $ref: "#/components/schemas/Node" } } } } } },
        ),
      ),
    );
    expect(r.api).toBeUndefined();
    expect(r.diagnostics.every((d) => d.code === "E_PACK_OPENAPI" && d.file!.endsWith("openapi.json") && d.line > 0)).toBe(true);
    expect(r.diagnostics.map((d) => d.pointer)).toEqual([
      "/servers",
      "/paths/~1remote/get/parameters/0/$ref",
      "/components/schemas/Node/properties/next/$ref",
      "/paths/~1one/get/parameters/0/schema/oneOf",
      "/paths/~1cookie/get/parameters/0/in",
      "/paths/~1form/post/requestBody/content",
      "/paths/~1host/get/parameters/1/name",
    ]);
  });

  it("a URL ref is never fetched, YAML is refused, a missing file and bad JSON are diagnostics", () => {
    const url = readOpenApi(packWith(undefined, "https://acme.example.com/openapi.json"));
    expect(url.diagnostics.map((d) => [d.code, d.pointer, d.file?.endsWith("pack.json")])).toEqual([["E_PACK_OPENAPI", "/provider/reach/openapi/ref", true]]);
    expect(url.diagnostics[0]!.message).toMatch(/never fetched/);
    const yaml = readOpenApi(packWith(undefined, "openapi.yaml", "openapi: 3.1.0\n"));
    expect(yaml.diagnostics[0]!.message).toMatch(/YAML/);
    const missing = readOpenApi(packWith(undefined));
    expect(missing.diagnostics[0]!.message).toMatch(/cannot read the OpenAPI document .*ENOENT/);
    const bad = readOpenApi(packWith(undefined, "./openapi.json", "{ nope"));
    expect(bad.diagnostics.map((d) => [d.code, d.line])).toEqual([["E_PACK_OPENAPI", 1]]);
  });
});
