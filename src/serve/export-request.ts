// A definition sent with connection packs: `application/vnd.envelope.request+json`, a JSON
// object holding the definition's text (kept byte for byte, so its diagnostics keep their
// lines and columns), the uploaded pack files and the explicit connections. The shape and the
// limits are checked here, before any work is queued; what the files say is the packs'
// readers' to check (their diagnostics name each file).
import { parseConnectionFlag } from "../connections/assign.js";
import type { JobConnections } from "./jobs.js";
import { BODY_LIMIT } from "./settings.js";

export const REQUEST_TYPE = "application/vnd.envelope.request+json";
/** The body limit of a request with packs: the definition (1 MiB) and its packs' documents. */
export const REQUEST_LIMIT = 8 * 1024 * 1024;
export const MAX_CONNECTION_FILES = 32;
export const MAX_EXPLICIT_CONNECTIONS = 64;
export const MAX_PATH_LENGTH = 255;

export class ExportRequestError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

const FIELDS = ["definition", "connections", "connection"];

/** A relative POSIX path of the upload: no empty, `.` or `..` segment, no backslash or control character. */
export function uploadPathProblem(path: string): string | undefined {
  if (path.length === 0 || path.length > MAX_PATH_LENGTH) return `is empty or over ${MAX_PATH_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(path)) return "holds a backslash or a control character";
  if (path.split("/").some((seg) => seg === "" || seg === "." || seg === "..")) return "is not a relative path of the upload (no leading /, no empty, . or .. segment)";
  return undefined;
}

export function parseExportRequest(bytes: Uint8Array): { body: Uint8Array; connections?: JobConnections } {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (e) {
    throw new ExportRequestError(400, `the ${REQUEST_TYPE} body is not UTF-8 JSON: ${(e as Error).message.slice(0, 200)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new ExportRequestError(400, `a ${REQUEST_TYPE} body is a JSON object: { "definition": "…", "connections": [{ "path", "content" }], "connection": ["AGENT=PROVIDER"] }`);
  const o = value as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !FIELDS.includes(k));
  if (unknown !== undefined) throw new ExportRequestError(400, `unknown field ${JSON.stringify(unknown.slice(0, 40))}; the body takes ${FIELDS.join(", ")}`);
  if (typeof o.definition !== "string") throw new ExportRequestError(400, "definition: the team definition's text, as a string, is required");
  const body = new TextEncoder().encode(o.definition);
  if (body.length > BODY_LIMIT) throw new ExportRequestError(413, `definition: over the ${BODY_LIMIT / 1024 / 1024} MiB limit; a team definition is a few kilobytes`);
  const files = o.connections === undefined ? [] : o.connections;
  if (!Array.isArray(files)) throw new ExportRequestError(400, "connections: an array of { path, content } files");
  if (files.length > MAX_CONNECTION_FILES) throw new ExportRequestError(400, `connections: ${files.length} files; at most ${MAX_CONNECTION_FILES} are read`);
  const seen = new Set<string>();
  const uploaded = files.map((f: unknown, i) => {
    const at = `connections/${i}`;
    if (f === null || typeof f !== "object" || Array.isArray(f)) throw new ExportRequestError(400, `${at}: a file is { "path": "helpdesk/pack.json", "content": "…" }`);
    const { path, content, ...rest } = f as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) throw new ExportRequestError(400, `${at}: unknown field ${JSON.stringify(extra.slice(0, 40))}; a file takes path and content`);
    if (typeof path !== "string") throw new ExportRequestError(400, `${at}/path: a string is required`);
    const problem = uploadPathProblem(path);
    if (problem) throw new ExportRequestError(400, `${at}/path ${JSON.stringify(path.slice(0, 80))} ${problem}`);
    if (seen.has(path)) throw new ExportRequestError(400, `${at}/path ${JSON.stringify(path)} is given twice`);
    seen.add(path);
    if (typeof content !== "string") throw new ExportRequestError(400, `${at}/content: the file's text, as a string, is required`);
    return { path, bytes: new TextEncoder().encode(content) };
  });
  const flags = o.connection === undefined ? [] : o.connection;
  if (!Array.isArray(flags) || flags.some((x) => typeof x !== "string")) throw new ExportRequestError(400, 'connection: an array of "AGENT_KEY=PROVIDER_ID" strings');
  if (flags.length > MAX_EXPLICIT_CONNECTIONS) throw new ExportRequestError(400, `connection: at most ${MAX_EXPLICIT_CONNECTIONS} entries`);
  const explicit = (flags as string[]).map((flag, i) => {
    const parsed = parseConnectionFlag(flag);
    if (!parsed) throw new ExportRequestError(400, `connection/${i}: takes AGENT_KEY=PROVIDER_ID, not ${JSON.stringify(flag.slice(0, 80))}`);
    return parsed;
  });
  if (explicit.length && !uploaded.length) throw new ExportRequestError(400, "connection goes with connections (the packs it names)");
  return uploaded.length ? { body, connections: { files: uploaded, explicit } } : { body };
}
