// A file the runner keeps (a thread's checkpoints, a decisions file, a workspace document) is
// on disk before its rename, and the rename before the write returns: without the fsyncs a
// power cut on a file system that delays writes can leave an empty file in its place.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { beforeEach, describe, expect, it, vi } from "vitest";

const calls = vi.hoisted(() => ({ log: [] as string[][], open: new Map<number, string>(), onFsync: null as (() => void) | null }));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const mocked = {
    ...fs,
    openSync: (...args: Parameters<typeof fs.openSync>) => {
      const fd = fs.openSync(...args);
      calls.open.set(fd, String(args[0]));
      return fd;
    },
    fsyncSync: (fd: number) => {
      calls.log.push(["fsync", calls.open.get(fd) ?? "?"]);
      fs.fsyncSync(fd);
      const then = calls.onFsync;
      calls.onFsync = null;
      then?.();
    },
    renameSync: (from: fs.PathLike, to: fs.PathLike) => {
      calls.log.push(["rename", String(from), String(to)]);
      fs.renameSync(from, to);
    },
  };
  return { ...mocked, default: mocked };
});

const { writeAtomically } = await import("../src/thread-files.js");
const { FileSaver } = await import("../src/checkpoint.js");

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "envelope-durable-"));
  calls.log.length = 0;
  calls.onFsync = null;
});

/** The calls for one write of `path`: the temporary file synced, renamed into place, the folder synced. */
function expectDurable(path: string): void {
  const rename = calls.log.find((c) => c[0] === "rename" && c[2] === path);
  expect(rename, `no rename into ${path}`).toBeDefined();
  const at = calls.log.indexOf(rename!);
  expect(calls.log.slice(0, at)).toContainEqual(["fsync", rename![1]]);
  expect(calls.log.slice(at + 1)).toContainEqual(["fsync", dir]);
}

describe("durable writes", () => {
  it("writeAtomically syncs the file before its rename and the folder after it", () => {
    const path = join(dir, "decisions.json");
    writeAtomically(path, "{}\n");
    expect(readFileSync(path, "utf8")).toBe("{}\n");
    expectDurable(path);
  });

  it("a thread's checkpoint file is written the same way", async () => {
    const saver = new FileSaver(dir);
    await saver.put({ configurable: { thread_id: "t1", checkpoint_ns: "" } }, emptyCheckpoint(), { source: "input", step: -1, parents: {} });
    const renamed = calls.log.find((c) => c[0] === "rename");
    expect(renamed).toBeDefined();
    expectDurable(renamed![2]!);
  });

  it("two writes of one file by processes of one pid (containers sharing a folder all run as pid 1) each write through a temporary of their own", () => {
    // The second write happens while the first's temporary is written: with one temporary
    // name the second took it over and renamed it, and the first's rename failed (ENOENT).
    const path = join(dir, "decisions.json");
    calls.onFsync = () => writeAtomically(path, "second\n");
    writeAtomically(path, "first\n");
    expect(readFileSync(path, "utf8")).toBe("first\n");
    const temporaries = calls.log.filter((c) => c[0] === "rename").map((c) => c[1]);
    expect(new Set(temporaries).size).toBe(2);
  });

  it("so does a thread's checkpoint file", async () => {
    const saver = new FileSaver(dir);
    const config = { configurable: { thread_id: "t1", checkpoint_ns: "" } };
    await saver.put(config, emptyCheckpoint(), { source: "input", step: -1, parents: {} });
    await saver.put(config, emptyCheckpoint(), { source: "loop", step: 0, parents: {} });
    const temporaries = calls.log.filter((c) => c[0] === "rename").map((c) => c[1]!);
    expect(temporaries).toHaveLength(2);
    expect(temporaries[0]).not.toBe(temporaries[1]);
    expect(temporaries[0]).toMatch(new RegExp(`t1\\.json\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
  });
});
