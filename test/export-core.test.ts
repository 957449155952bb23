// The target-independent export machinery: file sets, sinks, safe templates, loss report.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { crc32, inflateRawSync } from "node:zlib";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSet, UnsafePathError } from "../src/export/file-set.js";
import { buildLossReport, strictLoss, UNMAPPED } from "../src/export/loss-report.js";
import { HELPERS } from "../src/export/render/helpers.js";
import { createTemplateEnv } from "../src/export/render/template-env.js";
import { OutputExistsError, writeDirectory } from "../src/export/sinks/directory.js";
import { writeZip, zipCacheStats } from "../src/export/sinks/zip.js";
import { pyStr } from "../src/export/escape/python.js";
import { normalize } from "../src/model/index.js";
import { team } from "./helpers/definitions.js";

const tmp = () => mkdtempSync(join(tmpdir(), "envelope-sink-"));

function sample(): FileSet {
  const fs = new FileSet();
  fs.add("README.md", "# hi\n");
  fs.add("src/pkg/__init__.py", "");
  fs.add("scripts/run.sh", "#!/bin/sh\necho ok\n", 0o755);
  fs.add("data/blob.bin", new Uint8Array([0, 255, 1, 2]));
  return fs;
}

describe("FileSet", () => {
  it.each(["", "/etc/passwd", "../x", "a/../b", "a//b", "./a", "a\\b", "C:/x", "a\u0000b", "a/"])("rejects unsafe path %j", (p) => {
    expect(() => new FileSet().add(p, "x")).toThrow(UnsafePathError);
  });
  it("lists entries in one sorted order and refuses duplicates", () => {
    const fs = sample();
    expect(fs.paths()).toEqual(["README.md", "data/blob.bin", "scripts/run.sh", "src/pkg/__init__.py"]);
    expect(() => fs.add("README.md", "again")).toThrow(/twice/);
  });
});

describe("directory sink", () => {
  it("writes files with their modes", async () => {
    const out = join(tmp(), "proj");
    await writeDirectory(sample(), out);
    expect(readFileSync(join(out, "README.md"), "utf8")).toBe("# hi\n");
    expect(statSync(join(out, "scripts/run.sh")).mode & 0o777).toBe(0o755);
    expect(statSync(join(out, "README.md")).mode & 0o777).toBe(0o644);
    expect([...readFileSync(join(out, "data/blob.bin"))]).toEqual([0, 255, 1, 2]);
  });
  it("refuses a non-empty directory and leaves it untouched; --force replaces it whole", async () => {
    const out = join(tmp(), "proj");
    mkdirSync(out);
    writeFileSync(join(out, "mine.txt"), "user data");
    await expect(writeDirectory(sample(), out)).rejects.toThrow(OutputExistsError);
    expect(readdirSync(out)).toEqual(["mine.txt"]);
    await writeDirectory(sample(), out, { force: true });
    expect(existsSync(join(out, "mine.txt"))).toBe(false);
    expect(readdirSync(out).sort()).toEqual(["README.md", "data", "scripts", "src"]);
    // No staging directories are left beside it.
    expect(readdirSync(join(out, "..")).filter((n) => n.includes("envelope"))).toEqual([]);
  });
  it("accepts an existing empty directory", async () => {
    const out = join(tmp(), "empty");
    mkdirSync(out);
    await writeDirectory(sample(), out);
    expect(readdirSync(out).length).toBe(4);
  });
});

