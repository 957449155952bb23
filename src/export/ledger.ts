// What an export records inside the project it writes, so a later export can update the
// project in place without losing the developer's edits:
//   .envelope/export.json    the ledger: tool version, target, the definition's hash, and
//                            each written path with the hash of its content (for people,
//                            `--check`, and deciding which files the developer changed);
//   .envelope/pristine.json  the files exactly as written: the base of the three-way merge,
//                            kept so an update merges against what was really exported even
//                            when the tool's templates have changed since. A lock file is
//                            kept by its hash alone: an update compares it but never merges
//                            it (plan.ts), and uv.lock is most of a Python export's bytes.
// Plain JSON (no compression): byte-identical for the same input on every machine, and
// readable in a pull request.
import { VERSION } from "../version.js";
import { FileSet, sha256 } from "./file-set.js";

export { sha256 };

export const RECORD_DIR = ".envelope/";
export const LEDGER_PATH = ".envelope/export.json";
export const PRISTINE_PATH = ".envelope/pristine.json";

export interface Ledger {
  generator: string;
  version: string;
  target: string;
  /** sha256 of the definition's bytes. */
  definition: string;
  /** Path → sha256 of the content written there. */
  files: Record<string, string>;
}

interface PristineFile {
  mode: string;
  text?: string;
  base64?: string;
  sha256?: string;
}

/** Format 2 adds `sha256` members (a lock file by its hash); format 1 records still read. */
const PRISTINE_FORMAT = 2;

/** The export's files plus its ledger and pristine copy. */
export function withRecord(files: FileSet, target: string, definition: Uint8Array): FileSet {
  const entries = files.entries();
  const ledger: Ledger & { about: string } = {
    about: "Written by envelope-export: what the last export of this project wrote. `envelope export DEFINITION --target TARGET --out DIR` updates the project from it and keeps your edits. Keep this folder in version control; do not edit it.",
    generator: "envelope-export",
    version: VERSION,
    target,
    definition: sha256(definition),
    // No prototype: a path named __proto__ is a key like any other (no target writes one).
    files: Object.create(null) as Record<string, string>,
  };
  // pristine.json is written as JSON.stringify({ format, files }, null, 1) would write it,
  // in pieces: a verbatim file's content piece is the same array in every export (the zip
  // sink keeps its compressed form), and everything between them is one fresh piece.
  const pieces: Uint8Array[] = [];
  let fresh = `{\n "format": ${PRISTINE_FORMAT},\n "files": {`;
  let first = true;
  for (const [path, f] of entries) {
    if (path.startsWith(RECORD_DIR)) throw new Error(`a target wrote into ${RECORD_DIR}: ${path}`);
    const content = f.verbatim ? verbatimContent(f.bytes) : f.relock !== undefined ? hashOnly(f.bytes) : contentOf(f.bytes);
    ledger.files[path] = content.hash;
    fresh += `${first ? "" : ","}\n  ${asciiSafe(JSON.stringify(path))}: {\n   "mode": "0${f.mode.toString(8)}",\n   `;
    first = false;
    if (typeof content.piece === "string") {
      fresh += content.piece;
    } else {
      pieces.push(encoder.encode(fresh), content.piece);
      fresh = "";
    }
    fresh += "\n  }";
  }
  fresh += `${first ? "" : "\n "}}\n}\n`;
  pieces.push(encoder.encode(fresh));
  const out = new FileSet();
  for (const [path, f] of entries) out.copy(path, f);
  out.add(LEDGER_PATH, `${asciiSafe(JSON.stringify(ledger, null, 2))}\n`);
  out.addPieces(PRISTINE_PATH, pieces);
  return out;
}

const encoder = new TextEncoder();
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A file's hash and its `"text": …` (or `"base64": …`) member of pristine.json. */
interface Content<Piece> {
  hash: string;
  piece: Piece;
}

function contentOf(bytes: Uint8Array): Content<string> {
  let member: string;
  try {
    member = `"text": ${asciiSafe(JSON.stringify(utf8.decode(bytes)))}`;
  } catch {
    member = `"base64": ${JSON.stringify(Buffer.from(bytes).toString("base64"))}`;
  }
  return { hash: sha256(bytes), piece: member };
}

function hashOnly(bytes: Uint8Array): Content<string> {
  const hash = sha256(bytes);
  return { hash, piece: `"sha256": ${JSON.stringify(hash)}` };
}

// A target's static files are the same arrays in every export (template-dir.ts reads them
// once): their hash and pristine member are made once per process, not once per export.
const verbatimContents = new WeakMap<Uint8Array, Content<Uint8Array>>();
function verbatimContent(bytes: Uint8Array): Content<Uint8Array> {
  let known = verbatimContents.get(bytes);
  if (!known) {
    const { hash, piece } = contentOf(bytes);
    known = { hash, piece: encoder.encode(piece) };
    verbatimContents.set(bytes, known);
  }
  return known;
}

/**
 * JSON text with the invisible characters that can reorder or hide text in an editor or a
 * diff (bidi controls, C1 controls, line separators) written as \u escapes: a prompt may hold
 * them, and this copy of it must not smuggle them into the project's other files.
 */
function asciiSafe(json: string): string {
  return json.replace(/[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export class RecordError extends Error {}

/** The ledger of a project, checked enough to trust its fields. */
export function parseLedger(text: string): Ledger {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new RecordError(`${LEDGER_PATH} is not JSON (${(e as Error).message})`);
  }
  const v = value as Partial<Ledger>;
  if (!v || typeof v !== "object" || v.generator !== "envelope-export" || typeof v.target !== "string" || typeof v.files !== "object" || v.files === null) {
    throw new RecordError(`${LEDGER_PATH} is not an envelope-export ledger`);
  }
  return v as Ledger;
}

/** The files of the last export, as they were written. */
export function parsePristine(text: string): FileSet {
  let value: { format?: unknown; files?: Record<string, PristineFile> };
  try {
    value = JSON.parse(text) as typeof value;
  } catch (e) {
    throw new RecordError(`${PRISTINE_PATH} is not JSON (${(e as Error).message})`);
  }
  if ((value?.format !== 1 && value?.format !== PRISTINE_FORMAT) || typeof value.files !== "object" || value.files === null) throw new RecordError(`${PRISTINE_PATH} is not a pristine copy this version reads`);
  const files = new FileSet();
  for (const [path, f] of Object.entries(value.files)) {
    // The record is read from the project, which anyone may have edited: a path it names must be a safe one of the export's.
    if (path.startsWith(RECORD_DIR) || typeof f !== "object" || f === null) throw new RecordError(`${PRISTINE_PATH} lists ${JSON.stringify(path.slice(0, 80))}, which no export writes`);
    const mode = Number.parseInt(f.mode, 8) & 0o111 ? 0o755 : 0o644;
    if (f.sha256 !== undefined && !(typeof f.sha256 === "string" && /^sha256:[0-9a-f]{64}$/.test(f.sha256))) throw new RecordError(`${PRISTINE_PATH}: ${JSON.stringify(path.slice(0, 80))} has a sha256 that is not one`);
    const bytes = typeof f.text === "string" ? new TextEncoder().encode(f.text) : Buffer.from(f.base64 ?? "", "base64");
    try {
      if (f.sha256 !== undefined) files.addDigest(path, f.sha256, mode);
      else files.add(path, bytes, mode);
    } catch (e) {
      throw new RecordError(`${PRISTINE_PATH}: ${(e as Error).message}`);
    }
  }
  return files;
}
