// What an update of an exported project does, file by file, from three versions of each
// path: the last export as written (base, from .envelope/pristine.json), the project as it is
// now (yours), and the new export (next). Pure: no I/O, so every rule is unit-tested.
//
//   yours = base (untouched)      → take next (update / remove when next has none)
//   next = base (export unchanged) → keep yours
//   both changed                   → three-way merge; overlapping changes are a conflict
//                                    (a lock file: kept, for its command to lock anew)
//   a file the developer added     → never touched (not even listed)
//   protected (.envelopeignore, or the developer's by design: .env, knowledge/)
//                                  → never written once it exists
import { decidingRule, parseGitignore, type IgnoreRule } from "../publish/gitignore.js";
import { sameContent as sameFile, type FileEntry, type FileSet } from "../export/file-set.js";
import { RECORD_DIR } from "../export/ledger.js";
import { mergeText } from "./merge.js";

export type Action = "create" | "update" | "merge" | "conflict" | "remove" | "keep" | "unchanged";

export interface PlanEntry {
  path: string;
  action: Action;
  /** Why, in words (for keep and conflict especially). */
  reason: string;
  /** What is written at the path (create, update, merge, conflict with markers). */
  write?: { bytes: Uint8Array; mode: number };
  /** Conflicting regions written with markers (conflict only). */
  conflicts?: number;
  /** The .envelope/ record, rewritten with every update. */
  record?: boolean;
}

/** The project as it is now, for one path: a regular file, nothing, or something else (a link, a folder). */
export type Current = FileEntry | "missing" | "other";

export const IGNORE_FILE = ".envelopeignore";

/** Paths that are the developer's by design: written by an export only when they do not exist yet. */
const DEVELOPERS = parseGitignore(["/.env", "/knowledge/"].join("\n"), "");

