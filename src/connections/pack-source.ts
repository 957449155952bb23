// Where connection pack files come from: the disk (the CLI's `--connections`) or a set of
// uploaded files held in memory (the HTTP API's `connections`). The readers (read-packs.ts,
// openapi.ts) read through a source and nothing else, so the credential scan, the schema check
// and the OpenAPI reading are the same code for both.
import { readFileSync } from "node:fs";
import { dirname, posix, resolve } from "node:path";

export interface PackSource {
  /** The file's bytes; throws an error whose `code` says why not (ENOENT, or words for an upload). */
  read(name: string): Uint8Array;
  /** The file a pack's relative `ref` names, from the pack file `from`; `{ refused }` says why it may not be followed. */
  resolve(from: string, ref: string): string | { refused: string };
}

/** The disk, as the CLI has always read it: a ref is a path relative to the pack's folder. */
export const fileSource: PackSource = {
  read: (name) => readFileSync(name),
  resolve: (from, ref) => resolve(dirname(from), ref),
};

/** An uploaded file: its path in the upload (`helpdesk/pack.json`) and its bytes. */
export interface UploadedFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * The uploaded files as a source: names are their upload paths, and a ref resolves among them
 * only (POSIX, relative to the pack's folder). It may not name an absolute path or climb out
 * of the upload with `..`: nothing outside the files sent is ever read.
 */
export function memorySource(files: readonly UploadedFile[]): PackSource {
  const byPath = new Map(files.map((f) => [f.path, f.bytes]));
  return {
    read(name) {
      const bytes = byPath.get(name);
      if (bytes === undefined) throw Object.assign(new Error(`${name} is not among the uploaded files`), { code: "not among the uploaded files" });
      return bytes;
    },
    resolve(from, ref) {
      if (ref.startsWith("/") || ref.includes("\\") || /^[a-z]:/i.test(ref)) return { refused: "is an absolute path; name a file of the upload relative to the pack" };
      const name = posix.normalize(posix.join(posix.dirname(from), ref));
      if (name === ".." || name.startsWith("../")) return { refused: "climbs out of the uploaded files; name a file of the upload relative to the pack" };
      return name;
    },
  };
}
