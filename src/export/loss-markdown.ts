// ENVELOPE_EXPORT.md: the loss report inside the exported project, for the developer who
// receives it. Field names and details pass through the Markdown escaping helpers (a
// detail's `code` names as code spans).
import { mdCode, mdDetail, mdText } from "./escape/markdown.js";
import { lossCounts, type LossEntry } from "./loss-report.js";

/** Where each target writes the report in the project. */
export const LOSS_REPORT_PATH = "ENVELOPE_EXPORT.md";

const HEADING = { carried: "Carried", approximated: "Approximated", dropped: "Not carried" } as const;

export function lossReportMarkdown(entries: readonly LossEntry[], teamName: string, targetTitle: string): string {
  const c = lossCounts(entries);
  const out = [
    `# Export report: ${mdText(teamName)} → ${mdText(targetTitle)}`,
    "",
    `Every field of the Envelope definition, and what this project does with it: ${c.carried} carried, ${c.approximated} approximated, ${c.dropped} not carried.`,
    "",
  ];
  for (const status of ["dropped", "approximated", "carried"] as const) {
    const rows = entries.filter((e) => e.status === status);
    if (rows.length === 0) continue;
    out.push(`## ${HEADING[status]} (${rows.length})`, "", "| field | how |", "|---|---|");
    for (const e of rows) out.push(`| ${mdCode(e.field)} | ${mdDetail(e.detail)} |`);
    out.push("");
  }
  return out.join("\n");
}
