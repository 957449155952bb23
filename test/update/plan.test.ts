// Each rule of an update plan (src/update/plan.ts), from the three versions of a path: the
// last export (base), the project now (yours) and the new export (next).
import { describe, expect, it } from "vitest";
import { FileSet, sha256 } from "../../src/export/file-set.js";
import { changes, planUpdate, type Current, type PlanEntry } from "../../src/update/plan.js";
import { mergeText } from "../../src/update/merge.js";

type Files = Record<string, string>;
const set = (files: Files) => {
  const s = new FileSet();
  for (const [p, t] of Object.entries(files)) s.add(p, t);
  return s;
};
const enc = (t: string) => new TextEncoder().encode(t);

function plan(base: Files, yours: Files | Record<string, string | "other">, next: Files, ignore?: string): Record<string, PlanEntry> {
  const current = (p: string): Current => {
    const v = (yours as Record<string, string>)[p];
    return v === undefined ? "missing" : v === "other" ? "other" : { bytes: enc(v), mode: 0o644 };
  };
  const entries = planUpdate({ base: set(base), next: set(next), current, ...(ignore !== undefined ? { ignore } : {}) });
  return Object.fromEntries(entries.map((e) => [e.path, e]));
}
const action = (p: Record<string, PlanEntry>) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.action]));
const written = (e: PlanEntry | undefined) => (e?.write ? new TextDecoder().decode(e.write.bytes) : undefined);

