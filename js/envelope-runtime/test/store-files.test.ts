// The runner's folders (a thread's checkpoints, the workspace store, the runs' decisions
// files): what a killed write leaves there is removed once its writer is gone, and the
// workspace store reads only the files of the namespaces an operation needs.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";

// The scrub judges a file by the later of its mtime and ctime (a rename sets only ctime); a test
// cannot set a file's ctime back, so the files `leftover` makes show their mtime as ctime too.
const backdated = vi.hoisted(() => new Set<string>());
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const statSync = ((path: import("node:fs").PathLike, options?: import("node:fs").StatSyncOptions) => {
    const stat = fs.statSync(path, options);
    if (stat && backdated.has(String(path))) stat.ctimeMs = Number(stat.mtimeMs);
    return stat;
  }) as typeof fs.statSync;
  const mocked = { ...fs, statSync };
  return { ...mocked, default: mocked };
});
import { FileSaver } from "../src/checkpoint.js";
import { SavedRuns } from "../src/workspace-cli.js";
import { FileStore } from "../src/workspace-store.js";

const folder = () => mkdtempSync(join(tmpdir(), "envelope-store-files-"));
/** A pid no process runs now (a child that has exited). */
const gone = () => spawnSync(process.execPath, ["-e", "0"]).pid;
/** `name` in `dir`, holding `text`, last written `ageMs` ago. */
function leftover(dir: string, name: string, ageMs: number, text = "{}"): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  const then = new Date(Date.now() - ageMs);
  utimesSync(path, then, then);
  backdated.add(path);
  return path;
}

describe("leftovers of killed writes", () => {
  it("the checkpointer removes those of its naming whose writer is gone, and keeps what a write may still be using", () => {
    const dir = folder();
    const dead = gone();
    const removed = [
      leftover(dir, `t1.json.${dead}.tmp`, 60_000, '{"secret": "pat@example.com"}'),
      leftover(dir, `t1.json.${process.pid}.tmp`, 60_000), // this pid's, from before a restart: this process wrote none so slowly
      leftover(dir, `t1.lock.${dead}.0a1b2c3d.tmp`, 60_000),
      leftover(dir, `t1.lock.${dead}.stale`, 60_000),
      leftover(dir, `t4.json.${process.ppid}.tmp`, 2 * 3_600_000), // its pid reused long since
      // Named with a random part too (processes of containers sharing a folder are all pid 1).
      leftover(dir, `t6.json.${dead}.0a1b2c3d.tmp`, 60_000, '{"secret": "pat@example.com"}'),
      leftover(dir, `.t6.decisions.json.${dead}.9f8e7d6c.tmp`, 60_000),
      leftover(dir, `t6.lock.${dead}.0a1b2c3d.stale`, 60_000),
    ];
    const kept = [
      leftover(dir, `t2.json.${dead}.tmp`, 0), // just written: maybe by a process on another host
      leftover(dir, `t3.json.${process.ppid}.tmp`, 60_000), // a running process may still rename it
      leftover(dir, "notes.tmp", 60_000),
      leftover(dir, `t5.txt.${dead}.tmp`, 60_000),
      leftover(dir, `t7.json.${dead}.0a1b2c3d.tmp`, 0),
      leftover(dir, `t7.lock.${process.ppid}.0a1b2c3d.stale`, 60_000),
    ];
    new FileSaver(dir);
    expect(removed.filter((p) => existsSync(p))).toEqual([]);
    expect(kept.filter((p) => !existsSync(p))).toEqual([]);
  });

  it("delete --purge-runs finds nothing left of a killed write of a run's checkpoints or decisions file", async () => {
    const runs = folder();
    mkdirSync(join(runs, "threads"));
    const dead = gone();
    const checkpoint = leftover(join(runs, "threads"), `r1.json.${dead}.tmp`, 60_000, '{"thread": "r1", "storage": {}, "writes": {}, "pat@example.com": 1}');
    const decisions = leftover(runs, `.r1.decisions.json.${dead}.tmp`, 60_000, '{"review": [{"record": "r1", "fields": {"email": "pat@example.com"}}]}');
    const saved = new SavedRuns(runs);
    expect(await saved.holding(["pat@example.com"])).toEqual([]);
    expect(existsSync(checkpoint)).toBe(false);
    await saved.purge([]);
    expect(existsSync(decisions)).toBe(false);
  });

  it("the workspace store removes them under its lock, at its first write", async () => {
    const dir = folder();
    const dead = gone();
    const document = leftover(dir, `.envelope_workspace.attendees.json.${dead}.tmp`, 60_000, '{"email": "pat@example.com"}');
    const lock = leftover(dir, `.lock.${dead}.0a1b2c3d.tmp`, 60_000);
    const live = leftover(dir, `.envelope_workspace.speakers.json.${process.ppid}.tmp`, 60_000);
    const store = new FileStore(dir);
    await store.put(["envelope_workspace", "attendees"], "a", { email: "a@b.c" });
    expect([existsSync(document), existsSync(lock), existsSync(live)]).toEqual([false, false, true]);
    expect((await store.get(["envelope_workspace", "attendees"], "a"))?.value).toEqual({ email: "a@b.c" });
  });
});

