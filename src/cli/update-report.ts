// How `envelope export --out DIR` (or --github OWNER/NAME) reports an update of an earlier export: one line per file
// it touches or keeps on purpose (unchanged files are counted, not listed), then a summary,
// and in --json the plan itself.
import type { Ledger } from "../export/ledger.js";
import type { Action, PlanEntry } from "../update/plan.js";

const SHOWN: Action[] = ["create", "update", "merge", "conflict", "remove", "keep"];

export function counts(plan: readonly PlanEntry[]): Record<Action, number> {
  const out = { create: 0, update: 0, merge: 0, conflict: 0, remove: 0, keep: 0, unchanged: 0 } as Record<Action, number>;
  for (const e of plan) if (!e.record) out[e.action]++;
  return out;
}

/** plan: --plan or a dry run; applied: written to --out; pull-request: committed to a branch of a repository. */
export type ReportMode = "plan" | "applied" | "pull-request";

export function planText(dir: string, plan: readonly PlanEntry[], ledger: Ledger, mode: ReportMode): string {
  const writes = plan.some((e) => !e.record && (e.write !== undefined || e.action === "remove"));
  const head = mode === "plan" ? "update plan for" : !writes ? "nothing to update in" : mode === "applied" ? "updated" : "pull request for";
  const lines = [`${head} ${dir} (last exported by envelope-export ${ledger.version}, target ${ledger.target}):`];
  const files = plan.filter((e) => !e.record);
  for (const action of SHOWN) {
    for (const e of files.filter((f) => f.action === action)) lines.push(`  ${action.padEnd(9)} ${e.path}${action === "create" || action === "update" || action === "remove" ? "" : `  (${e.reason})`}`);
  }
  const c = counts(plan);
  for (const [library, paths] of vendoredEdits(plan)) {
    lines.push(
      `${library}, the runtime library vendored in vendor/${library}/, was itself edited in this project (${paths.length} file${paths.length === 1 ? "" : "s"}): your edits are kept on the new export's copy as listed above. The library's own changes belong upstream; an export with --runtime index would not carry them.`,
    );
  }
  const summary = SHOWN.filter((a) => c[a]).map((a) => `${c[a]} ${a === "keep" ? "kept" : a === "conflict" ? (c[a] === 1 ? "conflict" : "conflicts") : `${a}${a.endsWith("e") ? "d" : "ed"}`}`);
  lines.push(`${summary.length ? summary.join(", ") : "nothing to change"}; ${c.unchanged} unchanged.`);
  if (c.conflict) {
    lines.push(
      mode === "plan"
        ? "the update would leave conflicts to resolve (exit 4 when it is run)."
        : mode === "applied"
          ? "resolve the conflicts (the <<<<<<< yours … >>>>>>> new export markers), then review and commit; nothing was committed."
          : "the conflicting files are committed with their markers (<<<<<<< yours … >>>>>>> new export): resolve them on the branch before merging.",
    );
  } else if (mode === "applied" && files.some((e) => e.write || e.action === "remove")) {
    lines.push("review the changes and commit them; nothing was committed.");
  }
  return lines.join("\n") + "\n";
}

export function planJson(plan: readonly PlanEntry[], ledger: Ledger, applied: boolean): unknown {
  return {
    applied,
    lastExport: { version: ledger.version, target: ledger.target, definition: ledger.definition },
    counts: counts(plan),
    files: plan.filter((e) => !e.record && e.action !== "unchanged").map((e) => ({ path: e.path, action: e.action, reason: e.reason, ...(e.conflicts ? { conflicts: e.conflicts } : {}) })),
    vendoredLibrariesEdited: Object.fromEntries(vendoredEdits(plan)),
  };
}

/**
 * The vendored libraries (vendor/<name>/) whose files the developer edited, deleted or added
 * to: such a file is kept and merged like any other, and the update says so, since it is the
 * library itself and not the team that changed.
 */
export function vendoredEdits(plan: readonly PlanEntry[]): Map<string, string[]> {
  const edited = new Map<string, string[]>();
  for (const e of plan) {
    const library = /^vendor\/([^/]+)\//.exec(e.path)?.[1];
    if (!library || e.record || !(e.action === "merge" || e.action === "conflict" || e.action === "keep")) continue;
    edited.set(library, [...(edited.get(library) ?? []), e.path]);
  }
  return edited;
}
