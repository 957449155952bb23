// How the loss report changed between the last export and the new one, read from the
// ENVELOPE_EXPORT.md each export writes (the last one's is in .envelope/pristine.json), so
// an update can say which fields are now carried differently without the old definition.
// The fields are compared as the report prints them (Markdown code spans).
import type { FileSet } from "../export/file-set.js";
import { LOSS_REPORT_PATH } from "../export/loss-markdown.js";
import type { LossStatus } from "../export/loss-report.js";

export type LossCounts = Record<LossStatus, number>;

export interface LossChange {
  /** The field as the report prints it: a Markdown code span. */
  field: string;
  /** undefined: the field was not in that export's definition. */
  from?: LossStatus;
  to?: LossStatus;
}

export interface LossChanges {
  /** The last export's counts; undefined when it wrote no loss report. */
  before?: LossCounts;
  after: LossCounts;
  changes: LossChange[];
}

const HEADINGS: Record<string, LossStatus> = { Carried: "carried", Approximated: "approximated", "Not carried": "dropped" };

/** Field (as printed) → status, from an ENVELOPE_EXPORT.md. */
export function readLossReport(markdown: string): Map<string, LossStatus> {
  const out = new Map<string, LossStatus>();
  let status: LossStatus | undefined;
  for (const line of markdown.split("\n")) {
    const heading = /^## (.+) \(\d+\)$/.exec(line);
    if (heading) status = HEADINGS[heading[1]!];
    // A row: | `field` | how |, the code span fenced by one or more backticks.
    const row = /^\| ((`+).*?\2) \| /.exec(line);
    if (row && status) out.set(row[1]!, status);
  }
  return out;
}

function countsOf(report: Map<string, LossStatus>): LossCounts {
  const counts: LossCounts = { carried: 0, approximated: 0, dropped: 0 };
  for (const status of report.values()) counts[status]++;
  return counts;
}

/** Undefined when the new export has no loss report to compare. */
export function lossChanges(base: FileSet, next: FileSet): LossChanges | undefined {
  const after = next.text(LOSS_REPORT_PATH);
  if (after === undefined) return undefined;
  const now = readLossReport(after);
  const beforeText = base.text(LOSS_REPORT_PATH);
  if (beforeText === undefined) return { after: countsOf(now), changes: [] };
  const was = readLossReport(beforeText);
  const changes: LossChange[] = [];
  for (const field of [...new Set([...was.keys(), ...now.keys()])]) {
    const [from, to] = [was.get(field), now.get(field)];
    if (from === to) continue;
    // A carried field that comes or goes is the definition changing, not the loss: not listed.
    if ((from === undefined && to === "carried") || (to === undefined && from === "carried")) continue;
    changes.push({ field, ...(from ? { from } : {}), ...(to ? { to } : {}) });
  }
  return { before: countsOf(was), after: countsOf(now), changes };
}
