// `envelope export FILE --target T (--out DIR | --zip FILE | --dry-run | --github OWNER/NAME) [--force] [--strict] [--json]`
import { fstatSync, readFileSync, statSync } from "node:fs";
import { getSystemErrorMap } from "node:util";
import { parseConnectionFlag, type ExplicitConnection } from "../connections/assign.js";
import { readConnections, type ReadConnections } from "../connections/connections.js";
import { isError, type Diagnostic } from "../diagnostics/diagnostic.js";
import { exportDefinition } from "../export/export.js";
import type { RuntimeChoice } from "../export/target.js";
import type { FileSet } from "../export/file-set.js";
import { lossCounts, lossSummary, type LossEntry } from "../export/loss-report.js";
import { RecordError } from "../export/ledger.js";
import { OutputExistsError, writeDirectory } from "../export/sinks/directory.js";
import { writeZipFile } from "./zip-lazy.js";
import { readDefinitionBytes, SourceReadError } from "../read/source.js";
import { TARGETS, targetNames } from "../targets/index.js";
import { formatText } from "./format-diagnostics.js";
import { dryRunLine, exportCommitMessage, githubJson, planRepositoryUpdate, prepareGitHub, publishedLine, publishOrUpdate, updateJson, updateText, type GitHubFlags, type GitHubOutcome, type GitHubRequest, type UpdateOutcome } from "./github-lazy.js";
import { EXIT, UsageError, type Io } from "./main.js";
import { styleFor } from "./style.js";
import { InterruptedError, readRecord, RollbackError, updateProject } from "./update-lazy.js";
import { counts, planJson, planText } from "./update-report.js";

export interface ExportCliOptions {
  target?: string;
  out?: string;
  zip?: string;
  dryRun: boolean;
  force: boolean;
  /** --plan: the update of an earlier export in --out, printed, not written. */
  plan?: boolean;
  /** --check: like --plan, exit 3 when the update would change anything. */
  check?: boolean;
  strict: boolean;
  json: boolean;
  /** --github OWNER/NAME and its options: also publish the project as a new repository, or as a pull request to the repository an earlier export made. */
  github?: GitHubFlags | undefined;
  /** --connections PATH (repeatable): connection packs, files or folders. */
  connections?: string[];
  /** --connection AGENT_KEY=PROVIDER_ID (repeatable). */
  connection?: string[];
  /** --runtime vendored|index and --runtime-index URL: where the runtime library comes from. */
  runtime?: string | undefined;
  runtimeIndex?: string | undefined;
}

