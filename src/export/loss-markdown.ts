// ENVELOPE_EXPORT.md: the loss report inside the exported project, for the developer who
// receives it. Field names and details pass through the Markdown escaping helpers (a
// detail's `code` names as code spans).
import { mdCode, mdDetail, mdText } from "./escape/markdown.js";
import type { ConnectionRow } from "../connections/report.js";
import { lossCountsText, type LossEntry } from "./loss-report.js";

/** Where each target writes the report in the project. */
export const LOSS_REPORT_PATH = "ENVELOPE_EXPORT.md";

const HEADING = { carried: "Carried", approximated: "Approximated", dropped: "Not carried" } as const;

export function lossReportMarkdown(entries: readonly LossEntry[], teamName: string, targetTitle: string, connections?: readonly ConnectionRow[]): string {
  const out = [
    `# Export report: ${mdText(teamName)} → ${mdText(targetTitle)}`,
    "",
    `Every field of the Envelope definition, and what this project does with it: ${lossCountsText(entries)}.`,
    "",
  ];
  for (const status of ["dropped", "approximated", "carried"] as const) {
    const rows = entries.filter((e) => e.status === status);
    if (rows.length === 0) continue;
    out.push(`## ${HEADING[status]} (${rows.length})`, "", "| field | how |", "|---|---|");
    for (const e of rows) out.push(`| ${mdCode(e.field)} | ${mdDetail(e.detail)} |`);
    out.push("");
  }
  // Connection packs (--connections) are not definition fields: a section of their own.
  if (connections?.length) {
    out.push("## Connections", "", "Connection packs given with `--connections`, and which agent got which.", "", "| pack | agent | status | how |", "|---|---|---|---|");
    for (const r of connections) out.push(`| ${mdCode(r.provider)} | ${r.agent === undefined ? "none" : mdCode(r.agent)} | ${r.status === "carried" ? "carried" : "not carried"} | ${mdDetail(r.detail)} |`);
    out.push("");
  }
  return out.join("\n");
}
