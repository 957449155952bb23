// Escaping helpers: every string a definition can hold must come back exactly from the
// generated literal. Checked against the real parsers in one Python process per batch.
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mdCode, mdDetail, mdText, mermaidLabel } from "../src/export/escape/markdown.js";
import { pyComment, pyIdent, pyLiteral, pyStr, pyStrWrapped } from "../src/export/escape/python.js";
import { tomlStr } from "../src/export/escape/toml.js";
import { yamlStr } from "../src/export/escape/yaml.js";

const HOSTILE = [
  "",
  'say "hi"',
  "it's",
  '"""',
  "'''",
  "\\",
  "\\n is not a newline",
  "a\nb\r\nc\rd",
  "\u0000\u0001\u001f\u007f\u0085",
  "\u2028\u2029",
  "\u202e reversed \u202d",
  "\u200b\ufeff",
  "emoji 🎉 and 中文 and é",
  "lone \ud800 high",
  "lone \udc00 low",
  "{{#each}} {{{x}}} {{> p}}",
  '{word} {"json": 1} ${VAR} %s',
  "key: value # comment\n- item\n&anchor *alias !tag ---\n...",
  "</script><!-- -->```~~~",
  "${{ secrets.X }}",
  "x".repeat(5000),
];

/** Runs Python once: each line of input is a JSON array [kind, literal]; prints the values back as JSON. */
function pythonEval(items: Array<[string, string]>): unknown[] {
  const script = `
import ast, json, sys, tomllib, yaml
out = []
for line in sys.stdin:
    kind, lit = json.loads(line)
    if kind == "py":
        out.append(ast.literal_eval(lit))
    elif kind == "yaml":
        out.append(yaml.safe_load("v: " + lit)["v"])
    elif kind == "toml":
        out.append(tomllib.loads("v = " + lit)["v"])
sys.stdout.write(json.dumps(out))
`;
  const input = items.map((i) => JSON.stringify(i)).join("\n");
  const r = spawnSync("python3", ["-c", script], { input, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as unknown[];
}

// JSON cannot carry lone surrogates through Python's json.dumps (it escapes them), and
// JSON.parse restores them, so the comparison below is exact.
describe("pyStr", () => {
  it("round-trips hostile strings exactly through ast.literal_eval", () => {
    const values = pythonEval(HOSTILE.flatMap((s) => [["py", pyStr(s)], ["py", pyStrWrapped(s)]] as Array<[string, string]>));
    expect(values).toEqual(HOSTILE.flatMap((s) => [s, s]));
  });
  it("property: any string round-trips", () => {
    const samples = fc.sample(fc.string({ unit: "binary", maxLength: 200 }), { numRuns: 400, seed: 42 });
    expect(pythonEval(samples.map((s) => ["py", pyStrWrapped(s)]))).toEqual(samples);
  });
  it("never leaves a raw line break or bidi control in the source", () => {
    for (const s of HOSTILE) expect(pyStr(s)).not.toMatch(/[\n\r\u2028\u2029\u202a-\u202e\u0000]/);
  });
  it("writes JSON-like data as Python literals", () => {
    expect(pyLiteral({ a: [1, 2.5, true, null, "x"], "b\"": { c: false } })).toBe('{"a": [1, 2.5, True, None, "x"], "b\\"": {"c": False}}');
    expect(pythonEval([["py", pyLiteral([1e21, -0.5, 1e-7])]])).toEqual([[1e21, -0.5, 1e-7]]);
  });
  it("identifiers are asserted, comments flattened", () => {
    expect(pyIdent("ok_name")).toBe("ok_name");
    expect(() => pyIdent("bad-name")).toThrow();
    expect(pyComment("a\nb\u202ec")).toBe("a b?c");
  });
  it("comments are bounded in columns, wide characters counting two, and cut between characters", () => {
    const comments = [...WIDE, "x".repeat(200), "🎉".repeat(100)].map((s) => pyComment(s));
    for (const [i, width] of pythonColumns(comments).entries()) expect(width, comments[i]).toBeLessThanOrEqual(86);
    for (const c of comments) expect(c.endsWith("…") && !/[\ud800-\udbff]…$/.test(c)).toBe(true);
    expect(pyComment("short 中文")).toBe("short 中文");
  });
});

describe("tomlStr", () => {
  it("round-trips through tomllib (lone surrogates become U+FFFD)", () => {
    const values = pythonEval(HOSTILE.map((s) => ["toml", tomlStr(s)]));
    const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
    expect(values).toEqual(HOSTILE.map((s) => s.replace(lone, "\ufffd")));
  });
});

describe("yamlStr", () => {
  it("is a double-quoted scalar with no raw line breaks or specials", () => {
    for (const s of HOSTILE) {
      const y = yamlStr(s);
      expect(y.startsWith('"') && y.endsWith('"')).toBe(true);
      expect(y).not.toMatch(/[\n\r\u2028\u2029\u0085\u0000]/);
    }
    expect(yamlStr('a"b\\c\nd')).toBe('"a\\"b\\\\c\\nd"');
  });
  it("round-trips hostile strings exactly through PyYAML", () => {
    expect(pythonEval(HOSTILE.map((s) => ["yaml", yamlStr(s)]))).toEqual(HOSTILE);
    const samples = fc.sample(fc.string({ unit: "binary", maxLength: 200 }), { numRuns: 300, seed: 7 });
    expect(pythonEval(samples.map((s) => ["yaml", yamlStr(s)]))).toEqual(samples);
  });
});

describe("markdown", () => {
  it("escapes markup and HTML in inline text", () => {
    expect(mdText("**bold** <script> [x](y) # h\nnext & more")).toBe("\\*\\*bold\\*\\* \\<script\\> \\[x\\](y) # h next \\& more");
    expect(mdText("# not a heading")).toBe("\\# not a heading");
    expect(mdText("1. not a list")).toBe("1\\. not a list");
    expect(mdText("a-b. c")).toBe("a-b. c");
  });
  it("code spans fence longer than their content", () => {
    expect(mdCode("a `b` c")).toBe("``a `b` c``");
  });
  it("loss details: backticked names become code spans, the rest is text, a | never ends the cell", () => {
    expect(mdDetail("the typed final result: `result` of the *output*")).toBe("the typed final result: `result` of the \\*output\\*");
    expect(mdDetail("`a|b` and `<b>`")).toBe("\\`a\\|b\\` and `<b>`");
    expect(mdDetail("no code <here>")).toBe(mdText("no code <here>"));
  });
  it("mermaid labels cannot close the node", () => {
    expect(mermaidLabel('a"] --> b["x')).not.toMatch(/["\]\[]/);
  });
});

/** Display columns of each text, counted by Python's unicodedata (wide and fullwidth: two), as ruff's line check counts. */
function pythonColumns(texts: string[]): number[] {
  const script = `
import json, sys, unicodedata
print(json.dumps([sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in t) for t in json.load(sys.stdin)]))
`;
  const r = spawnSync("python3", ["-c", script], { input: JSON.stringify(texts), encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as number[];
}

const WIDE = ["中文 と 日本語 の テキスト ".repeat(20), "한국어 텍스트 ".repeat(30), "ＦＵＬＬＷＩＤＴＨ ".repeat(30), "🎉 party ".repeat(40), "mixed 中 a 文 b ".repeat(30)];

describe("pyStrWrapped", () => {
  it("counts wide characters as two columns, as ruff does: every line stays within 80", () => {
    const lines = WIDE.flatMap((s) => pyStrWrapped(s).split("\n"));
    for (const [i, width] of pythonColumns(lines).entries()) expect(width, lines[i]).toBeLessThanOrEqual(80);
    expect(pythonEval(WIDE.map((s) => ["py", pyStrWrapped(s)]))).toEqual(WIDE);
  });
  it("round-trips and keeps every source line short", async () => {
    const samples = [...HOSTILE, "word ".repeat(60), "é".repeat(300), "🎉".repeat(100), "\u2028".repeat(50)];
    const literals = samples.map((s) => pyStrWrapped(s));
    for (const lit of literals) for (const line of lit.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
    expect(pythonEval(literals.map((l) => ["py", l]))).toEqual(samples);
  });
});
