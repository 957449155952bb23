// How a file set becomes Git Data API calls, decided before any request (pure, testable):
// text files travel inline in the tree request (no call per file); binary or very large
// files become blobs first, since inline `content` is UTF-8 text only; and the tree is cut
// into chunks small enough that GitHub does not time out building it.
import type { FileSet } from "../export/file-set.js";
import { PublishError } from "./errors.js";

export interface UploadLimits {
  /** Tree entries per createTree request (GitHub times out around 200+). */
  maxTreeEntries: number;
  /** Inline content bytes per createTree request. */
  maxTreeBytes: number;
  /** Larger text files go as blobs, so one file never fills a tree request. */
  maxInlineBytes: number;
  /** Refused before any request: GitHub's blob API fails well below Git's 100 MB limit. */
  maxFileBytes: number;
}

export const DEFAULT_LIMITS: UploadLimits = {
  maxTreeEntries: 100,
  maxTreeBytes: 1024 * 1024,
  maxInlineBytes: 512 * 1024,
  maxFileBytes: 25 * 1024 * 1024,
};

export type GitMode = "100644" | "100755";

/** One file as GitHub's createTree takes it, before blobs have shas. */
export interface PlannedFile {
  path: string;
  mode: GitMode;
  bytes: Uint8Array;
  /** The exact text, when the file can travel inline. */
  text?: string;
}

export interface UploadPlan {
  files: PlannedFile[];
  /** Files that need a createBlob call (binary or large). */
  blobs: PlannedFile[];
  totalBytes: number;
  /** Paths under .github/workflows/: GitHub needs the `workflow` scope to write them. */
  workflows: string[];
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text of bytes that survive a JSON string round trip unchanged: valid UTF-8, no NUL. */
export function inlineText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    // ignoreBOM keeps a leading BOM in the text, so it is written back byte for byte.
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function planUpload(files: FileSet, limits: UploadLimits = DEFAULT_LIMITS): UploadPlan {
  if (files.size === 0) throw new PublishError("invalid-input", "there are no files to publish");
  const planned: PlannedFile[] = [];
  const tooLarge: string[] = [];
  for (const [path, entry] of files.entries()) {
    if (entry.bytes.length > limits.maxFileBytes) tooLarge.push(`${path} (${entry.bytes.length} bytes)`);
    const mode: GitMode = entry.mode & 0o111 ? "100755" : "100644";
    const text = entry.bytes.length <= limits.maxInlineBytes ? inlineText(entry.bytes) : undefined;
    planned.push(text === undefined ? { path, mode, bytes: entry.bytes } : { path, mode, bytes: entry.bytes, text });
  }
  if (tooLarge.length) {
    throw new PublishError("rejected", `GitHub cannot take files over ${limits.maxFileBytes / 1024 / 1024} MB through its API: ${tooLarge.join(", ")}`, {
      hint: "leave large files out of the project, or push it with git and Git LFS",
    });
  }
  return {
    files: planned,
    blobs: planned.filter((f) => f.text === undefined),
    totalBytes: files.totalBytes(),
    workflows: planned.map((f) => f.path).filter((p) => p.startsWith(".github/workflows/")),
  };
}

/** `sha: null` removes the path from the base tree (an update's removed file). */
export type TreeEntry = { path: string; mode: GitMode; type: "blob" } & ({ content: string } | { sha: string | null });

/**
 * Consecutive chunks of at most `maxTreeEntries` entries and `maxTreeBytes` inline bytes
 * (a single larger entry gets a chunk of its own). Each chunk becomes one createTree call
 * on top of the previous chunk's tree, so the result is still one tree and one commit.
 */
export function chunkTree(entries: TreeEntry[], limits: Pick<UploadLimits, "maxTreeEntries" | "maxTreeBytes">): TreeEntry[][] {
  const chunks: TreeEntry[][] = [];
  let current: TreeEntry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = "content" in entry ? Buffer.byteLength(entry.content) : 0;
    if (current.length > 0 && (current.length >= limits.maxTreeEntries || bytes + size > limits.maxTreeBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}