describe("update plan rules", () => {
  it("an untouched file takes the new export; an unchanged one is left alone", () => {
    const p = plan({ a: "1\n", b: "same\n" }, { a: "1\n", b: "same\n" }, { a: "2\n", b: "same\n" });
    expect(action(p)).toEqual({ a: "update", b: "unchanged" });
    expect(written(p.a)).toBe("2\n");
    expect(p.b!.write).toBeUndefined();
  });

  it("a lock file both sides changed is kept, not merged, and the update names the command that locks anew", () => {
    const lock = (lines: string[]) => lines.map((l) => `${l}\n`).join("");
    const base = lock(["a = 1", "b = 1", "c = 1"]);
    const locks = (text: string) => {
      const s = new FileSet();
      s.addLock("uv.lock", text, "uv lock");
      return s;
    };
    const yours = lock(["a = 2", "b = 1", "c = 1"]); // the developer's `uv add`
    const next = lock(["a = 1", "b = 1", "c = 2"]); // the export's new pin: a clean text merge
    const [e] = planUpdate({ base: locks(base), next: locks(next), current: () => ({ bytes: enc(yours), mode: 0o644 }) });
    expect(e!.action).toBe("keep");
    expect(e!.write).toBeUndefined();
    expect(e!.reason).toContain("run `uv lock` after the update");
    // untouched by the developer, it is replaced as any file is
    const [untouched] = planUpdate({ base: locks(base), next: locks(next), current: () => ({ bytes: enc(base), mode: 0o644 }) });
    expect(untouched!.action).toBe("update");
    // the same texts as a plain file merge
    expect(plan({ "uv.lock": base }, { "uv.lock": yours }, { "uv.lock": next })["uv.lock"]!.action).toBe("merge");
  });

  it("a lock file the last export recorded by its hash alone: every rule decided by the hash", () => {
    const [old, mine, fresh] = ["a = 1\n", "a = 2\n", "a = 3\n"];
    const base = new FileSet();
    base.addDigest("uv.lock", sha256(enc(old)));
    const next = (text: string | undefined) => {
      const s = new FileSet();
      if (text !== undefined) s.addLock("uv.lock", text, "uv lock");
      return s;
    };
    const one = (yours: string | undefined, nextText: string | undefined, mode = 0o644) =>
      planUpdate({ base, next: next(nextText), current: () => (yours === undefined ? "missing" : { bytes: enc(yours), mode }) })[0]!;
    expect(one(old, fresh)).toMatchObject({ action: "update", write: { bytes: enc(fresh) } });
    expect(one(old.replace("\n", "\r\n"), fresh).action).toBe("update"); // a CRLF checkout of it is not an edit
    expect(one(mine, fresh).action).toBe("keep");
    expect(one(mine, fresh).reason).toContain("run `uv lock`");
    expect(one(mine, old).action).toBe("keep"); // the export did not change it
    expect(one(fresh, fresh).action).toBe("unchanged");
    expect(one(old, fresh, 0o755).action).toBe("keep"); // its mode changed in the project: edited
    expect(one(old, undefined).action).toBe("remove");
    expect(one(mine, undefined).action).toBe("keep");
    expect(one(undefined, old).action).toBe("keep");
    expect(one(undefined, fresh).action).toBe("conflict");
    // no longer a lock in the new export, and both changed: nothing to merge against
    const plain = new FileSet();
    plain.add("uv.lock", fresh);
    const [e] = planUpdate({ base, next: plain, current: () => ({ bytes: enc(mine), mode: 0o644 }) });
    expect(e).toMatchObject({ action: "keep" });
    expect(e!.reason).toContain("only its hash");
  });

  it("a file only the developer changed is kept", () => {
    const p = plan({ a: "1\n" }, { a: "mine\n" }, { a: "1\n" });
    expect(p.a!.action).toBe("keep");
    expect(p.a!.write).toBeUndefined();
  });

  it("both changed, apart: merged, both changes in", () => {
    const base = "one\ntwo\nthree\nfour\nfive\n";
    const p = plan({ a: base }, { a: "ONE\ntwo\nthree\nfour\nfive\n" }, { a: "one\ntwo\nthree\nfour\nFIVE\n" });
    expect(p.a!.action).toBe("merge");
    expect(written(p.a)).toBe("ONE\ntwo\nthree\nfour\nFIVE\n");
  });

  it("both changed the same lines differently: a conflict with git's markers, the base included", () => {
    const p = plan({ a: "x\nkeep\n" }, { a: "mine\nkeep\n" }, { a: "theirs\nkeep\n" });
    expect(p.a!.action).toBe("conflict");
    expect(p.a!.conflicts).toBe(1);
    expect(written(p.a)).toBe("<<<<<<< yours\nmine\n||||||| last export\nx\n=======\ntheirs\n>>>>>>> new export\nkeep\n");
  });

  it("the same change on both sides is no conflict, and nothing to write", () => {
    const p = plan({ a: "x\n" }, { a: "y\n" }, { a: "y\n" });
    expect(p.a!.action).toBe("unchanged");
  });

  it("a file the export no longer writes: removed when untouched, kept when edited, nothing when already gone", () => {
    const p = plan({ gone: "1\n", edited: "1\n", deleted: "1\n" }, { gone: "1\n", edited: "2\n" }, {});
    expect(action(p)).toEqual({ gone: "remove", edited: "keep", deleted: "unchanged" });
    expect(changes(Object.values(p))).toBe(true);
  });

  it("a file the developer added is not in the plan at all", () => {
    const p = plan({ a: "1\n" }, { a: "1\n", "src/tools/mine.py": "x\n" }, { a: "1\n" });
    expect(Object.keys(p)).toEqual(["a"]);
  });

  it("new in the export: created; when the developer already has that path, merged as two additions (a conflict unless equal)", () => {
    expect(plan({}, {}, { n: "1\n" }).n!.action).toBe("create");
    expect(plan({}, { n: "1\n" }, { n: "1\n" }).n!.action).toBe("unchanged");
    expect(plan({}, { n: "mine\n" }, { n: "theirs\n" }).n!.action).toBe("conflict");
  });

  it("deleted by the developer: stays deleted; changed by the export too: a conflict, not restored", () => {
    expect(plan({ a: "1\n" }, {}, { a: "1\n" }).a!.action).toBe("keep");
    const p = plan({ a: "1\n" }, {}, { a: "2\n" });
    expect(p.a!.action).toBe("conflict");
    expect(p.a!.write).toBeUndefined();
  });

  it("a link or folder where a file was: left as it is", () => {
    expect(plan({ a: "1\n" }, { a: "other" }, { a: "2\n" }).a!.action).toBe("keep");
  });

  it(".envelopeignore (gitignore syntax) protects paths, and .env / knowledge/ are the developer's by design", () => {
    const p = plan({ "src/p/custom.py": "1\n", "knowledge/a.md": "1\n", ".env": "A=1\n", "docs/x.md": "1\n" }, { "src/p/custom.py": "1\n", "knowledge/a.md": "1\n", ".env": "A=1\n", "docs/x.md": "1\n" }, { "src/p/custom.py": "2\n", "knowledge/a.md": "2\n", ".env": "A=2\n", "docs/x.md": "2\n" }, "# mine\n/src/p/custom.py\n");
    expect(action(p)).toEqual({ "src/p/custom.py": "keep", "knowledge/a.md": "keep", ".env": "keep", "docs/x.md": "update" });
    // Written once: a developer-owned path that does not exist yet is created.
    expect(plan({}, {}, { "knowledge/readme.md": "1\n" })["knowledge/readme.md"]!.action).toBe("create");
  });

  it("a mode change of the export reaches an untouched file", () => {
    const base = new FileSet();
    base.add("run.sh", "x\n", 0o644);
    const next = new FileSet();
    next.add("run.sh", "x\n", 0o755);
    const [e] = planUpdate({ base, next, current: () => ({ bytes: enc("x\n"), mode: 0o644 }) });
    expect(e!.action).toBe("update");
    expect(e!.write!.mode).toBe(0o755);
  });

  it("binary files both sides changed are not merged as text", () => {
    const base = new FileSet();
    base.add("logo.bin", new Uint8Array([0xff, 0x00, 1]));
    const next = new FileSet();
    next.add("logo.bin", new Uint8Array([0xff, 0x00, 2]));
    const [e] = planUpdate({ base, next, current: () => ({ bytes: new Uint8Array([0xff, 0x00, 3]), mode: 0o644 }) });
    expect(e!.action).toBe("conflict");
    expect(e!.write).toBeUndefined();
  });
});