export async function runExport(file: string, opts: ExportCliOptions, io: Io): Promise<number> {
  if (!opts.target) throw new UsageError(`export needs --target (${targetNames().join(" or ")})`);
  const target = Object.hasOwn(TARGETS, opts.target) ? TARGETS[opts.target] : undefined;
  if (!target) throw new UsageError(`unknown target "${opts.target}"; available: ${targetNames().join(", ")}`);
  if (!opts.out && !opts.zip && !opts.dryRun && !opts.github) throw new UsageError("export needs --out DIR, --zip FILE, --dry-run or --github OWNER/NAME");
  if ((opts.plan || opts.check) && (!opts.out || opts.force || opts.dryRun)) throw new UsageError(`--${opts.plan ? "plan" : "check"} goes with --out DIR (an earlier export to update), without --force or --dry-run`);
  if (opts.plan && opts.check) throw new UsageError("--plan and --check go alone: --check already plans");
  const explicit: ExplicitConnection[] = (opts.connection ?? []).map((flag) => {
    const parsed = parseConnectionFlag(flag);
    if (!parsed) throw new UsageError(`--connection takes AGENT_KEY=PROVIDER_ID, not "${flag}"`);
    return parsed;
  });
  if (explicit.length && !opts.connections?.length) throw new UsageError("--connection goes with --connections PATH (the packs it names)");
  const runtime = runtimeChoice(opts.runtime, opts.runtimeIndex, target.name);
  const zipToStdout = opts.zip !== undefined && isStandardOutput(opts.zip, io);
  if (zipToStdout) {
    // Standard output is then the archive and nothing else.
    if (opts.json) throw new UsageError("--zip - writes the archive to standard output, so --json cannot go there too; give --zip a file name");
    if (io.stdout.isTTY && !opts.dryRun) throw new UsageError("--zip - would write the archive to the terminal; redirect standard output (> project.zip) or pipe it");
  }
  // Human text goes to stdout, except when stdout carries the archive (--zip -).
  const text = zipToStdout ? io.stderr : io.stdout;
  // Flags and token are checked before any work, so a typo or a missing token costs nothing.
  const github: GitHubRequest | undefined = opts.github && (await prepareGitHub(opts.github, io, { stdinTaken: file === "-", needToken: opts.dryRun ? "if-at-hand" : true }));
  let bytes: Uint8Array;
  try {
    bytes = await readDefinitionBytes(file);
  } catch (e) {
    if (!(e instanceof SourceReadError)) throw e;
    io.stderr.write(`envelope: ${e.message}\n`);
    return EXIT.usage;
  }
  const label = file === "-" ? "<stdin>" : file;
  // Connection packs are read first: a pack that carries a secret refuses the export, nothing written.
  let packs: { read: ReadConnections; diagnostics: Diagnostic[] } | undefined;
  if (opts.connections?.length) {
    packs = readConnections(opts.connections);
    if (packs.diagnostics.some(isError)) {
      io.stderr.write(formatText(packDiagnosticFiles(packs.diagnostics), styleFor(io.stderr, io.env)));
      if (opts.json) io.stdout.write(JSON.stringify({ target: target.name, exported: false, reason: "invalid", diagnostics: packs.diagnostics, loss: null }, null, 2) + "\n");
      return EXIT.invalid;
    }
  }
  const exported = exportDefinition(bytes, target, { strict: opts.strict, file: label, ...(packs ? { connections: { read: packs.read, explicit } } : {}), runtime });
  // A pack's warnings (its errors refused the export above) are said with the export's own.
  const result = packs?.diagnostics.length ? { ...exported, diagnostics: [...exported.diagnostics, ...packs.diagnostics] } : exported;
  if (result.diagnostics.length) {
    const text = new TextDecoder().decode(bytes);
    const own = result.diagnostics.filter((d) => d.file === undefined || d.file === label);
    const others = result.diagnostics.filter((d) => !own.includes(d));
    if (own.length) io.stderr.write(formatText([{ file: label, valid: result.ok || result.failure !== undefined, diagnostics: own, text }], styleFor(io.stderr, io.env)));
    if (others.length) io.stderr.write(formatText(packDiagnosticFiles(others), styleFor(io.stderr, io.env)));
  }
  if (!result.ok || !result.files) {
    // What --strict refuses comes first; the loss report after it says the rest.
    if (result.failure) io.stderr.write(`envelope: --strict: ${result.failure}\n`);
    if (result.loss) io.stderr.write(lossSummary(result.loss) + "\n");
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
  // --out on an earlier export (its .envelope/ record): an update that keeps the developer's edits.
  if (opts.out && !opts.force) {
    let record;
    try {
      record = await readRecord(opts.out);
    } catch (e) {
      if (!(e instanceof RecordError)) throw e;
      io.stderr.write(`envelope: ${opts.out}: ${e.message}\n`);
      return EXIT.usage;
    }
    if (record) {
      // An update says what it did file by file; a zip or a repository of the same export is a command of its own.
      if (github) throw new UsageError(`${opts.out} holds an earlier export, which --out updates; update the repository (--github) in a separate export`);
      if (opts.zip !== undefined) throw new UsageError(`${opts.out} holds an earlier export, which --out updates; run --zip as a command of its own`);
      return runUpdate(opts.out, files, record.ledger.target, target.name, opts, io, result.loss ?? []);
    }
    if (opts.plan || opts.check) throw new UsageError(`${opts.out} holds no earlier export (.envelope/export.json) to ${opts.plan ? "plan" : "check"} an update of`);
  }
  const outputs: Array<[string | undefined, () => Promise<void>]> = [
    [opts.out, () => writeDirectory(files, opts.out!, { force: opts.force })],
    // Our own standard output is written as a stream: a socket cannot be opened by name.
    [opts.zip, () => writeZipFile(files, zipToStdout ? "-" : opts.zip!, { force: opts.force, rootName: result.model!.names.distribution, stdout: io.stdout })],
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
  // A repository an earlier export made is updated by a pull request; one that is not ours stays a taken name (exit 20).
  let updated: UpdateOutcome | undefined;
  if (github && !opts.dryRun) {
    if (!opts.json) {
      if (opts.out || opts.zip) writeWritten(text, files, opts);
      text.write(lossSummary(loss) + "\n");
    }
    ({ published, updated } = await publishOrUpdate(files, github, io, exportCommitMessage(target.name), !opts.json));
  } else if (github && github.token) {
    updated = await planRepositoryUpdate(files, github, io, !opts.json);
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
      ...(github ? { github: githubMember(github, published, updated) } : {}),
    };
    io.stdout.write(JSON.stringify(summary, null, 2) + "\n");
  } else if (updated?.ok && !opts.dryRun) {
    // The pull request's URL is the last line.
    text.write(updateText(updated.result));
  } else if (published) {
    // The URL is the last line: what a person (or a script with tail -1) wants.
    if (published.ok) text.write(publishedLine(published.result));
  } else {
    if (opts.dryRun) {
      // One answer per destination: files to write for --out/--zip (or none given), the
      // update's plan for a repository an earlier export made, else the files to publish.
      const list = () => {
        for (const [path, f] of files.entries()) text.write(`  ${path}  ${f.bytes.length}${f.mode & 0o111 ? "  (executable)" : ""}\n`);
      };
      if (!github || opts.out || opts.zip) {
        text.write(`would write ${files.size} files (${files.totalBytes()} bytes)${opts.out ? ` to ${opts.out}` : ""}${opts.zip ? (opts.zip === "-" ? " to standard output" : ` into ${opts.zip}`) : ""}:\n`);
        list();
      }
      if (updated?.ok) text.write(updateText(updated.result));
      else if (github && !updated) {
        text.write(dryRunLine(files, github).replace(/\n$/, opts.out || opts.zip ? "\n" : ":\n"));
        if (!opts.out && !opts.zip) list();
      }
      if (github && !github.token) io.stderr.write(`github: no token at hand, so whether ${github.repository} holds an earlier export to update was not looked at\n`);
    } else {
      writeWritten(text, files, opts);
    }
    text.write(lossSummary(loss) + "\n");
  }
  return updated ? updated.code : published ? published.code : EXIT.ok;
}

/** Diagnostics of packs (and of --connection), grouped by the file they name, for formatText. */
function packDiagnosticFiles(diagnostics: readonly Diagnostic[]): Parameters<typeof formatText>[0] {
  const files = [...new Set(diagnostics.map((d) => d.file ?? "--connections"))];
  return files.map((file) => {
    const own = diagnostics.filter((d) => (d.file ?? "--connections") === file);
    let text: string | undefined;
    try {
      // No excerpt of a pack that carries credential material: the line would quote its value.
      if (file !== "--connection" && !own.some((d) => d.code === "E_PACK_CREDENTIAL")) text = readFileSync(file, "utf8");
    } catch {
      // Unreadable: its diagnostic says so, without an excerpt.
    }
    return { file, valid: !own.some(isError), diagnostics: own, ...(text !== undefined ? { text } : {}) };
  });
}

/** The `github` member of --json: the publish, the update (pull request), or what a dry run would do. */
function githubMember(github: GitHubRequest, published: GitHubOutcome | undefined, updated: UpdateOutcome | undefined): unknown {
  if (updated) return updated.ok ? updateJson(updated.result, github) : githubJson(updated, github);
  if (published) return githubJson(published, github);
  return { dryRun: true, repository: github.repository, private: github.private };
}

async function runUpdate(dir: string, files: FileSet, was: string, now: string, opts: ExportCliOptions, io: Io, lossEntries: LossEntry[]): Promise<number> {
  if (was !== now) throw new UsageError(`${dir} was exported for ${was}; updating it to ${now} would replace every file: choose another --out, or --force to replace it whole`);
  // --dry-run of an update is its plan.
  const planOnly = opts.plan === true || opts.check === true || opts.dryRun;
  let outcome;
  try {
    outcome = await updateProject(dir, files, { planOnly });
  } catch (e) {
    if (e instanceof RollbackError) {
      io.stderr.write(`envelope: ${(e as Error).message}\n`);
      return EXIT.usage;
    }
    if (e instanceof InterruptedError) {
      io.stderr.write(`envelope: interrupted: ${dir} is as it was before the update\n`);
      return EXIT.interrupted;
    }
    if (e instanceof RecordError) {
      io.stderr.write(`envelope: ${dir}: ${e.message}\n`);
      return EXIT.usage;
    }
    if (typeof (e as NodeJS.ErrnoException).code === "string") {
      io.stderr.write(`envelope: ${writeFailure(dir, e as NodeJS.ErrnoException)}; ${dir} is as it was before the update\n`);
      return EXIT.usage;
    }
    throw e;
  }
  const { plan, record, recovered, left } = outcome;
  if (recovered) io.stderr.write(`envelope: rolled back an interrupted earlier update of ${dir} first\n`);
  for (const name of left) io.stderr.write(`envelope: ${dir}/${name} was not left by an update on this machine (or could not be rolled back): left as it is; remove it if you know it is stale\n`);
  const c = counts(plan);
  const changed = plan.some((e) => !e.record && (e.write !== undefined || e.action === "remove"));
  if (opts.json) {
    io.stdout.write(JSON.stringify({ target: now, exported: true, out: dir, update: planJson(plan, record.ledger, !planOnly), loss: { counts: lossCounts(lossEntries), entries: lossEntries } }, null, 2) + "\n");
  } else {
    io.stdout.write(planText(dir, plan, record.ledger, planOnly ? "plan" : "applied"));
    io.stdout.write(lossSummary(lossEntries) + "\n");
  }
  if (opts.check) return changed || plan.some((e) => e.record && e.write) ? EXIT.outOfStep : EXIT.ok;
  return !planOnly && c.conflict ? EXIT.conflicts : EXIT.ok;
}

function writeWritten(text: NodeJS.WritableStream, files: FileSet, opts: ExportCliOptions): void {
  const where = [opts.out && `to ${opts.out}`, opts.zip && (opts.zip === "-" ? "to standard output" : `into ${opts.zip}`)].filter(Boolean).join(" and ");
  text.write(`wrote ${files.size} files (${files.totalBytes()} bytes) ${where}\n`);
}

/** `-`, or a name for this process's own standard output (`/dev/stdout`, `/dev/fd/1`). */
function isStandardOutput(path: string, io: Io): boolean {
  if (path === "-") return true;
  if (io.stdout !== process.stdout) return false;
  try {
    const [named, own] = [statSync(path), fstatSync(1)];
    return !named.isFile() && named.dev === own.dev && named.ino === own.ino;
  } catch {
    return false;
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
  ELOOP: "too many symbolic links on the way, or it became one", // a loop, or O_NOFOLLOW on a FIFO or device replaced meanwhile
  // Its folder exists (missing ones are made) but takes no new entry: /proc, /sys, or removed meanwhile.
  ENOENT: "its folder does not take new files (or was removed meanwhile)",
};

function writeFailure(path: string, e: NodeJS.ErrnoException): string {
  // Any other code in the system's words: e.message names the temporary file beside the path.
  const why = WRITE_ERRORS[e.code ?? ""] ?? (e.errno !== undefined ? getSystemErrorMap().get(e.errno)?.[1] : undefined) ?? e.code;
  return `cannot write ${path}: ${why}`;
}

/**
 * --runtime and --runtime-index, checked: an index is an http(s) URL without credentials (it is
 * written into the project: pyproject.toml for the Python targets; .npmrc and package-lock.json's
 * `resolved` URLs for langgraph-js).
 */
export function runtimeChoice(mode: string | undefined, indexUrl: string | undefined, target?: string): RuntimeChoice {
  if (mode !== undefined && mode !== "vendored" && mode !== "index") throw new UsageError(`--runtime takes vendored or index, not "${mode}"`);
  if (indexUrl === undefined) return { mode: mode ?? "vendored" };
  if (mode !== "index") throw new UsageError("--runtime-index URL goes with --runtime index");
  let url: URL;
  try {
    url = new URL(indexUrl);
  } catch {
    throw new UsageError(`--runtime-index takes an http(s) URL, not "${indexUrl}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UsageError(`--runtime-index takes an http(s) URL, not "${indexUrl}"`);
  if (url.username || url.password) {
    const where =
      target === "langgraph-js"
        ? `the URL is written into .npmrc and package-lock.json (npm reads a registry's token from your own ~/.npmrc: //${url.host}${url.pathname.replace(/\/?$/, "/")}:_authToken=…)`
        : "the URL is written into pyproject.toml (uv reads them from UV_INDEX_ENVELOPE_RUNTIME_USERNAME/_PASSWORD)";
    throw new UsageError(`--runtime-index must not carry credentials: ${where}`);
  }
  return { mode: "index", indexUrl: url.href };
}
