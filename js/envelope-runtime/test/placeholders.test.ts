// `{{NAME}}` values: a non-string run input reads in a prompt exactly as the Python targets
// write it (json.dumps): envelope-export's shared vectors, which test_placeholders.py checks too.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { placeholderValues, pythonJson, referenceName, render, taskJson } from "../src/placeholders.js";

interface Vector { name: string; value: unknown; rendered: string }
const { vectors } = JSON.parse(readFileSync(new URL("../../../spec/placeholder-vectors.json", import.meta.url), "utf8")) as { vectors: Vector[] };

describe("placeholder vectors", () => {
  it("has the shared vectors", () => expect(vectors.length).toBeGreaterThan(20));
  it.each(vectors.map((v) => [v.name, v] as const))("%s", (_name, v) => {
    const values = placeholderValues([], {}, { v: v.value }, ["v"]);
    expect(render("<{{V}}>|<{{v}}>", values)).toBe(`<${v.rendered}>|<${v.rendered}>`);
    if (typeof v.value !== "string") expect(pythonJson(v.value)).toBe(v.rendered);
  });
  it("writes integral floats beyond 2**53 and -0 as Python does", () => {
    expect(pythonJson(2 ** 60)).toBe("1.152921504606847e+18");
    expect(pythonJson(-0)).toBe("0");
    expect(pythonJson([Number.NaN, Infinity, -Infinity])).toBe("[NaN, Infinity, -Infinity]");
  });
  it("names an input by code point, as Python does", () => {
    expect(referenceName("🎉")).toBe("_");
    expect(referenceName("a-b é")).toBe("A_B__");
    expect(render("{{_}}", placeholderValues([], {}, { "🎉": "party" }, ["🎉"]))).toBe("party");
  });
  it("fills {{__proto__}} like any other name", () => {
    expect(render("<{{__proto__}}>", placeholderValues([], {}, { __proto__: "p" } as never, ["__proto__"]))).toBe("<{{__proto__}}>");
    const inputs = JSON.parse('{"__proto__": "p"}') as Record<string, unknown>;
    expect(render("<{{__proto__}}>|<{{__PROTO__}}>", placeholderValues([], {}, inputs, ["__proto__"]))).toBe("<p>|<p>");
  });
});

// Data in a task text is written as both Python targets write it there: json.dumps(value,
// indent=2, ensure_ascii=False). The expected texts are that call's output (Python 3.11).
describe("taskJson", () => {
  it("writes what json.dumps(indent=2, ensure_ascii=False) writes", () => {
    const value = { topic: "Café ☕ — 🎉", n: 3, ratio: 0.1, tiny: 1e-7, big: 1e16, neg: -2.5, ok: true, none: null, list: [1, "a", { b: [] }], empty: {}, ctl: 'a\u0001b\u007f\u2028"\\\n\t' };
    expect(taskJson(value)).toBe(
      '{\n  "topic": "Café ☕ — 🎉",\n  "n": 3,\n  "ratio": 0.1,\n  "tiny": 1e-07,\n  "big": 1e+16,\n  "neg": -2.5,\n  "ok": true,\n  "none": null,\n  "list": [\n    1,\n    "a",\n    {\n      "b": []\n    }\n  ],\n  "empty": {},\n  "ctl": "a\\u0001b\u007f\u2028\\"\\\\\\n\\t"\n}',
    );
    expect([taskJson([]), taskJson({}), taskJson("plain")]).toEqual(["[]", "{}", '"plain"']);
  });
  it("differs from JSON.stringify where Python's json.dumps does (so a task text is the Python targets')", () => {
    expect(JSON.stringify({ a: 1e-7 }, null, 2)).not.toBe(taskJson({ a: 1e-7 }));
    expect(pythonJson({ a: ["é"] }, { ensureAscii: false })).toBe('{"a": ["é"]}');
  });
});
