// An exported project in memory: relative POSIX paths → bytes + mode. Targets build one,
// sinks write one. Paths are checked on the way in, so no sink can be steered outside its
// root whatever a definition contains.

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
