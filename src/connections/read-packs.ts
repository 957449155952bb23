// Reading OpenWOP connection packs (`pack.json`, kind "connection") given with `--connections`:
// each file is parsed with positions, scanned for credential material, then checked against the
// manifest schema (JSON Schema 2020-12, spec/openwop/), in that order, so a pack that carries a
// secret is refused without a message ever quoting its values. An `apiHosts` entry that is a
// public suffix is refused (api-hosts.ts). Two packs for one provider id are refused. Every
// problem is a diagnostic with the pack's file, pointer and line:column.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Ajv as AjvClass, ValidateFunction } from "ajv";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { makeDiagnostic } from "../diagnostics/make.js";
import { childPointer, pathLabel } from "../read/json-pointer.js";
import { JsonSyntaxError, parseJsonWithPositions } from "../read/json-with-positions.js";
import { locate, type SourceDocument } from "../read/source.js";
import { translate } from "../validate/schema-check.js";
import { apiHostProblem } from "./api-hosts.js";
import { fileSource, type PackSource } from "./pack-source.js";

/** A pack as the exports use it (the manifest's own field names). */
export interface ConnectionPack {
  file: string;
  name: string;
  version: string;
  provider: {
    id: string;
    displayName: string;
    auth: {
      kind: "oauth2" | "api_key" | "bearer" | "basic";
      endpoints?: { authorize?: string; token?: string; revoke?: string };
      scopes?: { read?: ScopeGroup[]; write?: ScopeGroup[] };
    };
    reach: { mcp?: { server: { url: string; transport?: "http" | "sse" } }; openapi?: { ref: string }; integration?: { node: string } };
    apiHosts?: string[];
  };
}

export interface ScopeGroup {
  key: string;
  label: string;
  scopes: string[];
}

export interface ReadPacks {
  packs: ConnectionPack[];
  diagnostics: Diagnostic[];
}

const MAX_PACK_BYTES = 1024 * 1024;

/**
 * Property names that hold a credential, compared without case, `_` or `-`. The manifest's
 * only legitimate one is the token *endpoint*, `/provider/auth/endpoints/token`.
 */
const CREDENTIAL_NAMES = new Set([
  "accesskey", "accesskeyid", "accesstoken", "apikey", "apisecret", "apitoken", "authorization", "authtoken", "bearer", "bearertoken",
  "clientsecret", "credential", "credentials", "idtoken", "passwd", "password", "privatekey", "refreshtoken", "secret", "secretkey", "sessiontoken", "token",
]);
const TOKEN_ENDPOINT = "/provider/auth/endpoints/token";