export interface PlanInput {
  next: FileSet;
  base: FileSet;
  current: (path: string) => Current;
  /** The project's .envelopeignore, if any. */
  ignore?: string;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

function text(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** gitignore semantics: a path is ignored when a folder above it is, or its own deciding rule ignores it. */
export function ignoredBy(rules: readonly IgnoreRule[], path: string): boolean {
  const parts = path.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const rule = decidingRule(rules, parts.slice(0, i).join("/"), i < parts.length);
    if (rule && !rule.negated) return true;
  }
  return false;
}

export function planUpdate(input: PlanInput): PlanEntry[] {
  const ignore = input.ignore === undefined ? [] : parseGitignore(input.ignore, "");
  const paths = [...new Set([...input.next.paths(), ...input.base.paths()])].sort();
  return paths.map((path) => {
    const next = input.next.get(path);
    const base = input.base.get(path);
    const yours = input.current(path);
    if (path.startsWith(RECORD_DIR)) return recordEntry(path, next!, yours);
    const protectedBy = ignoredBy(DEVELOPERS, path) ? "the developer's by design" : ignoredBy(ignore, path) ? `listed in ${IGNORE_FILE}` : undefined;
    if (protectedBy && (yours !== "missing" || base)) {
      if (next && yours !== "missing" && yours !== "other" && sameFile(yours, next)) return { path, action: "unchanged", reason: "already as exported" };
      return { path, action: "keep", reason: protectedBy };
    }
    return decide(path, next, base, yours);
  });
}

function recordEntry(path: string, next: FileEntry | undefined, yours: Current): PlanEntry {
  // A record file the new export does not write (a newer tool's): left as it is.
  if (!next) return { path, action: "unchanged", reason: "the export's record", record: true };
  if (yours !== "missing" && yours !== "other" && sameFile(yours, next)) return { path, action: "unchanged", reason: "the export's record", record: true };
  return { path, action: yours === "missing" ? "create" : "update", reason: "the export's record", write: next, record: true };
}

/**
 * A checkout that turned the export's LF line ends into CRLF (git's core.autocrlf on
 * Windows) has not edited the file: compared and merged with LF, written back with CRLF.
 */
function lineEnds(yours: FileEntry, reference: FileEntry | undefined): { entry: FileEntry; crlf: boolean } {
  const y = text(yours.bytes);
  const r = reference && text(reference.bytes);
  if (y === undefined || r === undefined || !y.includes("\r\n") || r.includes("\r")) return { entry: yours, crlf: false };
  return { entry: { ...yours, bytes: new TextEncoder().encode(y.replace(/\r\n/g, "\n")) }, crlf: true };
}

function withCrlf(entry: PlanEntry): PlanEntry {
  if (!entry.write) return entry;
  const t = text(entry.write.bytes);
  return t === undefined ? entry : { ...entry, write: { ...entry.write, bytes: new TextEncoder().encode(t.replace(/\r?\n/g, "\r\n")) } };
}

function decide(path: string, next: FileEntry | undefined, base: FileEntry | undefined, current: Current): PlanEntry {
  if (current === "other") return { path, action: "keep", reason: "not a regular file in the project (a link or a folder, or behind a link): left as it is" };
  if (current === "missing") return decideText(path, next, base, current);
  const { entry, crlf } = lineEnds(current, base?.digest === undefined ? (base ?? next) : next);
  const decided = decideText(path, next, base, entry);
  return crlf ? withCrlf(decided) : decided;
}

function decideText(path: string, next: FileEntry | undefined, base: FileEntry | undefined, yours: FileEntry | "missing"): PlanEntry {
  if (!next) {
    // The new export no longer has this file.
    if (yours === "missing") return { path, action: "unchanged", reason: "no longer exported, and already gone" };
    if (base && sameFile(yours, base)) return { path, action: "remove", reason: "no longer exported, and never edited" };
    return { path, action: "keep", reason: "no longer exported, but edited in the project: kept for you to remove" };
  }
  if (yours === "missing") {
    if (!base) return { path, action: "create", reason: "new in this export", write: next };
    if (sameFile(next, base)) return { path, action: "keep", reason: "deleted in the project (the export did not change it)" };
    return { path, action: "conflict", reason: "deleted in the project but changed by the export: not restored; restore it from the new export if you want it" };
  }
  if (sameFile(yours, next)) return { path, action: "unchanged", reason: "already as exported" };
  if (base && sameFile(yours, base)) return { path, action: "update", reason: "never edited: replaced by the new export", write: next };
  if (base && sameFile(next, base)) return { path, action: "keep", reason: "edited in the project; the export did not change it" };
  // Both sides changed (or the developer made a file the export now writes): merge the text.
  if (next.relock) {
    return { path, action: "keep", reason: `a lock file, changed in the project and by the export: kept as it is, not merged line by line; run \`${next.relock}\` after the update to lock what the project now declares` };
  }
  const mode = base && yours.mode !== base.mode ? yours.mode : next.mode;
  if (base?.digest !== undefined) {
    return { path, action: "keep", reason: "changed in the project and by the export, and the last export kept only its hash (a lock file then): kept as it is in the project" };
  }
  const [y, b, n] = [text(yours.bytes), base ? text(base.bytes) : "", text(next.bytes)];
  if (y === undefined || b === undefined || n === undefined) {
    return { path, action: "conflict", reason: "changed in the project and by the export, and not text: kept as it is in the project" };
  }
  const merged = mergeText(y, b, n);
  const bytes = new TextEncoder().encode(merged.text);
  if (merged.conflicts) {
    return { path, action: "conflict", reason: `${merged.conflicts} conflicting change${merged.conflicts === 1 ? "" : "s"}, marked <<<<<<< yours … >>>>>>> new export`, write: { bytes, mode }, conflicts: merged.conflicts };
  }
  if (same(bytes, yours.bytes) && mode === yours.mode) return { path, action: "unchanged", reason: "the export's change is already in the project" };
  return { path, action: "merge", reason: base ? "edited in the project and changed by the export: merged" : "made in the project and now exported too: merged", write: { bytes, mode } };
}

/** Whether applying the plan would change the project. */
export function changes(plan: readonly PlanEntry[]): boolean {
  return plan.some((e) => e.write !== undefined || e.action === "remove");
}
