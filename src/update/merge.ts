// Three-way merge of one text file, line by line: the developer's version ("yours"), the last
// export as written (the base) and the new export. Changes on one side only are taken;
// the same change on both sides is taken once; overlapping different changes become a
// conflict written with git's standard markers (with the base, as merge.conflictStyle=diff3
// writes it), so every editor and `git mergetool` recognize it.
import { diff3Merge } from "node-diff3";

export interface MergeResult {
  text: string;
  /** Regions both sides changed differently (0: a clean merge). */
  conflicts: number;
}

export const MARKERS = { yours: "<<<<<<< yours", base: "||||||| last export", separator: "=======", export: ">>>>>>> new export" } as const;

/** Lines with their line ends kept, so CRLF files and a missing final newline survive the merge. */
function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function mergeText(yours: string, base: string, next: string): MergeResult {
  const out: string[] = [];
  let conflicts = 0;
  // A marker must start its own line even when the side before it ends without a newline.
  const closed = (block: string[]) => (block.length && !block.at(-1)!.endsWith("\n") ? [...block.slice(0, -1), `${block.at(-1)}\n`] : block);
  for (const region of diff3Merge(lines(yours), lines(base), lines(next), { excludeFalseConflicts: true })) {
    if (region.ok) {
      out.push(...region.ok);
      continue;
    }
    const c = region.conflict!;
    conflicts++;
    const eol = yours.includes("\r\n") ? "\r\n" : "\n";
    out.push(`${MARKERS.yours}${eol}`, ...closed(c.a), `${MARKERS.base}${eol}`, ...closed(c.o), `${MARKERS.separator}${eol}`, ...closed(c.b), `${MARKERS.export}${eol}`);
  }
  return { text: out.join(""), conflicts };
}