/** The pack files `paths` name: a pack.json, or a folder holding one and/or folders that do. */
export function packFiles(paths: readonly string[]): { files: string[]; diagnostics: Diagnostic[] } {
  const files: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch (e) {
      diagnostics.push(makeDiagnostic("E_READ", "", { line: 0, column: 0 }, `cannot read the connection pack ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { file: path }));
      continue;
    }
    if (!isDir) {
      files.push(path);
      continue;
    }
    const found = [join(path, "pack.json"), ...readdirSync(path, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(path, d.name, "pack.json")).sort()].filter((f) => {
      try {
        return statSync(f).isFile();
      } catch {
        return false;
      }
    });
    if (!found.length) diagnostics.push(makeDiagnostic("E_READ", "", { line: 0, column: 0 }, `no pack.json in ${path} or in its folders`, { file: path, hint: "--connections takes a pack.json or a folder of packs" }));
    files.push(...found);
  }
  return { files, diagnostics };
}

export function readConnectionPacks(paths: readonly string[]): ReadPacks {
  const { files, diagnostics } = packFiles(paths);
  const read = readPackFiles(files, fileSource);
  return { packs: read.packs, diagnostics: [...diagnostics, ...read.diagnostics] };
}

/** The packs `files` name, read through `source` (the disk, or an upload: pack-source.ts). */
export function readPackFiles(files: readonly string[], source: PackSource): ReadPacks {
  const diagnostics: Diagnostic[] = [];
  const packs: ConnectionPack[] = [];
  const byProvider = new Map<string, string>();
  for (const file of files) {
    const read = readPack(file, source);
    diagnostics.push(...read.diagnostics);
    if (!read.pack || !read.doc) continue;
    const id = read.pack.provider.id;
    const first = byProvider.get(id);
    if (first !== undefined) {
      diagnostics.push(makeDiagnostic("E_PACK_DUPLICATE_PROVIDER", "/provider/id", locate(read.doc, "/provider/id"), `provider "${id}" is already defined by ${first}`, { file, hint: "give one pack per provider" }));
      continue;
    }
    byProvider.set(id, file);
    packs.push(read.pack);
  }
  return { packs, diagnostics };
}

function readPack(file: string, source: PackSource): { pack?: ConnectionPack; doc?: SourceDocument; diagnostics: Diagnostic[] } {
  const at0 = { line: 0, column: 0 };
  let bytes: Uint8Array;
  try {
    bytes = source.read(file);
  } catch (e) {
    return { diagnostics: [makeDiagnostic("E_READ", "", at0, `cannot read the connection pack: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { file })] };
  }
  if (bytes.length > MAX_PACK_BYTES) return { diagnostics: [makeDiagnostic("E_FILE_TOO_LARGE", "", at0, "the connection pack is over 1 MiB", { file })] };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { diagnostics: [makeDiagnostic("E_ENCODING", "", at0, "the connection pack is not valid UTF-8", { file })] };
  }
  let parsed;
  try {
    parsed = parseJsonWithPositions(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    return { diagnostics: [makeDiagnostic("E_JSON_SYNTAX", "", e.position, `invalid JSON: ${e.message}`, { file })] };
  }
  const doc: SourceDocument = { file, text, parsed };
  const diagnostics: Diagnostic[] = parsed.duplicateKeys.map((dup) =>
    makeDiagnostic("E_DUPLICATE_JSON_KEY", dup.pointer, dup.key, `property "${pathLabel(dup.pointer)}" appears twice in the same object`, { file }),
  );
  const root = parsed.value;
  if (root === null || typeof root !== "object" || Array.isArray(root)) {
    diagnostics.push(makeDiagnostic("E_ROOT_NOT_OBJECT", "", parsed.locations.get("")!.value, "a connection pack is a JSON object (an OpenWOP pack.json)", { file }));
    return { diagnostics };
  }
  const credentials = credentialPointers(root, "");
  for (const pointer of credentials) {
    diagnostics.push(
      makeDiagnostic("E_PACK_CREDENTIAL", pointer, locate(doc, pointer, true), `\`${pathLabel(pointer)}\` is credential material; a connection pack carries no secret, so this pack is refused`, {
        file,
        hint: "remove it from the pack: the exported project reads credentials from its environment (.env), never from a pack",
      }),
    );
  }
  if (credentials.length) return { diagnostics };
  const validate = packValidator();
  if (!validate(root)) {
    for (const err of validate.errors ?? []) {
      if (err.keyword === "if") continue; // its `then` failure is reported on its own
      const d = translate(err, doc, "the pack");
      if (d) diagnostics.push(d);
    }
  }
  if (diagnostics.length) return { diagnostics };
  const pack: ConnectionPack = { ...(root as Omit<ConnectionPack, "file">), file };
  (pack.provider.apiHosts ?? []).forEach((entry, i) => {
    const problem = apiHostProblem(entry);
    const pointer = `/provider/apiHosts/${i}`;
    if (problem) diagnostics.push(makeDiagnostic("E_PACK_API_HOST_SUFFIX", pointer, locate(doc, pointer), problem.message, { file, hint: problem.hint }));
  });
  if (diagnostics.length) return { diagnostics };
  return { pack, doc, diagnostics };
}

function credentialPointers(value: unknown, pointer: string): string[] {
  if (value === null || typeof value !== "object") return [];
  const out: string[] = [];
  for (const [key, child] of Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)) {
    const p = childPointer(pointer, key);
    const named = !Array.isArray(value) && CREDENTIAL_NAMES.has(key.toLowerCase().replace(/[_-]/g, ""));
    if ((named && p !== TOKEN_ENDPOINT) || urlCarriesCredential(child)) out.push(p);
    else out.push(...credentialPointers(child, p));
  }
  return out;
}

/** A URL with a user or password in it, or a query parameter named like a credential (`?api_key=…`): the MCP server's URL must not hold its secret. */
function urlCarriesCredential(value: unknown): boolean {
  if (typeof value !== "string" || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.username !== "" || url.password !== "" || [...url.searchParams.keys()].some((k) => CREDENTIAL_NAMES.has(k.toLowerCase().replace(/[_-]/g, "")) || k.toLowerCase().replace(/[_-]/g, "") === "key");
}

let compiled: ValidateFunction | undefined;

/** The manifest schema, compiled on first use (only exports given packs pay for it). */
function packValidator(): ValidateFunction {
  if (compiled) return compiled;
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require("ajv/dist/2020") as { Ajv2020: new (o: object) => AjvClass };
  const addFormats = require("ajv-formats") as (ajv: AjvClass) => AjvClass;
  const ajv = addFormats(new Ajv2020({ allErrors: true, verbose: true, strict: false, logger: false }));
  const schema = JSON.parse(readFileSync(new URL("../../spec/openwop/connection-pack-manifest.schema.json", import.meta.url), "utf8")) as object;
  compiled = ajv.compile(schema);
  return compiled;
}
