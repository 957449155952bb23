// `--zip PATH`: where the archive goes, and what may never be replaced on the way.
// - a new name or an existing regular file (with --force): streamed to a temporary file
//   beside it and renamed over it when complete, so an interrupted export leaves it as it was;
// - a FIFO or a character device (`/dev/null`, a terminal, a process substitution): written
//   through, as a shell redirection would; nothing is replaced, so no --force is needed;
// - `-`: standard output;
// - a symbolic link to a FIFO or character device (`/dev/stdout`, `/dev/fd/63` of `>(…)`):
//   written through too; the link and what it names are never replaced;
// - any other symbolic link, a directory, a socket or block device: refused. Renaming over a
//   link replaced the link with a file; run as root, renaming over /dev/stdout replaced it.
import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { lstat, open, readlink, rename, rm, stat, type FileHandle } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { FileSet } from "../file-set.js";
import { OutputExistsError } from "./directory.js";
import { makeFolders } from "./make-folders.js";
import { writeZip } from "./zip.js";

export interface ZipFileOptions {
  force: boolean;
  /** The folder every entry is under (the distribution name). */
  rootName: string;
  /** Where `-` writes. */
  stdout: NodeJS.WritableStream;
}

/** The sink hands over small pieces (headers, names, data): they are written in 64 kB batches. */
async function streamZip(files: FileSet, rootName: string, write: (batch: Buffer) => Promise<void>): Promise<void> {
  let pending: Uint8Array[] = [];
  let size = 0;
  const flush = async () => {
    const batch = Buffer.concat(pending, size);
    pending = [];
    size = 0;
    if (batch.length) await write(batch);
  };
  await writeZip(
    files,
    async (chunk) => {
      pending.push(chunk);
      size += chunk.length;
      if (size >= 64 * 1024) await flush();
    },
    `${rootName}/`,
  );
  await flush();
}

const toHandle = (handle: FileHandle) => async (batch: Buffer) => {
  for (let at = 0; at < batch.length; ) at += (await handle.write(batch, at)).bytesWritten;
};

const toStream = (stream: NodeJS.WritableStream) => (batch: Buffer) =>
  new Promise<void>((done, fail) => {
    stream.write(batch, (e) => (e ? fail(e) : done()));
  });

function kind(info: Stats): string {
  if (info.isSymbolicLink()) return "a symbolic link";
  if (info.isDirectory()) return "a directory";
  if (info.isSocket()) return "a socket";
  if (info.isBlockDevice()) return "a block device";
  if (info.isFIFO()) return "a FIFO";
  if (info.isCharacterDevice()) return "a character device";
  return "a special file";
}

export async function writeZipFile(files: FileSet, path: string, options: ZipFileOptions): Promise<void> {
  if (path === "-") return streamZip(files, options.rootName, toStream(options.stdout));
  const target = resolve(path);
  const existing = await lstat(target).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return undefined;
    throw e;
  });
  const through = (info: { isFIFO(): boolean; isCharacterDevice(): boolean }) => info.isFIFO() || info.isCharacterDevice();
  let linkToDevice = false;
  if (existing?.isSymbolicLink()) {
    const named = await stat(target).catch(() => undefined); // undefined: a dangling link
    linkToDevice = named !== undefined && through(named);
    if (!linkToDevice) {
      const to = await readlink(target).catch(() => "?");
      const stdout = to.startsWith("/proc/") ? " (for standard output, use --zip -)" : "";
      throw new OutputExistsError(`${path} is a symbolic link (to ${to}); --zip never replaces or follows a link: give the path it points to, or remove the link${stdout}`);
    }
  }
  if (existing?.isDirectory()) throw new OutputExistsError(`${path} is a directory; --zip takes a file name`);
  if (existing && (linkToDevice || through(existing))) {
    // No O_CREAT or O_TRUNC, and O_NOFOLLOW unless the link was checked to name a device:
    // if the name changed since the check this fails rather than create anything, and the
    // fstat makes sure what was opened is still a FIFO or character device.
    const handle = await open(target, constants.O_WRONLY | (linkToDevice ? 0 : constants.O_NOFOLLOW));
    try {
      const now = await handle.stat();
      if (!now.isFIFO() && !now.isCharacterDevice()) throw new OutputExistsError(`${path} changed while it was being opened; nothing was written`);
      await streamZip(files, options.rootName, toHandle(handle));
    } finally {
      await handle.close();
    }
    return;
  }
  if (existing && !existing.isFile()) throw new OutputExistsError(`${path} is ${kind(existing)}; --zip writes only a regular file, a FIFO or a character device`);
  if (existing && !options.force) throw new OutputExistsError(`${path} already exists; pass --force to replace it`);
  // Like --out, missing parent folders are created.
  await makeFolders(dirname(target));
  // Exclusive create: never opens (or follows) something already there.
  const temp = join(dirname(target), `.${basename(target)}.envelope-${randomBytes(6).toString("hex")}`);
  const handle = await open(temp, "wx");
  try {
    await streamZip(files, options.rootName, toHandle(handle));
    await handle.close();
    // Checked again just before the rename: what is there now must still be replaceable.
    const now = await lstat(target).catch(() => undefined);
    if (now && !now.isFile()) throw new OutputExistsError(`${path} became ${kind(now)} while the archive was written; it was left as it is`);
    if (now && !existing && !options.force) throw new OutputExistsError(`${path} appeared while the archive was written; pass --force to replace it`);
    await rename(temp, target);
  } catch (e) {
    await handle.close().catch(() => {});
    await rm(temp, { force: true });
    throw e;
  }
}
