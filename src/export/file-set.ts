// An exported project in memory: relative POSIX paths → bytes + mode. Targets build one,
// sinks write one. Paths are checked on the way in, so no sink can be steered outside its
// root whatever a definition contains.
import { createHash } from "node:crypto";

export interface FileEntry {
  bytes: Uint8Array;
  /** 0o644 for files, 0o755 for executables. */
  mode: number;
  /** Copied verbatim from a target's static files (the same for every team). */
  verbatim?: boolean;
  /**
   * The bytes in pieces, for a file that holds other files (the pristine copy): pieces that
   * come out the same in every export are the same arrays each time, so a sink can reuse
   * what it did with them (the zip sink, their compressed form). `bytes` is their
   * concatenation; an entry copied with other bytes must drop them (the zip sink checks, and
   * then compresses the bytes). Like a verbatim file's bytes, a piece is shared: never written to.
   */
  pieces?: readonly Uint8Array[];
  /**
   * The command that writes this file from the project's others (a lock file: `uv lock`). An
   * update never merges such a file line by line: a merged lock can be well-formed and still
   * lock nothing the project declares.
   */
  relock?: string;
  /**
   * The content's sha256 (`sha256:<hex>`), for an entry known by its hash alone: a lock file
   * in the pristine record, which an update compares but never merges. Its `bytes` are empty
   * and stand for nothing: compare such an entry with `sameContent`, never by its bytes.
   */
  digest?: string;
}

/** `sha256:<hex>` of some bytes: the ledger's hash of a file, and FileEntry.digest. */
export function sha256(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Whether two entries hold the same bytes and mode, either of them perhaps known by its hash alone. */
export function sameContent(a: FileEntry, b: FileEntry): boolean {
  if (a.mode !== b.mode) return false;
  if (a.digest === undefined && b.digest === undefined) return Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
  return (a.digest ?? sha256(a.bytes)) === (b.digest ?? sha256(b.bytes));
}

export class UnsafePathError extends Error {}

/** Accepts only normalized relative paths: no absolute, `..`, `.`, empty, backslash or NUL segments. */
export function checkRelativePath(path: string): string {
  const bad =
    path === "" ||
    path.startsWith("/") ||
    /^[A-Za-z]:/.test(path) ||
    /[\\\u0000-\u001f]/.test(path) ||
    path.split("/").some((seg) => seg === "" || seg === "." || seg === "..");
  if (bad) throw new UnsafePathError(`unsafe output path: ${JSON.stringify(path)}`);
  return path;
}

export class FileSet {
  private readonly files = new Map<string, FileEntry>();

  add(path: string, content: string | Uint8Array, mode = 0o644, verbatim = false): void {
    checkRelativePath(path);
    if (this.files.has(path)) throw new Error(`file written twice: ${path}`);
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    this.files.set(path, verbatim ? { bytes, mode, verbatim } : { bytes, mode });
  }

  /** A lock file: its content, and the command that writes it (FileEntry.relock). */
  addLock(path: string, content: string, relock: string): void {
    this.add(path, content);
    this.files.get(path)!.relock = relock;
  }

  /** A file known by its content's hash alone (FileEntry.digest). */
  addDigest(path: string, digest: string, mode = 0o644): void {
    this.add(path, new Uint8Array(0), mode);
    this.files.get(path)!.digest = digest;
  }

  /** Another set's entry, as it is there. */
  copy(path: string, entry: FileEntry): void {
    checkRelativePath(path);
    if (this.files.has(path)) throw new Error(`file written twice: ${path}`);
    const { pieces, ...rest } = entry; // pieces describe a file's bytes as built, not as copied
    void pieces;
    this.files.set(path, rest);
  }

  /** A file made of pieces (FileEntry.pieces), some of them shared by every export. */
  addPieces(path: string, pieces: readonly Uint8Array[], mode = 0o644): void {
    checkRelativePath(path);
    if (this.files.has(path)) throw new Error(`file written twice: ${path}`);
    this.files.set(path, { bytes: Buffer.concat(pieces), mode, pieces });
  }

  get(path: string): FileEntry | undefined {
    return this.files.get(path);
  }

  text(path: string): string | undefined {
    const f = this.files.get(path);
    return f && new TextDecoder().decode(f.bytes);
  }

  /** Entries sorted by path: the one order every sink and manifest uses. */
  entries(): Array<[string, FileEntry]> {
    return [...this.files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  paths(): string[] {
    return this.entries().map(([p]) => p);
  }

  get size(): number {
    return this.files.size;
  }

  totalBytes(): number {
    let n = 0;
    for (const f of this.files.values()) n += f.bytes.length;
    return n;
  }
}