describe("the workspace store's reads", () => {
  it("read only the files of the namespaces an operation needs: a get, a put, a search under a prefix", async () => {
    const dir = folder();
    const store = new FileStore(dir);
    await store.put(["envelope_workspace", "attendees"], "a", { email: "a@b.c" });
    await store.put(["envelope_workspace", "attendees", "archive"], "b", { email: "b@b.c" });
    await store.put(["envelope_workspace", "speakers"], "s", { name: "S" });
    // Another namespace's file that cannot be read as JSON: only what reads it fails.
    writeFileSync(join(dir, "envelope_workspace.speakers.json"), "{not json");
    expect((await store.get(["envelope_workspace", "attendees"], "a"))?.value).toEqual({ email: "a@b.c" });
    await store.put(["envelope_workspace", "attendees"], "c", { email: "c@b.c" });
    expect((await store.search(["envelope_workspace", "attendees"])).map((i) => i.key).sort()).toEqual(["a", "b", "c"]);
    await expect(store.search(["envelope_workspace"])).rejects.toThrow(/envelope_workspace\.speakers\.json is not JSON/);
    await expect(store.get(["envelope_workspace", "speakers"], "s")).rejects.toThrow(/is not JSON/);
    await expect(store.listNamespaces()).rejects.toThrow(/is not JSON/);
  });

  it("keeps two namespaces differing only in case in files whose names differ however a file system folds case", async () => {
    const dir = folder();
    const store = new FileStore(dir);
    await store.put(["envelope_workspace", "Signups", "Zoë /%F"], "upper", { n: 1 });
    await store.put(["envelope_workspace", "signups", "zoë /%f"], "lower", { n: 2 });
    // macOS's and Windows' file systems fold case: these names must differ folded too.
    expect(new Set(readdirSync(dir).filter((n) => n.endsWith(".json")).map((n) => n.toLowerCase())).size).toBe(2);
    expect((await store.search(["envelope_workspace", "Signups"])).map((i) => i.key)).toEqual(["upper"]);
    expect((await store.search(["envelope_workspace", "signups"])).map((i) => i.key)).toEqual(["lower"]);
    expect((await store.listNamespaces()).sort()).toEqual([["envelope_workspace", "Signups", "Zoë /%F"], ["envelope_workspace", "signups", "zoë /%f"]]);
  });

  it("reads a namespace file named as earlier versions named it (labels without upper-case letters are named the same)", async () => {
    const dir = folder();
    const item = { key: "a", value: { email: "a@b.c" }, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" };
    writeFileSync(join(dir, "envelope_workspace_fired.attendee-list.json"), JSON.stringify({ namespace: ["envelope_workspace_fired", "attendee-list"], items: [item] }));
    const store = new FileStore(dir);
    expect((await store.get(["envelope_workspace_fired", "attendee-list"], "a"))?.value).toEqual({ email: "a@b.c" });
    await store.put(["envelope_workspace_fired", "attendee-list"], "b", { fired: true });
    expect(readdirSync(dir).filter((n) => n.endsWith(".json"))).toEqual(["envelope_workspace_fired.attendee-list.json"]);
  });
});
