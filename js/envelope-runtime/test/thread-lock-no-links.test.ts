// The thread lock (and the workspace store's, the same ThreadLock) on a file system without
// hard links (FAT, exFAT, some FUSE, SMB and overlay mounts): link(2) fails there with EPERM,
// ENOTSUP or the like, and the lock is created with O_EXCL instead. Here link(2) is made to fail so.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";

const links = vi.hoisted(() => ({ refusal: null as string | null, tried: 0 }));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const mocked = {
    ...fs,
    linkSync: (from: import("node:fs").PathLike, to: import("node:fs").PathLike) => {
      links.tried++;
      if (links.refusal) throw Object.assign(new Error(`${links.refusal}: operation not permitted, link '${String(from)}' -> '${String(to)}'`), { code: links.refusal });
      fs.linkSync(from, to);
    },
  };
  return { ...mocked, default: mocked };
});

const { ThreadLock } = await import("../src/thread-files.js");

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "envelope-no-links-"));
  links.refusal = "EPERM";
  links.tried = 0;
});

describe("thread lock without hard links", () => {
  for (const code of ["EPERM", "ENOTSUP", "EXDEV"]) {
    it(`is taken with O_EXCL when link(2) answers ${code}, holds its holder, keeps others off and is released`, () => {
      links.refusal = code;
      const path = join(dir, "t.lock");
      const lock = new ThreadLock(path);
      expect(lock.acquire()).toBeNull();
      expect(links.tried).toBe(1);
      expect(readFileSync(path, "utf8")).toBe(`${process.pid} ${hostname()}\n`);
      expect(new ThreadLock(path).acquire()).toEqual({ who: `process ${process.pid} on ${hostname()}` });
      lock.release();
      expect(existsSync(path)).toBe(false);
      expect(new ThreadLock(path).acquire()).toBeNull();
    });
  }

  it("takes over a lock whose process is gone", () => {
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid;
    const path = join(dir, "s.lock");
    writeFileSync(path, `${gone} ${hostname()}\n`);
    expect(new ThreadLock(path).acquire()).toBeNull();
    expect(readFileSync(path, "utf8")).toBe(`${process.pid} ${hostname()}\n`);
  });

  it("still fails on any other error of link(2)", () => {
    links.refusal = "EACCES";
    expect(() => new ThreadLock(join(dir, "a.lock")).acquire()).toThrow(/EACCES/);
    expect(existsSync(join(dir, "a.lock"))).toBe(false);
  });
});
