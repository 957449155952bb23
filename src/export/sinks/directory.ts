// Writes a file set to a directory atomically: everything is written into a fresh sibling
// directory first and renamed into place at the end, so an interrupted export leaves the
// target untouched. A non-empty target is refused unless `force`, which replaces it whole
// (no stale files survive, unlike generators that overwrite in place).
//
// A target that is a symbolic link is refused, --force or not: replacing the link would
// lose it, and following it would write (and with --force delete) wherever it points.
// Everything is created with the process umask applied, as any other tool's output:
// folders 0777 & ~umask, files their mode (0644 or 0755) & ~umask.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { chmod, lstat, mkdir, readdir, readlink, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { FileSet } from "../file-set.js";
import { checkRelativePath } from "../file-set.js";
import { makeFolders } from "./make-folders.js";

export class OutputExistsError extends Error {}

export async function writeDirectory(files: FileSet, outDir: string, options: { force?: boolean } = {}): Promise<void> {
  const target = resolve(outDir);
  const existing = await lstat(target).catch(() => undefined);
  if (existing?.isSymbolicLink()) {
    const to = await readlink(target).catch(() => "?");
    throw new OutputExistsError(`${outDir} is a symbolic link (to ${to}); --out never replaces or follows a link: give the directory itself as --out`);
  }
  if (existing && !existing.isDirectory()) throw new OutputExistsError(`${outDir} exists and is not a directory`);
  if (existing && (await readdir(target)).length > 0 && !options.force) {
    throw new OutputExistsError(`${outDir} is not empty; choose another --out or pass --force to replace it`);
  }
  const parent = dirname(target);
  await makeFolders(parent);
  // Private (0700) while it is filled, so nobody else can plant a link inside it; given the
  // umask's mode (0777 & ~umask) just before it is renamed into place.
  const staging = join(parent, `.${basename(target)}.envelope-${randomBytes(6).toString("hex")}`);
  await mkdir(staging, { mode: 0o700 });
  try {
    // Synchronous on purpose: the files are small and many (a 1,000-agent team writes a
    // thousand), and a trip to the thread pool per mkdir, open, write and close cost more
    // than the writes themselves; each folder is made once. It holds the event loop for the
    // writes' length (milliseconds), which only `export --out` and library callers wait on.
    const made = new Set<string>();
    for (const [path, entry] of files.entries()) {
      const full = resolve(staging, checkRelativePath(path));
      if (!full.startsWith(staging + sep)) throw new Error(`refusing to write outside the output: ${path}`);
      const dir = dirname(full);
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      writeFileSync(full, entry.bytes, { mode: entry.mode, flag: "wx" });
    }
    // process.umask() only reads it here (setting it would race other work in the process).
    await chmod(staging, 0o777 & ~process.umask());
    if (existing) {
      // Swap: old aside, new in, old removed — the target is never half-written.
      const aside = `${staging}.old`;
      await rename(target, aside);
      await rename(staging, target);
      await rm(aside, { recursive: true, force: true });
    } else {
      await rename(staging, target);
    }
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
}

