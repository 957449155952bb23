// Connection packs read from uploaded files (the HTTP API's) instead of the disk: the same
// readers (credential scan, schema check, OpenAPI documents) through a memory source, the
// diagnostics naming the uploaded paths; a ref never leaves the upload.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readConnections, readUploadedConnections } from "../../src/connections/connections.js";
import { memorySource, type UploadedFile } from "../../src/connections/pack-source.js";
import { ROOT } from "../helpers/cli.js";

const FIXTURES = join(ROOT, "test/fixtures/connections");
const file = (path: string, text: string): UploadedFile => ({ path, bytes: new TextEncoder().encode(text) });
const fixture = (path: string, as = path) => file(as, readFileSync(join(FIXTURES, path), "utf8"));
const HELPDESK_PACK = readFileSync(join(FIXTURES, "helpdesk/pack.json"), "utf8");
const HELPDESK = [fixture("helpdesk/pack.json"), fixture("helpdesk/openapi.json")];
const withRef = (ref: string) => HELPDESK_PACK.replace('"./openapi.json"', JSON.stringify(ref));

describe("reading uploaded connection packs", () => {
  it("reads what the CLI reads from the folder: the same packs and operations, named by the upload's paths", () => {
    const uploaded = readUploadedConnections([...HELPDESK, fixture("docs-search/pack.json")]);
    const disk = readConnections([FIXTURES]);
    expect(uploaded.diagnostics).toEqual([]);
    expect(uploaded.read.packs.map((p) => [p.provider.id, p.file])).toEqual([
      ["docs-search", "docs-search/pack.json"],
      ["helpdesk", "helpdesk/pack.json"],
    ]);
    expect(uploaded.read.apis.map((a) => a.file)).toEqual(["helpdesk/openapi.json"]);
    expect(uploaded.read.apis.map(({ file: _f, ...a }) => a)).toEqual(disk.read.apis.map(({ file: _f, ...a }) => a));
    expect(uploaded.read.packs.map(({ file: _f, ...p }) => p)).toEqual(disk.read.packs.map(({ file: _f, ...p }) => p));
  });

  it("a pack at the upload's root, its document next to it", () => {
    const r = readUploadedConnections([fixture("helpdesk/pack.json", "pack.json"), fixture("helpdesk/openapi.json", "openapi.json")]);
    expect(r.diagnostics).toEqual([]);
    expect(r.read.apis[0]!.operations.length).toBe(2);
  });

  it("credential material refuses the pack at its pointer and line, naming the uploaded file, never quoting the value", () => {
    const leaky = HELPDESK_PACK.replace('"auth": { "kind": "api_key" }', '"auth": { "kind": "api_key", "apiKey": "sk-live-not-quoted" }');
    const r = readUploadedConnections([file("helpdesk/pack.json", leaky), HELPDESK[1]!]);
    expect(r.read.packs).toEqual([]);
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: "E_PACK_CREDENTIAL", file: "helpdesk/pack.json", pointer: "/provider/auth/apiKey", line: 10 })]);
    expect(JSON.stringify(r.diagnostics)).not.toContain("sk-live");
  });

  it("a schema failure and bad JSON have their positions in the uploaded file", () => {
    const r = readUploadedConnections([file("a/pack.json", HELPDESK_PACK.replace('"kind": "connection"', '"kind": "node"')), file("b/pack.json", '{\n  "name": ')]);
    expect(r.diagnostics.map((d) => [d.file, d.code, d.line])).toEqual([
      ["a/pack.json", expect.stringMatching(/^E_/), 4],
      ["b/pack.json", "E_JSON_SYNTAX", 2],
    ]);
  });

  it("two packs for one provider: the later in path order is refused", () => {
    const r = readUploadedConnections([...HELPDESK, file("copy/pack.json", HELPDESK_PACK), fixture("helpdesk/openapi.json", "copy/openapi.json")]);
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: "E_PACK_DUPLICATE_PROVIDER", file: "helpdesk/pack.json", pointer: "/provider/id", line: 7, message: expect.stringContaining("already defined by copy/pack.json") })]);
    expect(r.read.packs.map((p) => p.file)).toEqual(["copy/pack.json"]);
  });

  it("a ref that climbs out of the upload, or is absolute, or a URL, is refused; nothing outside the upload is read", () => {
    for (const [ref, says] of [
      ["../../openapi.json", /climbs out of the uploaded files/],
      ["./a/../../../openapi.json", /climbs out of the uploaded files/],
      ["/etc/passwd", /absolute path/],
      ["..\\openapi.json", /absolute path/],
      ["https://helpdesk.example.com/openapi.json", /is a URL/],
      ["file:///etc/passwd", /is a URL/],
    ] as const) {
      const r = readUploadedConnections([file("helpdesk/pack.json", withRef(ref)), HELPDESK[1]!]);
      expect(r.diagnostics, ref).toEqual([expect.objectContaining({ code: "E_PACK_OPENAPI", file: "helpdesk/pack.json", pointer: "/provider/reach/openapi/ref", message: expect.stringMatching(says) })]);
    }
    // `..` that stays inside the upload is a path like any other.
    const shared = readUploadedConnections([file("packs/helpdesk/pack.json", withRef("../shared/openapi.json")), fixture("helpdesk/openapi.json", "packs/shared/openapi.json")]);
    expect(shared.diagnostics).toEqual([]);
  });

  it("a missing OpenAPI document is said at the pack's ref", () => {
    const r = readUploadedConnections([HELPDESK[0]!]);
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: "E_PACK_OPENAPI", file: "helpdesk/pack.json", pointer: "/provider/reach/openapi/ref", message: expect.stringContaining("not among the uploaded files") })]);
  });

  it("a bad OpenAPI document's diagnostics name the uploaded document", () => {
    const r = readUploadedConnections([HELPDESK[0]!, file("helpdesk/openapi.json", '{\n  "openapi": "3.1.0",\n  "paths": {}\n}')]);
    expect(r.diagnostics.map((d) => [d.code, d.file])).toContainEqual(["E_PACK_OPENAPI", "helpdesk/openapi.json"]);
  });

  it("a file that is no pack.json and that no pack names is said, once every pack reads", () => {
    const r = readUploadedConnections([...HELPDESK, file("zendesk-pack.json", HELPDESK_PACK)]);
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: "E_PACK_UNUSED", file: "zendesk-pack.json" })]);
    expect(readUploadedConnections([file("notes.json", "{}")]).diagnostics.map((d) => d.code)).toEqual(["E_PACK_UNUSED"]);
  });

  it("a memory source reads only its files and resolves POSIX paths inside them", () => {
    const source = memorySource([file("a/pack.json", "{}")]);
    expect(source.resolve("a/pack.json", "./openapi.json")).toBe("a/openapi.json");
    expect(source.resolve("a/pack.json", "../b/x.json")).toBe("b/x.json");
    expect(source.resolve("a/pack.json", "../../x.json")).toEqual({ refused: expect.stringContaining("climbs out") });
    expect(() => source.read("a/openapi.json")).toThrow(/not among the uploaded files/);
  });
});
