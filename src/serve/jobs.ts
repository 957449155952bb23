// The CPU work behind the HTTP API, as plain functions of bytes: validate, export as a zip,
// export as a preview (JSON), export as files (for GitHub). They run in worker threads
// (pool.ts) or inline; either way the answer is plain data that crosses a thread boundary.
// The zip is made by the CLI's own sink with the CLI's own root folder, so the bytes are the
// same as `envelope export --zip` for the same input. Given a stream, a zip export announces
// its head (name, counts) and hands over the archive as the sink writes it, instead of
// answering with the bytes.
import type { ExplicitConnection } from "../connections/assign.js";
import { connectTeam, readUploadedConnections } from "../connections/connections.js";
import type { UploadedFile } from "../connections/pack-source.js";
import { isError, type Diagnostic } from "../diagnostics/diagnostic.js";
import { exportDefinition } from "../export/export.js";
import { modelFromDocument } from "../model/index.js";
import { lossCounts, type LossStatus } from "../export/loss-report.js";
import { writeZip } from "../export/sinks/zip.js";
import { TARGETS } from "../targets/index.js";
import { validate } from "../validate/validate.js";
import { answerLimit, capLoss, fitPreview, zipBound, type LossReport, type PreviewFile } from "./answer-bound.js";
import { teamDiagram } from "./diagram.js";
import { capDiagnostics, type ReportedDiagnostics } from "./diagnostic-cap.js";

export type { LossReport } from "./answer-bound.js";

export type ExportFormat = "zip" | "json" | "files";

/** Connection packs sent with the definition: the uploaded files, and `AGENT=PROVIDER`s. */
export interface JobConnections {
  files: UploadedFile[];
  explicit: ExplicitConnection[];
}

export type Job =
  | { kind: "validate"; body: Uint8Array; strict: boolean; connections?: JobConnections }
  | { kind: "export"; body: Uint8Array; target: string; strict: boolean; format: ExportFormat; connections?: JobConnections };

/**
 * Why a definition was refused: unreadable (not JSON, not UTF-8, empty), invalid, --strict
 * loss, its connection packs, or an answer that would exceed the bound (answer-bound.ts).
 */
export type Refusal = "malformed" | "invalid" | "lossy" | "connections" | "too-large";

export interface ValidateAnswer extends ReportedDiagnostics {
  kind: "validate";
  /** False when the body could not be read as a JSON object (the API answers 400). */
  readable: boolean;
  valid: boolean;
}

/** What an HTTP answer needs before the archive's first byte: its headers. */
export interface ZipHead extends ReportedDiagnostics {
  kind: "export";
  ok: true;
  format: "zip";
  fileName: string;
  lossCounts: Record<LossStatus, number>;
  files: number;
}

/** Where a streamed zip goes: `head` once, then `chunk`s in order, then the job's answer. */
export interface ZipStream {
  head(head: ZipHead): void;
  chunk(bytes: Uint8Array): void;
}

export type ExportAnswer =
  | ({ kind: "export"; ok: false; refusal: Refusal; loss?: LossReport; failure?: string; answerBytes?: number; limit?: number } & ReportedDiagnostics)
  /** `zip` is absent when the archive went to a ZipStream. */
  | (ZipHead & { zip?: Uint8Array })
  | ({ kind: "export"; ok: true; format: "json"; json: string } & ReportedDiagnostics)
  | ({ kind: "export"; ok: true; format: "files"; files: Array<{ path: string; bytes: Uint8Array; mode: number }>; name: string; lossCounts: Record<LossStatus, number> } & ReportedDiagnostics);

export type JobAnswer = ValidateAnswer | ExportAnswer;

/** The label diagnostics carry internally; it is removed before they leave the server. */
const LABEL = "request body";

/**
 * The diagnostics an answer carries: the definition's without the label, a pack's with its
 * uploaded file name, an explicit connection's as `connection` (the request's field); capped
 * (diagnostic-cap.ts).
 */
function reported(list: Diagnostic[], job: Job): ReportedDiagnostics {
  const named = list.map(({ file, ...d }) => (file === undefined || file === LABEL ? d : { ...d, file: file === "--connection" ? "connection" : file }));
  return capDiagnostics(named, requestBytes(job));
}

/** The request's size, as the answer bounds count it: the definition and the uploaded packs. */
function requestBytes(job: Job): number {
  return job.body.length + (job.connections?.files.reduce((n, f) => n + f.bytes.length, 0) ?? 0);
}

/** Whether any error is not the definition's own (a pack's, or an explicit connection's). */
function connectionErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => isError(d) && d.file !== undefined && d.file !== LABEL);
}

/** A file name for the archive that any file system and any header accepts. */
export function zipFileName(distribution: string, target: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+|[.-]+$/g, "").slice(0, 80);
  return `${safe(distribution) || "envelope-team"}-${safe(target) || "export"}.zip`;
}

