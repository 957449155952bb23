// The thread lock against what other processes do between its steps, made to happen at that
// step through node:fs: a scrub of the folder (scrubLeftovers, run by every checkpointer and
// workspace store) between moving a stale lock aside and reading it, and a write of the lock's
// holder failing where link(2) is refused and a file cannot be removed while open (Windows, FAT),
// and a lock's temporary that cannot be removed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";

const seam = vi.hoisted(() => ({
  afterRename: null as ((to: string) => void) | null,
  refuseLinks: false,
  failFdWrites: null as string | null,
  refuseUnlink: false,
  refuseLinkWith: null as string | null,
  refuseTmpUnlink: false,
  open: new Map<number, string>(),
}));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const fail = (code: string, what: string) => Object.assign(new Error(`${code}: ${what}`), { code });
  const mocked = {
    ...fs,
    renameSync: (from: import("node:fs").PathLike, to: import("node:fs").PathLike) => {
      fs.renameSync(from, to);
      seam.afterRename?.(String(to));
    },
    linkSync: (from: import("node:fs").PathLike, to: import("node:fs").PathLike) => {
      if (seam.refuseLinks) throw fail("EPERM", `operation not permitted, link '${String(from)}' -> '${String(to)}'`);
      if (seam.refuseLinkWith) throw fail(seam.refuseLinkWith, `link '${String(from)}' -> '${String(to)}'`);
      fs.linkSync(from, to);
    },
    openSync: (path: import("node:fs").PathLike, ...rest: [never]) => {
      const fd = fs.openSync(path, ...rest);
      seam.open.set(fd, String(path));
      return fd;
    },
    closeSync: (fd: number) => {
      seam.open.delete(fd);
      fs.closeSync(fd);
    },
    writeFileSync: (file: number | import("node:fs").PathLike, ...rest: [never]) => {
      if (typeof file === "number" && seam.failFdWrites) throw fail(seam.failFdWrites, "no space left on device, write");
      fs.writeFileSync(file, ...rest);
    },
    // As Windows (and FAT under it) answers: an open file cannot be removed.
    unlinkSync: (path: import("node:fs").PathLike) => {
      if ([...seam.open.values()].includes(String(path))) throw fail("EBUSY", `resource busy or locked, unlink '${String(path)}'`);
      if (seam.refuseUnlink && String(path).endsWith(".lock")) throw fail("EPERM", `operation not permitted, unlink '${String(path)}'`);
      if (seam.refuseTmpUnlink && String(path).endsWith(".tmp")) throw fail("EBUSY", `resource busy or locked, unlink '${String(path)}'`);
      fs.unlinkSync(path);
    },
  };
  return { ...mocked, default: mocked };
});

const { ThreadLock, scrubLeftovers } = await import("../src/thread-files.js");

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "envelope-lock-races-"));
  Object.assign(seam, { afterRename: null, refuseLinks: false, failFdWrites: null, refuseUnlink: false, refuseLinkWith: null, refuseTmpUnlink: false });
  seam.open.clear();
});

/** A lock left by a process that is gone, last written two hours ago (past the scrub's hour). */
function staleLock(): string {
  const path = join(dir, "t.lock");
  writeFileSync(path, `${spawnSync(process.execPath, ["-e", "0"]).pid} ${hostname()}\n`);
  const then = new Date(Date.now() - 2 * 3_600_000);
  utimesSync(path, then, then);
  return path;
}

describe("breaking a stale lock while others scrub the folder", () => {
  it("a scrub just after the lock is moved aside keeps it (a rename sets its ctime), and the lock is taken", () => {
    const path = staleLock();
    let kept = false;
    seam.afterRename = (to) => {
      if (!to.endsWith(".stale")) return;
      seam.afterRename = null;
      scrubLeftovers(dir);
      kept = existsSync(to);
    };
    expect(new ThreadLock(path).acquire()).toBeNull();
    expect(kept).toBe(true);
    expect(readFileSync(path, "utf8")).toBe(`${process.pid} ${hostname()}\n`);
    expect(readdirSync(dir)).toEqual(["t.lock"]);
  });

  it("moves a stale lock aside under a name of its own (processes of containers sharing a folder are all pid 1)", () => {
    const path = staleLock();
    const asides: string[] = [];
    seam.afterRename = (to) => void (to.endsWith(".stale") && asides.push(to));
    expect(new ThreadLock(path).acquire()).toBeNull();
    expect(asides).toHaveLength(1);
    expect(asides[0]).toMatch(new RegExp(`^${path.replaceAll(".", "\\.")}\\.${process.pid}\\.[0-9a-f]{8}\\.stale$`));
  });

  it("the file moved aside vanishing before it is read is someone else's doing: the lock is tried again and taken", () => {
    const path = staleLock();
    seam.afterRename = (to) => {
      if (!to.endsWith(".stale")) return;
      seam.afterRename = null;
      unlinkSync(to); // removed by another process (an older version's scrub, say)
    };
    expect(new ThreadLock(path).acquire()).toBeNull();
    expect(readFileSync(path, "utf8")).toBe(`${process.pid} ${hostname()}\n`);
    expect(readdirSync(dir)).toEqual(["t.lock"]);
  });
});

describe("a lock created with O_EXCL whose holder cannot be written", () => {
  it("is closed before it is removed (an open file cannot be removed on Windows), and the write's error is thrown", () => {
    seam.refuseLinks = true;
    seam.failFdWrites = "ENOSPC";
    const path = join(dir, "w.lock");
    expect(() => new ThreadLock(path).acquire()).toThrow(/^ENOSPC/);
    expect(existsSync(path)).toBe(false);
    expect(seam.open.size).toBe(0);
  });

  it("a removal that fails too leaves the write's error to report", () => {
    seam.refuseLinks = true;
    seam.failFdWrites = "ENOSPC";
    seam.refuseUnlink = true;
    expect(() => new ThreadLock(join(dir, "w.lock")).acquire()).toThrow(/^ENOSPC/);
    expect(seam.open.size).toBe(0);
  });
});

describe("a lock's temporary that cannot be removed (a scanner holding it open on Windows)", () => {
  it("leaves acquire's own error to report", () => {
    seam.refuseTmpUnlink = true;
    seam.refuseLinkWith = "EACCES";
    expect(() => new ThreadLock(join(dir, "u.lock")).acquire()).toThrow(/^EACCES/);
  });

  it("does not undo a lock taken: acquire says it holds it, and release frees it", () => {
    seam.refuseTmpUnlink = true;
    const path = join(dir, "u.lock");
    const lock = new ThreadLock(path);
    expect(lock.acquire()).toBeNull();
    lock.release();
    expect(existsSync(path)).toBe(false);
    // The temporary is a leftover of its naming, which the scrub removes.
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toHaveLength(1);
  });
});
