// The loss report's changes between two exports, read from the ENVELOPE_EXPORT.md each writes.
import { describe, expect, it } from "vitest";
import { FileSet } from "../../src/export/file-set.js";
import { LOSS_REPORT_PATH, lossReportMarkdown } from "../../src/export/loss-markdown.js";
import type { LossEntry } from "../../src/export/loss-report.js";
import { lossChanges, readLossReport } from "../../src/update/loss-changes.js";

const entry = (field: string, status: LossEntry["status"]): LossEntry => ({ pointer: `/${field}`, field, status, detail: `why ${field} | with a pipe` });
const withReport = (entries: LossEntry[]) => {
  const files = new FileSet();
  files.add(LOSS_REPORT_PATH, lossReportMarkdown(entries, "Team", "LangGraph"));
  return files;
};

describe("lossChanges", () => {
  it("reads each field's status from the report, code spans with backticks too", () => {
    const report = readLossReport(lossReportMarkdown([entry("name", "carried"), entry("a`b", "approximated"), entry("pricing", "dropped")], "Team", "LangGraph"));
    expect([...report]).toEqual([
      ["`pricing`", "dropped"],
      ["``a`b``", "approximated"],
      ["`name`", "carried"],
    ]);
  });

  it("lists the fields whose status changed, and lossy fields that came or went; not carried fields that came or went", () => {
    const before = withReport([entry("name", "carried"), entry("schedule", "dropped"), entry("gates", "approximated"), entry("old", "carried"), entry("tags", "dropped")]);
    const after = withReport([entry("name", "carried"), entry("schedule", "carried"), entry("gates", "approximated"), entry("new", "carried"), entry("pricing", "dropped")]);
    expect(lossChanges(before, after)).toEqual({
      before: { carried: 2, approximated: 1, dropped: 2 },
      after: { carried: 3, approximated: 1, dropped: 1 },
      changes: [
        { field: "`schedule`", from: "dropped", to: "carried" },
        { field: "`tags`", from: "dropped" },
        { field: "`pricing`", to: "dropped" },
      ],
    });
  });

  it("without a report in the last export: the new counts only; without one in the new export: nothing", () => {
    expect(lossChanges(new FileSet(), withReport([entry("name", "carried")]))).toEqual({ after: { carried: 1, approximated: 0, dropped: 0 }, changes: [] });
    expect(lossChanges(withReport([entry("name", "carried")]), new FileSet())).toBeUndefined();
  });
});