export async function runJob(job: Job, stream?: ZipStream): Promise<JobAnswer> {
  // Packs are read first, as the CLI does; their diagnostics and the definition's are answered together.
  const packs = job.connections && readUploadedConnections(job.connections.files);
  if (job.kind === "validate") {
    const result = validate(job.body, { strict: job.strict, file: LABEL });
    const list = [...result.diagnostics, ...(packs?.diagnostics ?? [])];
    if (packs && job.connections && result.valid && result.document && !packs.diagnostics.some(isError)) list.push(...connectTeam(modelFromDocument(result.document), packs.read, job.connections.explicit).diagnostics);
    return { kind: "validate", readable: result.document !== undefined, valid: result.valid && !connectionErrors(list), ...reported(list, job) };
  }
  const target = Object.hasOwn(TARGETS, job.target) ? TARGETS[job.target] : undefined;
  if (!target) throw new Error(`unknown target ${job.target}`); // the API checks targets before queueing
  if (packs?.diagnostics.some(isError)) {
    const definition = validate(job.body, { strict: job.strict, file: LABEL, forExport: true });
    return { kind: "export", ok: false, refusal: definition.document ? "connections" : "malformed", ...reported([...definition.diagnostics, ...packs.diagnostics], job) };
  }
  const connections = packs && job.connections ? { connections: { read: packs.read, explicit: job.connections.explicit } } : {};
  const result = exportDefinition(job.body, target, { strict: job.strict, file: LABEL, ...connections });
  // A pack's warnings (its errors were answered above) go with the export's own.
  const diagnostics = reported([...result.diagnostics, ...(packs?.diagnostics ?? [])], job);
  const loss = result.loss && capLoss(lossCounts(result.loss), result.loss, requestBytes(job));
  if (!result.ok || !result.files || !result.model) {
    const refusal: Refusal = result.failure !== undefined ? "lossy" : !result.readable ? "malformed" : connectionErrors(result.diagnostics) ? "connections" : "invalid";
    return { kind: "export", ok: false, refusal, ...diagnostics, ...(loss ? { loss } : {}), ...(result.failure ? { failure: result.failure } : {}) };
  }
  const files = result.files;
  const model = result.model;
  const limit = answerLimit(requestBytes(job));
  const tooLarge = (answerBytes: number): ExportAnswer => ({ kind: "export", ok: false, refusal: "too-large", ...diagnostics, answerBytes, limit });
  if (job.format === "zip") {
    const head: ZipHead = { kind: "export", ok: true, format: "zip", fileName: zipFileName(model.names.distribution, target.name), ...diagnostics, lossCounts: loss!.counts, files: files.size };
    // Exactly what `envelope export --zip` writes: the same sink, the same root folder.
    const root = `${model.names.distribution}/`;
    // One that could exceed the bound (its files' raw size is over it: deflate never grows
    // an entry) is measured first, holding nothing, and refused whole when over; the pass
    // that streams then reuses most compressed pieces (zip.ts keeps them).
    if (zipBound(files, root) > limit) {
      let size = 0;
      await writeZip(files, (chunk) => void (size += chunk.length), root);
      if (size > limit) return tooLarge(size);
    }
    if (stream) {
      stream.head(head);
      await writeZip(files, (chunk) => stream.chunk(chunk), root);
      return head;
    }
    const chunks: Uint8Array[] = [];
    await writeZip(files, (chunk) => void chunks.push(chunk), root);
    return { ...head, zip: Buffer.concat(chunks) };
  }
  if (job.format === "files") {
    return { kind: "export", ok: true, format: "files", files: files.entries().map(([path, f]) => ({ path, bytes: f.bytes, mode: f.mode })), ...diagnostics, name: model.names.distribution, lossCounts: loss!.counts };
  }
  const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const preview: { files: PreviewFile[]; contentOmitted?: number } & Record<string, unknown> = {
    target: target.name,
    title: target.title,
    name: model.names.distribution,
    zipName: zipFileName(model.names.distribution, target.name),
    team: { name: model.team.name, slug: model.team.slug, version: model.team.version, description: model.team.description, mode: model.execution.mode, agents: model.agents.length },
    ...diagnostics,
    files: files.entries().map(([path, f]): PreviewFile => {
      let content: string;
      let encoding: PreviewFile["encoding"] = "utf-8";
      try {
        content = utf8.decode(f.bytes);
      } catch {
        content = Buffer.from(f.bytes).toString("base64");
        encoding = "base64";
      }
      return { path, size: f.bytes.length, mode: `0${f.mode.toString(8)}`, executable: (f.mode & 0o111) !== 0, encoding, content };
    }),
    totalBytes: files.totalBytes(),
    loss,
    diagram: teamDiagram(model),
  };
  const json = fitPreview(preview, limit);
  if (json === undefined) return tooLarge(Buffer.byteLength(JSON.stringify(preview)));
  return { kind: "export", ok: true, format: "json", json, ...diagnostics };
}
