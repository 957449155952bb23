// Writes a file set to a directory atomically: everything is written into a fresh sibling
// directory first and renamed into place at the end, so an interrupted export leaves the
// target untouched. A non-empty target is refused unless `force`, which replaces it whole
// (no stale files survive, unlike generators that overwrite in place).
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile, chmod } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { FileSet } from "../file-set.js";
import { checkRelativePath } from "../file-set.js";

export class OutputExistsError extends Error {}

export async function writeDirectory(files: FileSet, outDir: string, options: { force?: boolean } = {}): Promise<void> {
  const target = resolve(outDir);
  const existing = await stat(target).catch(() => undefined);
  if (existing && !existing.isDirectory()) throw new OutputExistsError(`${outDir} exists and is not a directory`);
  if (existing && (await readdir(target)).length > 0 && !options.force) {
    throw new OutputExistsError(`${outDir} is not empty; choose another --out or pass --force to replace it`);
  }
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  const staging = await mkdtemp(join(parent, `.${basename(target)}.envelope-`));
  try {
    for (const [path, entry] of files.entries()) {
      const full = resolve(staging, checkRelativePath(path));
      if (!full.startsWith(staging + sep)) throw new Error(`refusing to write outside the output: ${path}`);
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, entry.bytes);
      await chmod(full, entry.mode);
    }
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
