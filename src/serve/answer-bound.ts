// Every answer's size is bounded by its request's: at most ANSWER_MULTIPLE times the request
// plus ANSWER_ALLOWANCE (a 1 MiB definition: at most 5 MiB back). A definition's text can
// come back several times over (its copy in the project, its prompts in YAML, the pristine
// record of both, each escaped again in a JSON preview: a 1 MiB prompt of DEL characters
// once made a 25 MB preview), and a small one expands into the whole project (the
// allowance). So each answer is fitted, or refused, by construction:
// - the loss report lists entries within a byte budget (what Strict refuses first), with
//   `entriesOmitted`; its counts count them all;
// - the JSON preview leaves out file contents, largest first (uv.lock and the pristine
//   record are the largest), each marked `encoding: "omitted"`, with `contentOmitted`;
// - the zip is the CLI's byte for byte, so it cannot be cut: one that could exceed the bound
//   is built in memory first and refused (422 export-too-large) if it does.
// Diagnostics are capped apart (diagnostic-cap.ts), within the same bound.
import type { FileSet } from "../export/file-set.js";
import type { LossEntry, LossStatus } from "../export/loss-report.js";

export const ANSWER_MULTIPLE = 3;
// 2 MiB: a Python team's zip is mostly its fixed part, whatever the definition holds (the
// vendored runtime library twice, as files and in the pristine record, and uv.lock once):
// 0.76 MiB at most for the fixtures on 2026-12-07 (it passed 1 MiB while the pristine record
// held a second uv.lock), so 1 MiB would leave the library little room to grow.
export const ANSWER_ALLOWANCE = 2 * 1024 * 1024;
/** Bytes of loss entries an answer may carry beyond the size of the request itself. */
export const LOSS_BYTES = 64 * 1024;

/** The most an answer to a request of this many bytes may hold. */
export const answerLimit = (requestBytes: number): number => ANSWER_MULTIPLE * requestBytes + ANSWER_ALLOWANCE;

export interface LossReport {
  counts: Record<LossStatus, number>;
  entries: LossEntry[];
  /** How many entries are not listed; absent when none is left out. */
  entriesOmitted?: number;
}

/**
 * The loss report with its entries kept within LOSS_BYTES plus the request's size: what a
 * strict export refuses first (not fully carried, not registry data), then the rest not
 * fully carried, then what is carried; listed in their own order.
 */
export function capLoss(counts: Record<LossStatus, number>, entries: readonly LossEntry[], requestBytes: number): LossReport {
  const rank = (e: LossEntry) => (e.status === "carried" ? 2 : e.registryOnly ? 1 : 0);
  const budget = LOSS_BYTES + requestBytes;
  const kept = new Set<LossEntry>();
  let bytes = 0;
  for (const e of [...entries].sort((a, b) => rank(a) - rank(b))) {
    const size = Buffer.byteLength(JSON.stringify(e)) + 1;
    if (bytes + size > budget) break;
    kept.add(e);
    bytes += size;
  }
  const listed = entries.filter((e) => kept.has(e));
  return listed.length < entries.length ? { counts, entries: listed, entriesOmitted: entries.length - listed.length } : { counts, entries: listed };
}

/** A preview's file: its content, or none when the preview left it out to stay within the bound. */
export interface PreviewFile {
  path: string;
  size: number;
  mode: string;
  executable: boolean;
  encoding: "utf-8" | "base64" | "omitted";
  content: string;
}

/**
 * The preview as JSON within `limit`: file contents left out, largest first (ties in path
 * order), until it fits; undefined when even without any content it would not.
 */
export function fitPreview(preview: { files: PreviewFile[]; contentOmitted?: number }, limit: number): string | undefined {
  let json = JSON.stringify(preview);
  if (Buffer.byteLength(json) <= limit) return json;
  const bySize = preview.files
    .map((f, i) => ({ i, size: Buffer.byteLength(JSON.stringify(f.content)) }))
    .sort((a, b) => b.size - a.size || (preview.files[a.i]!.path < preview.files[b.i]!.path ? -1 : 1));
  let over = Buffer.byteLength(json) - limit;
  let omitted = 0;
  for (const { i, size } of bySize) {
    if (over <= 0) break;
    preview.files[i] = { ...preview.files[i]!, encoding: "omitted", content: "" };
    over -= size - 2;
    omitted++;
  }
  preview.contentOmitted = omitted;
  json = JSON.stringify(preview);
  // The estimate leaves out a few bytes per file (the encoding's name, the count): checked whole.
  for (const { i } of bySize) {
    if (Buffer.byteLength(json) <= limit) return json;
    if (preview.files[i]!.encoding === "omitted") continue;
    preview.files[i] = { ...preview.files[i]!, encoding: "omitted", content: "" };
    preview.contentOmitted = ++omitted;
    json = JSON.stringify(preview);
  }
  return Buffer.byteLength(json) <= limit ? json : undefined;
}

/** The most bytes writeZip can write for these files under `prefix` (an entry is stored when deflate would not shrink it). */
export function zipBound(files: FileSet, prefix: string): number {
  let bytes = 22; // end of central directory
  for (const [path, entry] of files.entries()) bytes += entry.bytes.length + 30 + 46 + 2 * Buffer.byteLength(prefix + path);
  return bytes;
}
