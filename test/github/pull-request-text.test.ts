// The pull request's title and description, from a plan and the loss report's changes.
import { describe, expect, it } from "vitest";
import { FileSet } from "../../src/export/file-set.js";
import type { Ledger } from "../../src/export/ledger.js";
import { pullRequestBody, pullRequestTitle } from "../../src/publish/pull-request-text.js";
import type { PlanEntry } from "../../src/update/plan.js";

const ledger = (hash: string): Ledger => ({ generator: "envelope-export", version: "0.1.0", target: "crewai", definition: `sha256:${hash.repeat(64).slice(0, 64)}`, files: {} });
const write = { bytes: new Uint8Array(), mode: 0o644 };
const plan: PlanEntry[] = [
  { path: "README.md", action: "merge", reason: "edited in the project and changed by the export: merged", write },
  { path: "src/a|b.py", action: "conflict", reason: "1 conflicting change, marked <<<<<<< yours … >>>>>>> new export", write, conflicts: 1 },
  { path: "old.py", action: "remove", reason: "no longer exported, and never edited" },
  { path: "same.py", action: "unchanged", reason: "already as exported" },
  { path: ".envelope/export.json", action: "update", reason: "the export's record", write, record: true },
];
const provenance = (version: string) => {
  const files = new FileSet();
  files.add("src/desk/envelope.json", JSON.stringify({ name: "Desk", version }));
  return files;
};

describe("pull request text", () => {
  it("the title names the team and both versions, or the definitions' hashes when the version did not change", () => {
    expect(pullRequestTitle({ ledger: ledger("a"), files: provenance("1.0.0") }, { ledger: ledger("b"), files: provenance("1.1.0") })).toBe("Update Desk from its Envelope definition (1.0.0 → 1.1.0)");
    expect(pullRequestTitle({ ledger: ledger("a"), files: provenance("1.0.0") }, { ledger: ledger("b"), files: provenance("1.0.0") })).toBe("Update Desk from its Envelope definition (aaaaaaaaaaaa → bbbbbbbbbbbb)");
    expect(pullRequestTitle({ ledger: ledger("a"), files: new FileSet() }, { ledger: ledger("b"), files: new FileSet() })).toBe("Update the project from its Envelope definition (aaaaaaaaaaaa → bbbbbbbbbbbb)");
  });

  it("the body warns of conflicts first, lists the files (conflicts first, escaped), counts the unchanged, and shows the loss report's changes", () => {
    const body = pullRequestBody({
      plan,
      last: ledger("a"),
      next: ledger("b"),
      defaultBranch: "main",
      base: "0123456789abcdef",
      loss: { before: { carried: 3, approximated: 1, dropped: 1 }, after: { carried: 4, approximated: 1, dropped: 0 }, changes: [{ field: "`schedule`", from: "dropped", to: "carried" }, { field: "`tags`", from: "dropped" }] },
    });
    const lines = body.split("\n");
    expect(lines.slice(0, 2)).toEqual(["> [!WARNING]", "> 1 file has conflicting changes, committed **with conflict markers** (`<<<<<<< yours` … `>>>>>>> new export`): resolve them on this branch before merging. `src/a|b.py`"]);
    expect(body).toContain("`main` was at 0123456.");
    const rows = lines.filter((l) => /^\| (⚠️|merge|remove)/.test(l));
    expect(rows).toEqual([
      "| ⚠️ **conflict** | `src/a\\|b.py` | 1 conflicting change, marked \\<\\<\\<\\<\\<\\<\\< yours … \\>\\>\\>\\>\\>\\>\\> new export |",
      "| merge | `README.md` | edited in the project and changed by the export: merged |",
      "| remove | `old.py` | no longer exported, and never edited |",
    ]);
    expect(body).toContain("1 other exported file unchanged; `.envelope/` records this export.");
    expect(body).not.toContain("same.py");
    expect(body).toContain("Last export: 3 carried, 1 approximated, 1 not carried. This export: 4 carried, 1 approximated, 0 not carried.");
    expect(lines).toContain("| `schedule` | not carried | carried |");
    expect(lines).toContain("| `tags` | not carried | — |");
  });
});
