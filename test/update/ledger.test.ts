// The record an export writes into the project (.envelope/): the ledger's hashes, the pristine
// copy's round trip (text, binary, modes), and no invisible character written raw.
import { createHash } from "node:crypto";
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

  it("a broken record is a RecordError that names the file", () => {
    expect(() => parseLedger("{")).toThrow(RecordError);
    expect(() => parseLedger('{"generator":"other"}')).toThrow(/not an envelope-export ledger/);
    expect(() => parsePristine('{"format":2,"files":{}}')).toThrow(/pristine/);
    // Edited by hand or by anyone: a path outside the project or inside the record is refused, not followed.
    expect(() => parsePristine('{"format":1,"files":{"../x":{"mode":"0644","text":""}}}')).toThrow(RecordError);
    expect(() => parsePristine('{"format":1,"files":{".envelope/export.json":{"mode":"0644","text":""}}}')).toThrow(RecordError);
  });
});
