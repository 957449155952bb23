// `envelope export FILE --target T (--out DIR | --zip FILE | --dry-run | --github OWNER/NAME) [--force] [--strict] [--json]`
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { exportDefinition } from "../export/export.js";
import type { FileSet } from "../export/file-set.js";
import { lossCounts, lossSummary } from "../export/loss-report.js";
import { OutputExistsError, writeDirectory } from "../export/sinks/directory.js";
import { writeZip } from "../export/sinks/zip.js";
import { exportCommitMessage } from "../publish/publish.js";
import { readDefinitionBytes, SourceReadError } from "../read/source.js";
import { TARGETS, targetNames } from "../targets/index.js";
import { formatText } from "./format-diagnostics.js";
import { dryRunLine, githubJson, prepareGitHub, publishedLine, publishWithProgress, type GitHubFlags, type GitHubOutcome, type GitHubRequest } from "./github-publish.js";
import { EXIT, UsageError, type Io } from "./main.js";
import { styleFor } from "./style.js";

export interface ExportCliOptions {
  target?: string;
  out?: string;
  zip?: string;
  dryRun: boolean;
  force: boolean;
  strict: boolean;
  json: boolean;
  /** --github OWNER/NAME and its options: also publish the project as a new repository. */
  github?: GitHubFlags | undefined;
}

export async function runExport(file: string, opts: ExportCliOptions, io: Io): Promise<number> {
  if (!opts.target) throw new UsageError(`export needs --target (${targetNames().join(" or ")})`);
  const target = Object.hasOwn(TARGETS, opts.target) ? TARGETS[opts.target] : undefined;
  if (!target) throw new UsageError(`unknown target "${opts.target}"; available: ${targetNames().join(", ")}`);
  if (!opts.out && !opts.zip && !opts.dryRun && !opts.github) throw new UsageError("export needs --out DIR, --zip FILE, --dry-run or --github OWNER/NAME");
  // Flags and token are checked before any work, so a typo or a missing token costs nothing.
  const github: GitHubRequest | undefined = opts.github && (await prepareGitHub(opts.github, io, { stdinTaken: file === "-", needToken: !opts.dryRun }));
  let bytes: Uint8Array;
  try {
    bytes = await readDefinitionBytes(file);
  } catch (e) {
    if (!(e instanceof SourceReadError)) throw e;
    io.stderr.write(`envelope: ${e.message}\n`);
    return EXIT.usage;
  }
  const label = file === "-" ? "<stdin>" : file;
  const result = exportDefinition(bytes, target, { strict: opts.strict, file: label });
  if (result.diagnostics.length) {
    const text = new TextDecoder().decode(bytes);
    io.stderr.write(formatText([{ file: label, valid: result.ok || result.failure !== undefined, diagnostics: result.diagnostics, text }], styleFor(io.stderr, io.env)));
  }
  if (!result.ok || !result.files) {
    if (result.loss) io.stderr.write(lossSummary(result.loss) + "\n");
    if (result.failure) io.stderr.write(`envelope: --strict: ${result.failure}\n`);
    if (opts.json) {
      // A pipeline reading --json gets an answer on stdout either way (the text is on stderr).
      const refused = {
        target: target.name,
        exported: false,
        reason: result.failure !== undefined ? "strict" : "invalid",
        diagnostics: result.diagnostics.map(({ file: _file, ...d }) => d),
        loss: result.loss ? { counts: lossCounts(result.loss), entries: result.loss } : null,
        ...(result.failure !== undefined ? { failure: `--strict: ${result.failure}` } : {}),
      };
      io.stdout.write(JSON.stringify(refused, null, 2) + "\n");
    }
    return EXIT.invalid;
  }
  const files = result.files;
  const outputs: Array<[string | undefined, () => Promise<void>]> = [
    [opts.out, () => writeDirectory(files, opts.out!, { force: opts.force })],
    [opts.zip, () => writeZipFile(files, opts.zip!, opts.force, result.model!.names.distribution)],
  ];
  for (const [path, write] of outputs) {
    if (path === undefined || opts.dryRun) continue;
    try {
      await write();
    } catch (e) {
      // The output cannot be written (exists, permissions, disk): a clear message, exit 2.
      if (e instanceof OutputExistsError) io.stderr.write(`envelope: ${e.message}\n`);
      else if (typeof (e as NodeJS.ErrnoException).code === "string") io.stderr.write(`envelope: ${writeFailure(path, e as NodeJS.ErrnoException)}\n`);
      else throw e;
      return EXIT.usage;
    }
  }
  const loss = result.loss ?? [];
  let published: GitHubOutcome | undefined;
  if (github && !opts.dryRun) {
    if (!opts.json) {
      if (opts.out || opts.zip) writeWritten(io, files, opts);
      io.stdout.write(lossSummary(loss) + "\n");
    }
    published = await publishWithProgress(files, github, io, exportCommitMessage(target.name), !opts.json);
  }
  if (opts.json) {
    const summary = {
      target: target.name,
      exported: true,
      dryRun: opts.dryRun,
      out: opts.out ?? null,
      zip: opts.zip ?? null,
      files: files.entries().map(([path, f]) => ({ path, size: f.bytes.length, mode: `0${f.mode.toString(8)}` })),
      totalBytes: files.totalBytes(),
      diagnostics: result.diagnostics.map(({ file: _file, ...d }) => d),
      loss: { counts: lossCounts(loss), entries: loss },
      ...(github ? { github: published ? githubJson(published, github.token) : { dryRun: true, repository: github.repository, private: github.private } } : {}),
    };
    io.stdout.write(JSON.stringify(summary, null, 2) + "\n");
  } else if (published) {
    // The URL is the last line: what a person (or a script with tail -1) wants.
    if (published.ok) io.stdout.write(publishedLine(published.result));
  } else {
    if (opts.dryRun) {
      io.stdout.write(`would write ${files.size} files (${files.totalBytes()} bytes)${opts.out ? ` to ${opts.out}` : ""}${opts.zip ? ` into ${opts.zip}` : ""}:\n`);
      for (const [path, f] of files.entries()) io.stdout.write(`  ${path}  ${f.bytes.length}${f.mode & 0o111 ? "  (executable)" : ""}\n`);
      if (github) io.stdout.write(dryRunLine(files, github));
    } else {
      writeWritten(io, files, opts);
    }
    io.stdout.write(lossSummary(loss) + "\n");
  }
  return published ? published.code : EXIT.ok;
}