describe("zip sink", () => {
  async function zipBytes(prefix = ""): Promise<Buffer> {
    const chunks: Uint8Array[] = [];
    await writeZip(sample(), (c) => void chunks.push(c), prefix);
    return Buffer.concat(chunks);
  }
  it("is deterministic and readable by Python's zipfile with modes kept", async () => {
    const a = await zipBytes("proj/");
    expect(a.equals(await zipBytes("proj/"))).toBe(true);
    const file = join(tmp(), "p.zip");
    writeFileSync(file, a);
    const r = spawnSync("python3", ["-c", `
import zipfile, json, sys
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
print(json.dumps([[i.filename, (i.external_attr >> 16) & 0o777, z.read(i).hex()] for i in z.infolist()]))
`, file], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual([
      ["proj/README.md", 0o644, Buffer.from("# hi\n").toString("hex")],
      ["proj/data/blob.bin", 0o644, "00ff0102"],
      ["proj/scripts/run.sh", 0o755, Buffer.from("#!/bin/sh\necho ok\n").toString("hex")],
      ["proj/src/pkg/__init__.py", 0o644, ""],
    ]);
  });
  it("keeps verbatim files compressed across archives without changing a byte", async () => {
    const files = new FileSet();
    const shared = new TextEncoder().encode("static module\n".repeat(50));
    files.add("a.py", shared, 0o644, true);
    files.add("b.py", "generated\n");
    const zip = async () => {
      const chunks: Uint8Array[] = [];
      await writeZip(files, (c) => void chunks.push(c));
      return Buffer.concat(chunks);
    };
    const first = await zip();
    expect((await zip()).equals(first)).toBe(true);
    // The same content as a fresh, non-verbatim array compresses to the same archive.
    const plain = new FileSet();
    plain.add("a.py", new TextEncoder().encode("static module\n".repeat(50)));
    plain.add("b.py", "generated\n");
    const chunks: Uint8Array[] = [];
    await writeZip(plain, (c) => void chunks.push(c));
    expect(Buffer.concat(chunks).equals(first)).toBe(true);
  });
  it("remembers generated files by content, and two contents with one CRC and length stay apart", async () => {
    const a = Buffer.from("generated module with a long enough body to be compressed\n".repeat(8));
    const b = sameCrcOtherBytes(a);
    expect(crc32(b)).toBe(crc32(a));
    expect(b.equals(a)).toBe(false);
    const zipOf = async (body: Uint8Array) => {
      const files = new FileSet();
      files.add("m.py", new Uint8Array(body)); // a fresh array each time, as exports make them
      const chunks: Uint8Array[] = [];
      await writeZip(files, (c) => void chunks.push(c));
      const zip = Buffer.concat(chunks);
      const start = 30 + zip.readUInt16LE(26); // local header + name
      return { zip, content: inflateRawSync(zip.subarray(start, start + zip.readUInt32LE(18))) };
    };
    const first = await zipOf(a);
    expect(first.content.equals(a)).toBe(true);
    const hits = zipCacheStats.hits;
    expect((await zipOf(a)).zip.equals(first.zip)).toBe(true);
    expect(zipCacheStats.hits).toBe(hits + 1); // reused, and the same archive
    expect((await zipOf(b)).content.equals(b)).toBe(true); // same key, other bytes: packed anew
    expect(zipCacheStats.hits).toBe(hits + 1);
    expect((await zipOf(a)).content.equals(a)).toBe(true);
  });
});

describe("zip sink, a file in pieces", () => {
  const text = (s: string) => new TextEncoder().encode(s);
  const shared = text('"text": "a static module, the same in every export\\n"'.repeat(40));
  const zipOf = async (pieces: Uint8Array[]) => {
    const files = new FileSet();
    files.addPieces("record.json", pieces);
    const chunks: Uint8Array[] = [];
    await writeZip(files, (c) => void chunks.push(c));
    const zip = Buffer.concat(chunks);
    const start = 30 + zip.readUInt16LE(26);
    return { zip, method: zip.readUInt16LE(8), crc: zip.readUInt32LE(14), data: zip.subarray(start, start + zip.readUInt32LE(18)) };
  };
  it("inflates to the whole file, with its CRC, and Python's zipfile reads it", async () => {
    const pieces = [text('{"a": "fresh ' + "x".repeat(200) + '",\n'), shared, new Uint8Array(), text(',\n"b": "fresh again"}\n')];
    const whole = Buffer.concat(pieces);
    const { zip, method, crc, data } = await zipOf(pieces);
    expect(method).toBe(8);
    expect(crc).toBe(crc32(whole));
    expect(inflateRawSync(data).equals(whole)).toBe(true);
    const file = join(tmp(), "pieces.zip");
    writeFileSync(file, zip);
    const r = spawnSync("python3", ["-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; sys.stdout.buffer.write(z.read('record.json'))", file]);
    expect(r.stderr.toString()).toBe("");
    expect(r.stdout.equals(whole)).toBe(true);
  });
  it("a shared piece is compressed once and the archive is the same for the same bytes", async () => {
    const first = await zipOf([text("one\n"), shared, text("two\n")]);
    const hits = zipCacheStats.hits;
    const again = await zipOf([text("one\n"), shared, text("two\n")]); // the fresh pieces repeat: found by content
    expect(again.zip.equals(first.zip)).toBe(true);
    expect(zipCacheStats.hits).toBe(hits + 2); // the two fresh pieces; the shared one by its array
    const copy = await zipOf([text("one\n"), new Uint8Array(shared), text("two\n")]); // same bytes, another array
    expect(copy.zip.equals(first.zip)).toBe(true);
  });
  it("an entry whose bytes are no longer its pieces is written with its bytes", async () => {
    const files = new FileSet();
    files.addPieces("record.json", [text("{\"a\": 1}\n"), shared]);
    const entry = files.get("record.json")!;
    const other = text("other bytes, as a copy of the entry with new bytes would hold\n".repeat(4));
    const copy = new FileSet();
    copy.addPieces("record.json", [text("x")]);
    Object.assign(copy.get("record.json")!, { ...entry, bytes: other }); // the stale pieces stay
    const chunks: Uint8Array[] = [];
    await writeZip(copy, (c) => void chunks.push(c));
    const zip = Buffer.concat(chunks);
    const start = 30 + zip.readUInt16LE(26);
    expect(zip.readUInt32LE(14)).toBe(crc32(other));
    expect(inflateRawSync(zip.subarray(start, start + zip.readUInt32LE(18))).equals(Buffer.from(other))).toBe(true);
  });
  it("a file in pieces too small to compress is stored", async () => {
    const { method, data } = await zipOf([text("{"), text("}")]);
    expect(method).toBe(0);
    expect(data.toString()).toBe("{}");
  });
});

/** `bytes` with some bits flipped so that its CRC-32 is unchanged (CRC is affine over GF(2)). */
function sameCrcOtherBytes(bytes: Buffer): Buffer {
  const zero = crc32(Buffer.alloc(bytes.length));
  const effect = (bit: number) => {
    const m = Buffer.alloc(bytes.length);
    m[bit >> 3] = 1 << (bit & 7);
    return (crc32(m) ^ zero) >>> 0;
  };
  // Gaussian elimination keyed by each row's highest bit: 33 flips in a 32-bit space are
  // dependent, so some combination of them changes no bit of the CRC.
  const basis = new Map<number, { value: number; flips: number[] }>();
  const xor = (a: number[], b: number[]) => [...a.filter((x) => !b.includes(x)), ...b.filter((x) => !a.includes(x))];
  for (let bit = 0; bit < 33; bit++) {
    let row = { value: effect(bit), flips: [bit] };
    for (let pivot = Math.clz32(row.value); row.value !== 0 && basis.has(pivot); pivot = Math.clz32(row.value)) {
      const other = basis.get(pivot)!;
      row = { value: (row.value ^ other.value) >>> 0, flips: xor(row.flips, other.flips) };
    }
    if (row.value === 0) {
      const out = Buffer.from(bytes);
      for (const flip of row.flips) out[flip >> 3]! ^= 1 << (flip & 7);
      return out;
    }
    basis.set(Math.clz32(row.value), row);
  }
  throw new Error("unreachable: 33 vectors in 32 dimensions");
}

describe("template environment", () => {
  const helpers = { py_str: (s: unknown) => pyStr(String(s)) };
  it("renders through helpers without HTML escaping", () => {
    const env = createTemplateEnv({ "x.py.hbs": "name = {{py_str name}}\n{{#each items}}{{py_str this}}\n{{/each}}" }, helpers);
    expect(env.render("x.py.hbs", { name: 'a<b>&"', items: ["c"] })).toBe('name = "a<b>&\\""\n"c"\n');
  });
  it.each([
    ["bare value", "x = {{name}}"],
    ["triple-stash", "x = {{{py_str name}}}"],
    ["logic helper as output", "x = {{eq a b}}"],
    ["unknown block helper", "{{#lookup x}}{{/lookup}}"],
  ])("rejects a %s at compile time", (_why, source) => {
    expect(() => createTemplateEnv({ "t.hbs": source }, helpers)).toThrow(/template t\.hbs:1:/);
  });
  it("a `_name.hbs` template is the partial `name`: a standalone call takes the call's indent, and the partial is checked too", () => {
    const env = createTemplateEnv(
      { "_item.hbs": "{{!-- one line per item --}}\n{{#each items}}\nx = {{py_str this}}\n{{/each}}\n", "t.hbs": "def f():\n    {{> item}}\n    return 1\n" },
      helpers,
    );
    expect(env.render("t.hbs", { items: ["a", "b"] })).toBe('def f():\n    x = "a"\n    x = "b"\n    return 1\n');
    expect(() => createTemplateEnv({ "_item.hbs": "x = {{name}}\n", "t.hbs": "{{> item}}" }, helpers)).toThrow(/template _item\.hbs:1:/);
  });
  it("fails on a missing field instead of printing nothing", () => {
    const env = createTemplateEnv({ "t.hbs": "{{py_str missing.field}}" }, helpers);
    expect(() => env.render("t.hbs", {})).toThrow();
  });
  it("py_comment bounds a comment made of several parts as one (the line stays under 100 columns)", () => {
    const env = createTemplateEnv({ "t.hbs": '    # {{py_comment ref ": a record of step " key}}' }, HELPERS);
    const line = env.render("t.hbs", { ref: "gates[0] " + "g".repeat(80), key: "k".repeat(80) });
    expect(line.length).toBe(4 + 2 + 86);
    expect(line.endsWith("…")).toBe(true);
    expect(env.render("t.hbs", { ref: "gates[0] g", key: "k" })).toBe("    # gates[0] g: a record of step k");
  });
});

describe("loss report", () => {
  it("lists every leaf field, matched by rule or reported as unmapped", () => {
    const def = team({ tags: ["a", "b"], pricing: { model: "free" } });
    const model = normalize(JSON.stringify(def)).model!;
    const entries = buildLossReport(def, [
      { pattern: "/agents/*/prompt", status: "carried", detail: "system prompt" },
      { pattern: "/tags", status: "dropped", detail: "registry only" },
      { pattern: "/agents/*/key", resolve: () => undefined },
      { pattern: "/agents/*/key", resolve: (v) => ({ status: "approximated", detail: `key ${String(v)}` }) },
    ], model);
    expect(entries.find((e) => e.pointer === "/agents/0/prompt")).toMatchObject({ status: "carried", field: "agents[0].prompt" });
    expect(entries.find((e) => e.pointer === "/tags")).toMatchObject({ status: "dropped" });
    expect(entries.find((e) => e.pointer === "/agents/0/key")).toMatchObject({ status: "approximated", detail: "key lead" });
    expect(entries.find((e) => e.pointer === "/pricing/model")).toMatchObject({ status: "dropped", detail: UNMAPPED });
    expect(entries.some((e) => e.pointer.startsWith("/tags/"))).toBe(false);
  });
  it("registry data is reported as not carried and never fails a strict export", () => {
    const def = team({ tags: ["a"], visibility: "private" });
    const model = normalize(JSON.stringify(def)).model!;
    const entries = buildLossReport(def, [
      { pattern: "/tags", status: "dropped", detail: "registry only", registryOnly: true },
      { pattern: "/visibility", status: "dropped", detail: "registry only", registryOnly: true },
      { pattern: "/agents/*/prompt", status: "approximated", detail: "reworded" },
    ], model);
    expect(entries.find((e) => e.pointer === "/tags")).toEqual({ pointer: "/tags", field: "tags", status: "dropped", detail: "registry only", registryOnly: true });
    const fatal = strictLoss(entries).map((e) => e.field);
    expect(fatal).toContain("agents[0].prompt");
    expect(fatal).toContain("name"); // unmapped here: not carried, and not registry data
    expect(fatal).not.toContain("tags");
    expect(fatal).not.toContain("visibility");
  });
});