describe("line ends of a CRLF checkout (git's core.autocrlf)", () => {
  it("CRLF alone is no edit: the file is updated, written back with CRLF", () => {
    const p = plan({ a: "one\ntwo\n" }, { a: "one\r\ntwo\r\n" }, { a: "one\nTWO\n" });
    expect(p.a!.action).toBe("update");
    expect(written(p.a)).toBe("one\r\nTWO\r\n");
  });
  it("a real edit in a CRLF checkout merges line by line, not as one whole-file conflict", () => {
    const p = plan({ a: "1\n2\n3\n4\n" }, { a: "ONE\r\n2\r\n3\r\n4\r\n" }, { a: "1\n2\n3\nFOUR\n" });
    expect(p.a!.action).toBe("merge");
    expect(written(p.a)).toBe("ONE\r\n2\r\n3\r\nFOUR\r\n");
  });
  it("an untouched CRLF copy of a file no longer exported is removed", () => {
    expect(plan({ gone: "x\n" }, { gone: "x\r\n" }, {}).gone!.action).toBe("remove");
  });
});

describe("three-way text merge", () => {
  it("keeps CRLF line ends and a missing final newline", () => {
    expect(mergeText("a\r\nB\r\nc", "a\r\nb\r\nc", "a\r\nb\r\nc").text).toBe("a\r\nB\r\nc");
    const m = mergeText("a\nmine", "a\nbase", "a\ntheirs");
    expect(m.conflicts).toBe(1);
    expect(m.text).toBe("a\n<<<<<<< yours\nmine\n||||||| last export\nbase\n=======\ntheirs\n>>>>>>> new export\n");
  });
});
