// The record an export writes into the project (.envelope/): the ledger's hashes, the pristine
// copy's round trip (text, binary, modes), and no invisible character written raw.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FileSet } from "../../src/export/file-set.js";
import { LEDGER_PATH, parseLedger, parsePristine, PRISTINE_PATH, RecordError, withRecord } from "../../src/export/ledger.js";
import { VERSION } from "../../src/version.js";

function sample(): FileSet {
  const files = new FileSet();
  files.add("README.md", "# Team\n");
  files.add("run.sh", "#!/bin/sh\n", 0o755);
  files.add("src/p/prompts/a.txt", "Say \u202eevil\u202c and \u2028 done.\n");
  files.add("logo.bin", new Uint8Array([0xff, 0xfe, 0x00, 0x01]));
  return files;
}

describe("the export's record", () => {
  it("the ledger names the tool, target, definition and every file's hash", () => {
    const out = withRecord(sample(), "crewai", new TextEncoder().encode("{}"));
    const ledger = parseLedger(out.text(LEDGER_PATH)!);
    expect(ledger).toMatchObject({ generator: "envelope-export", version: VERSION, target: "crewai", definition: `sha256:${createHash("sha256").update("{}").digest("hex")}` });
    expect(Object.keys(ledger.files)).toEqual(["README.md", "logo.bin", "run.sh", "src/p/prompts/a.txt"]);
    expect(ledger.files["README.md"]).toBe(`sha256:${createHash("sha256").update("# Team\n").digest("hex")}`);
  });

  it("a lock file stays one with its record (an update reads FileEntry.relock from the recorded set)", () => {
    const files = sample();
    files.addLock("uv.lock", "version = 1\n", "uv lock");
    const out = withRecord(files, "crewai", new Uint8Array());
    expect(out.get("uv.lock")!.relock).toBe("uv lock");
    expect(out.get("README.md")!.relock).toBeUndefined();
  });

  it("a lock file is recorded by its hash alone: the update compares it and never merges it", () => {
    const files = sample();
    files.addLock("uv.lock", "version = 1\n".repeat(1000), "uv lock");
    const out = withRecord(files, "crewai", new Uint8Array());
    const text = out.text(PRISTINE_PATH)!;
    const hash = `sha256:${createHash("sha256").update("version = 1\n".repeat(1000)).digest("hex")}`;
    expect(text).not.toContain("version = 1");
    expect(text).toContain(`"uv.lock": {\n   "mode": "0644",\n   "sha256": "${hash}"\n  }`);
    const back = parsePristine(text).get("uv.lock")!;
    expect(back).toMatchObject({ digest: hash, mode: 0o644 });
    expect(back.bytes).toHaveLength(0);
    expect(parseLedger(out.text(LEDGER_PATH)!).files["uv.lock"]).toBe(hash);
  });

  it("a record of format 1 (every file's text, before locks were kept by hash) still reads", () => {
    const back = parsePristine('{"format":1,"files":{"uv.lock":{"mode":"0644","text":"version = 1\\n"}}}');
    expect(back.text("uv.lock")).toBe("version = 1\n");
    expect(back.get("uv.lock")!.digest).toBeUndefined();
  });

  it("the pristine copy gives back every file byte for byte, with its mode", () => {
    const files = sample();
    const back = parsePristine(withRecord(files, "crewai", new Uint8Array()).text(PRISTINE_PATH)!);
    expect(back.entries().map(([p, f]) => [p, Buffer.from(f.bytes).toString("hex"), f.mode])).toEqual(files.entries().map(([p, f]) => [p, Buffer.from(f.bytes).toString("hex"), f.mode]));
  });

  it("bidi controls and line separators are escaped, not written raw; same input, same bytes", () => {
    const a = withRecord(sample(), "crewai", new Uint8Array());
    const text = a.text(PRISTINE_PATH)!;
    expect(text).not.toMatch(/[\u202a-\u202e\u2028\u2029]/);
    expect(text).toContain("\\u202e");
    expect(withRecord(sample(), "crewai", new Uint8Array()).text(PRISTINE_PATH)).toBe(text);
  });

  it("the pristine copy is the JSON its format says, whatever the files; a static file's piece is shared", () => {
    // What pristine.json is (format 2): JSON.stringify of { format, files } with one-space
    // indent, invisible characters escaped. withRecord writes it in pieces (for the zip sink).
    const invisible = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
    const reference = (files: FileSet) => {
      const pristine: Record<string, object> = {};
      for (const [path, f] of files.entries()) {
        let text: string | undefined;
        try {
          text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(f.bytes);
        } catch {}
        pristine[path] = text === undefined ? { mode: `0${f.mode.toString(8)}`, base64: Buffer.from(f.bytes).toString("base64") } : { mode: `0${f.mode.toString(8)}`, text };
      }
      return `${JSON.stringify({ format: 2, files: pristine }, null, 1).replace(invisible, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}\n`;
    };
    const segment = fc.stringMatching(/^[A-Za-z_][\w.\u00e9\u202e-]{0,8}$/);
    const content = fc.oneof(fc.string({ unit: "binary", maxLength: 60 }), fc.uint8Array({ maxLength: 20 }), fc.constantFrom("", "\u2028\u202e\ufeff\u0085\"\\\n", "\ud800x"));
    const file = fc.record({ path: fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join("/")), content, exec: fc.boolean(), verbatim: fc.boolean() });
    fc.assert(
      fc.property(fc.uniqueArray(file, { selector: (f) => f.path, maxLength: 8 }), (list) => {
        const files = new FileSet();
        for (const f of list) {
          if (list.some((g) => g.path.startsWith(`${f.path}/`))) continue; // a file and a folder of one name
          files.add(f.path, typeof f.content === "string" ? f.content : new Uint8Array(f.content), f.exec ? 0o755 : 0o644, f.verbatim);
        }
        const out = withRecord(files, "crewai", new Uint8Array());
        const entry = out.get(PRISTINE_PATH)!;
        expect(new TextDecoder().decode(entry.bytes)).toBe(reference(files));
        expect(Buffer.concat(entry.pieces!).equals(Buffer.from(entry.bytes))).toBe(true);
      }),
      { numRuns: 300 },
    );
    // A static file's content piece is one array in every export: what the zip sink reuses.
    const statics = new TextEncoder().encode("static\n".repeat(20));
    const once = () => {
      const files = new FileSet();
      files.add("a.py", "generated\n");
      files.add("b/static.py", statics, 0o644, true);
      return withRecord(files, "crewai", new Uint8Array()).get(PRISTINE_PATH)!.pieces!;
    };
    const [first, second] = [once(), once()];
    expect(first.filter((p) => second.includes(p))).toHaveLength(1);
  });

  it("paths that an object would reorder or drop (number-like, __proto__) are kept, in path order", () => {
    const files = new FileSet();
    for (const path of ["10", "9", "__proto__", "b.txt"]) files.add(path, `${path}\n`);
    const out = withRecord(files, "crewai", new Uint8Array());
    const pristine = out.text(PRISTINE_PATH)!;
    expect([...pristine.matchAll(/^ {2}"([^"]+)": \{$/gm)].map((m) => m[1])).toEqual(["10", "9", "__proto__", "b.txt"]);
    expect(parsePristine(pristine).paths()).toEqual(["10", "9", "__proto__", "b.txt"]);
    expect(Object.keys(parseLedger(out.text(LEDGER_PATH)!).files).sort()).toEqual(["10", "9", "__proto__", "b.txt"].sort());
  });

  it("a broken record is a RecordError that names the file", () => {
    expect(() => parseLedger("{")).toThrow(RecordError);
    expect(() => parseLedger('{"generator":"other"}')).toThrow(/not an envelope-export ledger/);
    expect(() => parsePristine('{"format":3,"files":{}}')).toThrow(/pristine/);
    expect(() => parsePristine('{"format":2,"files":{"uv.lock":{"mode":"0644","sha256":"sha256:12"}}}')).toThrow(/uv\.lock.*sha256/);
    // Edited by hand or by anyone: a path outside the project or inside the record is refused, not followed.
    expect(() => parsePristine('{"format":1,"files":{"../x":{"mode":"0644","text":""}}}')).toThrow(RecordError);
    expect(() => parsePristine('{"format":1,"files":{".envelope/export.json":{"mode":"0644","text":""}}}')).toThrow(RecordError);
  });
});
