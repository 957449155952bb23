import { describe, expect, it } from "vitest";
import { parseJsonWithPositions, JsonSyntaxError, MAX_NESTING } from "../src/read/json-with-positions.js";
import { parseDefinitionBytes, MAX_DEFINITION_BYTES, locate } from "../src/read/source.js";
import { pathLabel, pointerOf, parsePointer } from "../src/read/json-pointer.js";

const enc = (s: string) => new TextEncoder().encode(s);

describe("parseJsonWithPositions", () => {
  it("records value and key positions for every pointer", () => {
    const text = '{\n  "a": [1, {"b/c": "x"}],\n  "d~e": null\n}';
    const { value, locations } = parseJsonWithPositions(text);
    expect(value).toEqual({ a: [1, { "b/c": "x" }], "d~e": null });
    expect(locations.get("/a")).toEqual({ key: { offset: 4, line: 2, column: 3 }, value: { offset: 9, line: 2, column: 8 } });
    expect(locations.get("/a/1/b~1c")?.value).toMatchObject({ line: 2, column: 20 });
    expect(locations.get("/d~0e")?.key).toMatchObject({ line: 3, column: 3 });
  });

  it.each([
    ['{"a": 1,}', "trailing comma", 1, 8],
    ["[1,\n]", "trailing comma", 1, 3],
    ['{"a": 1 // c\n}', "expected ',' or '}'", 1, 9],
    ["{'a': 1}", "expected a property name", 1, 2],
    ['{"a": "x', "unterminated string", 1, 7],
    ['{"a": tru}', "expected a JSON value", 1, 7],
    ['{"a": 01}', "invalid number", 1, 7],
    ['{"timeout": {"runMs": 1e400}}', "number out of range: 1e400", 1, 23],
    ['[-1e999]', "number out of range: -1e999", 1, 2],
    ['{"a": "\\q"}', "invalid escape", 1, 8],
    ['{"a": 1} x', "after the end", 1, 10],
    ['{"a":\n  [1 2]}', "expected ',' or ']'", 2, 6],
  ])("rejects %j with a positioned message", (text, message, line, column) => {
    try {
      parseJsonWithPositions(text);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(JsonSyntaxError);
      expect((e as JsonSyntaxError).message).toContain(message);
      expect((e as JsonSyntaxError).position).toMatchObject({ line, column });
    }
  });

  it("keeps __proto__ as data and reports duplicate keys", () => {
    const { value, duplicateKeys } = parseJsonWithPositions('{"__proto__": {"x": 1}, "a": 1, "a": 2}');
    expect(Object.keys(value as object)).toEqual(["__proto__", "a"]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(duplicateKeys).toEqual([{ pointer: "/a", key: expect.objectContaining({ column: 33 }), firstKey: expect.objectContaining({ column: 25 }) }]);
  });

  it("refuses nesting deep enough to exhaust the stack", () => {
    expect(() => parseJsonWithPositions("[".repeat(MAX_NESTING + 2))).toThrow(/nesting deeper/);
    expect(() => parseJsonWithPositions("[".repeat(100) + "]".repeat(100))).not.toThrow();
  });

  it("agrees with JSON.parse on valid documents", () => {
    const text = JSON.stringify({ s: "é\u2028\"\\/\n\t\u0000", n: [-1.5e3, 0, 1e-7], b: [true, false, null], o: {} });
    expect(parseJsonWithPositions(text).value).toEqual(JSON.parse(text));
  });
});

describe("parseDefinitionBytes", () => {
  it("reports an empty file", () => {
    expect(parseDefinitionBytes(enc("  \n"), "f").diagnostics.map((d) => d.code)).toEqual(["E_EMPTY_FILE"]);
  });
  it("ignores a UTF-8 BOM with a warning and keeps positions", () => {
    const r = parseDefinitionBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...enc('{"a": 1}')]), "f");
    expect(r.diagnostics.map((d) => d.code)).toEqual(["W_UTF8_BOM"]);
    expect(r.document).toBeDefined();
    expect(locate(r.document!, "/a")).toEqual({ line: 1, column: 7 });
  });
  it("points invalid UTF-8 at the sequence's first byte, column in characters", () => {
    // "é" saved as Latin-1 (E9) before ASCII: E9 starts a 3-byte sequence that never completes.
    const latin1 = parseDefinitionBytes(new Uint8Array([...enc('{"a": "caf'), 0xe9, ...enc('"}')]), "f");
    expect(latin1.diagnostics).toMatchObject([{ code: "E_ENCODING", line: 1, column: 11 }]);
    // A valid 3-byte "—" earlier on the line counts as one column.
    const dash = parseDefinitionBytes(new Uint8Array([...enc('{"a": "—'), 0xff, ...enc('"}')]), "f");
    expect(dash.diagnostics).toMatchObject([{ code: "E_ENCODING", line: 1, column: 9 }]);
  });
  it("rejects invalid UTF-8 at the offending byte", () => {
    const r = parseDefinitionBytes(new Uint8Array([...enc('{\n "a": "'), 0xff, ...enc('"}')]), "f");
    expect(r.diagnostics).toMatchObject([{ code: "E_ENCODING", line: 2, column: 8 }]);
  });
  it("rejects a non-object root", () => {
    expect(parseDefinitionBytes(enc("[1]"), "f").diagnostics).toMatchObject([{ code: "E_ROOT_NOT_OBJECT", message: expect.stringContaining("an array") }]);
  });
  it("rejects files over the size bound without parsing them", () => {
    const big = new Uint8Array(MAX_DEFINITION_BYTES + 1).fill(0x20);
    expect(parseDefinitionBytes(big, "f").diagnostics.map((d) => d.code)).toEqual(["E_FILE_TOO_LARGE"]);
  });
  it("reports malformed JSON with line and column", () => {
    expect(parseDefinitionBytes(enc('{\n  "a": 1,\n}'), "f").diagnostics).toMatchObject([{ code: "E_JSON_SYNTAX", line: 2, column: 9 }]);
  });
  it("locates a missing property at its nearest ancestor", () => {
    const r = parseDefinitionBytes(enc('{\n  "agents": [\n    {"key": "a"}\n  ]\n}'), "f");
    expect(locate(r.document!, "/agents/0/name")).toEqual({ line: 3, column: 5 });
  });
});

describe("json pointers", () => {
  it("escape and unescape tokens", () => {
    expect(pointerOf("a/b", "c~d", 0)).toBe("/a~1b/c~0d/0");
    expect(parsePointer("/a~1b/c~0d/0")).toEqual(["a/b", "c~d", "0"]);
    expect(pathLabel("/agents/1/modelConfig/maxTokens")).toBe("agents[1].modelConfig.maxTokens");
  });
});
