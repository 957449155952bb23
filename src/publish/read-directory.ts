// An already exported project directory → a FileSet, for `envelope publish DIR`. Only regular
// files are taken; a symbolic link or other special file is refused rather than followed
// (it could point outside the project). `.git` is skipped: the repository is the history
// being created, not content. An executable bit on any class makes the file 0o755.
import { lstat, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { FileSet, UnsafePathError } from "../export/file-set.js";
import { PublishError } from "./errors.js";

const MAX_FILES = 10_000;

export async function readDirectoryFiles(dir: string): Promise<FileSet> {
  const top = await lstat(dir).catch((e: NodeJS.ErrnoException) => {
    throw new PublishError("invalid-input", `cannot read ${dir}: ${e.code === "ENOENT" ? "no such directory" : e.message}`);
  });
  if (!top.isDirectory()) throw new PublishError("invalid-input", `${dir} is not a directory (publish takes an exported project directory)`);
  const files = new FileSet();
  const walk = async (rel: string): Promise<void> => {
    const names = (await readdir(join(dir, rel))).sort();
    for (const name of names) {
      const path = rel ? `${rel}/${name}` : name;
      if (path === ".git") continue;
      const info = await lstat(join(dir, path));
      if (info.isDirectory()) await walk(path);
      else if (info.isFile()) {
        if (files.size >= MAX_FILES) throw new PublishError("invalid-input", `${dir} holds more than ${MAX_FILES} files: is it really an exported project?`);
        try {
          files.add(path, new Uint8Array(await readFile(join(dir, path))), info.mode & 0o111 ? 0o755 : 0o644);
        } catch (e) {
          if (e instanceof UnsafePathError) throw new PublishError("invalid-input", `${e.message} in ${dir}: such a name cannot be published`);
          throw e;
        }
      } else {
        throw new PublishError("invalid-input", `${join(dir, path)} is a ${info.isSymbolicLink() ? "symbolic link" : "special file"}; only regular files can be published`);
      }
    }
  };
  await walk("");
  if (files.size === 0) throw new PublishError("invalid-input", `${dir} is empty: there is nothing to publish`);
  return files;
}
