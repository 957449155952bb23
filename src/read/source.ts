// Bytes in → a parsed JSON document with positions, or diagnostics that say exactly why not.
import { open, stat } from "node:fs/promises";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { makeDiagnostic } from "../diagnostics/make.js";
import { JsonSyntaxError, parseJsonWithPositions, type Located, type ParsedJson } from "./json-with-positions.js";
import { parsePointer } from "./json-pointer.js";

/** Definitions are a few kB; 5 MB leaves room for a 1000-agent team and stops accidents. */
export const MAX_DEFINITION_BYTES = 5 * 1024 * 1024;

export interface SourceDocument {
  /** A path, or "<stdin>", or a caller-chosen label. */
  file: string;
  text: string;
  parsed: ParsedJson;
}

export interface ReadResult {
  document?: SourceDocument;
  diagnostics: Diagnostic[];
}

/** Thrown for problems with the path itself (missing file, a directory): a usage/I-O failure. */
export class SourceReadError extends Error {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = "SourceReadError";
  }
}

export async function readDefinitionFile(path: string): Promise<ReadResult> {
  return parseDefinitionBytes(await readDefinitionBytes(path), path === "-" ? "<stdin>" : path);
}

/**
 * The raw bytes of a definition file or of stdin ("-"), never more than one byte over the
 * size bound (enough for parseDefinitionBytes to report it). Throws SourceReadError when the
 * path cannot be read at all.
 */
export async function readDefinitionBytes(path: string): Promise<Uint8Array> {
  if (path === "-") return readStdin();
  let handle;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new SourceReadError(`${path} is a directory, not a definition file`, path);
    handle = await open(path, "r");
    const buf = Buffer.alloc(Math.min(info.size, MAX_DEFINITION_BYTES + 1));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } catch (e) {
    if (e instanceof SourceReadError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new SourceReadError(`cannot read ${path}: ${code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (e as Error).message}`, path);
  } finally {
    await handle?.close();
  }
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    const buf = chunk as Buffer;
    total += buf.length;
    // Keep one byte over the bound so the size check still fires, without buffering more.
    if (total > MAX_DEFINITION_BYTES) {
      chunks.push(buf.subarray(0, MAX_DEFINITION_BYTES + 1 - (total - buf.length)));
      break;
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function tooLarge(file: string): Diagnostic {
  return makeDiagnostic("E_FILE_TOO_LARGE", "", { line: 0, column: 0 }, `the file is over the ${MAX_DEFINITION_BYTES / 1024 / 1024} MB limit; a team definition is expected to be a few kilobytes`, {
    file,
    hint: "check that this is an .envelope.json team definition and not a data export",
  });
}

/** Parses bytes that claim to be a definition. Never throws. */
export function parseDefinitionBytes(bytes: Uint8Array, file: string): ReadResult {
  if (bytes.length > MAX_DEFINITION_BYTES) return { diagnostics: [tooLarge(file)] };
  const diagnostics: Diagnostic[] = [];
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return {
      diagnostics: [
        makeDiagnostic("E_ENCODING", "", locateByteOffset(bytes, firstInvalidUtf8(bytes)), "the file is not valid UTF-8", {
          file,
          hint: "save the file as UTF-8 (JSON files must be UTF-8)",
        }),
      ],
    };
  }
  if (text.charCodeAt(0) === 0xfeff) {
    // RFC 8259 lets a parser ignore a BOM; we do, and say so, since some tools choke on it.
    text = text.slice(1);
    diagnostics.push(
      makeDiagnostic("W_UTF8_BOM", "", { line: 1, column: 1 }, "the file starts with a UTF-8 byte order mark (BOM), which was ignored", {
        file,
        hint: "save the file as UTF-8 without BOM",
      }),
    );
  }
  if (text.trim() === "") {
    diagnostics.push(makeDiagnostic("E_EMPTY_FILE", "", { line: 1, column: 1 }, "the file is empty; expected a JSON object describing a team", { file }));
    return { diagnostics };
  }
  let parsed: ParsedJson;
  try {
    parsed = parseJsonWithPositions(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    diagnostics.push(makeDiagnostic("E_JSON_SYNTAX", "", e.position, `invalid JSON: ${e.message}`, { file }));
    return { diagnostics };
  }
  for (const dup of parsed.duplicateKeys) {
    const name = parsePointer(dup.pointer).at(-1) ?? "";
    diagnostics.push(
      makeDiagnostic("E_DUPLICATE_JSON_KEY", dup.pointer, dup.key, `property "${name}" appears twice in the same object (first at line ${dup.firstKey.line}, column ${dup.firstKey.column})`, {
        file,
        hint: "JSON readers disagree on which copy wins; keep one",
      }),
    );
  }
  const root = parsed.value;
  if (root === null || typeof root !== "object" || Array.isArray(root)) {
    const kind = root === null ? "null" : Array.isArray(root) ? "an array" : `a ${typeof root}`;
    diagnostics.push(makeDiagnostic("E_ROOT_NOT_OBJECT", "", parsed.locations.get("")!.value, `the top-level value is ${kind}; a team definition is a JSON object`, { file }));
    return { diagnostics };
  }
  return { document: { file, text, parsed }, diagnostics };
}

/** The position of a pointer, or of its nearest existing ancestor (for a missing property). */
export function locate(doc: SourceDocument, pointer: string, preferKey = false): { line: number; column: number } {
  const tokens = parsePointer(pointer);
  for (let n = tokens.length; n >= 0; n--) {
    const p = n === 0 ? "" : "/" + tokens.slice(0, n).map((t) => t.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
    const loc: Located | undefined = doc.parsed.locations.get(p);
    if (loc) {
      const at = preferKey && loc.key && n === tokens.length ? loc.key : loc.value;
      return { line: at.line, column: at.column };
    }
  }
  return { line: 1, column: 1 };
}

/** Offset of the first byte of the first ill-formed UTF-8 sequence (RFC 3629). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

/** Line and column (in UTF-16 units, like every other position) of a byte offset. */
function locateByteOffset(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  // The line up to the offset is valid UTF-8 (the offset is the first invalid byte).
  const before = new TextDecoder().decode(bytes.subarray(lineStart, offset));
  return { line, column: before.length + 1 };
}