function writeWritten(io: Io, files: FileSet, opts: ExportCliOptions): void {
  const where = [opts.out && `to ${opts.out}`, opts.zip && `into ${opts.zip}`].filter(Boolean).join(" and ");
  io.stdout.write(`wrote ${files.size} files (${files.totalBytes()} bytes) ${where}\n`);
}

/** The archive is streamed to a temporary file beside the target and renamed when complete. */
async function writeZipFile(files: FileSet, path: string, force: boolean, rootName: string): Promise<void> {
  const target = resolve(path);
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory()) throw new OutputExistsError(`${path} is a directory; --zip takes a file name`);
  if (existing && !force) throw new OutputExistsError(`${path} already exists; pass --force to replace it`);
  // Like --out, missing parent folders are created.
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${basename(target)}.envelope-${process.pid}`);
  // Opened before anything is written, so a path that cannot be created is an error here,
  // not an unhandled stream event later.
  const handle = await open(temp, "w");
  try {
    // The sink hands over small pieces (headers, names, data): written in 64 kB batches.
    let pending: Uint8Array[] = [];
    let size = 0;
    const flush = async () => {
      const batch = Buffer.concat(pending, size);
      pending = [];
      size = 0;
      for (let at = 0; at < batch.length; ) at += (await handle.write(batch, at)).bytesWritten;
    };
    await writeZip(files, async (chunk) => {
      pending.push(chunk);
      size += chunk.length;
      if (size >= 64 * 1024) await flush();
    }, `${rootName}/`);
    await flush();
    await handle.close();
    await rename(temp, target);
  } catch (e) {
    await handle.close().catch(() => {});
    await rm(temp, { force: true });
    throw e;
  }
}

// System errors while writing the output, in words, naming the user's path (never a temporary one).
const WRITE_ERRORS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is exceeded",
  ENOTDIR: "a part of the path is a file, not a folder",
  EEXIST: "a part of the path is a file, not a folder", // mkdir of a parent that is a file
  EISDIR: "it is a directory",
  ENAMETOOLONG: "the name is too long",
};

function writeFailure(path: string, e: NodeJS.ErrnoException): string {
  const why = WRITE_ERRORS[e.code ?? ""] ?? e.message;
  return `cannot write ${path}: ${why}`;
}
