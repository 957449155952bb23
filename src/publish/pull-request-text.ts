// The title and description of an update's pull request: what the update did to each file
// (the plan, conflicts first and flagged) and how the loss report changed, for the developer
// who reviews it. Pure. Paths and reasons pass through the Markdown escaping helpers.
import { mdCode, mdText } from "../export/escape/markdown.js";
import type { FileSet } from "../export/file-set.js";
import type { Ledger } from "../export/ledger.js";
import type { LossChanges, LossCounts } from "../update/loss-changes.js";
import { MARKERS } from "../update/merge.js";
import type { Action, PlanEntry } from "../update/plan.js";
import { VERSION } from "../version.js";

/** GitHub refuses a body over 65,536 characters; rows past this many are counted, not listed. */
const MAX_ROWS = 300;
const ORDER: Action[] = ["conflict", "merge", "create", "update", "remove", "keep"];
const STATUS = { carried: "carried", approximated: "approximated", dropped: "not carried" } as const;

export const shortHash = (ledger: Pick<Ledger, "definition">) => ledger.definition.replace(/^sha256:/, "").slice(0, 12);

/** The team's name and version from an export's provenance copy of its definition (src/<package>/envelope.json). */
export function definitionIdentity(files: FileSet): { name?: string; version?: string } {
  const path = files.paths().find((p) => /^src\/[^/]+\/envelope\.json$/.test(p));
  try {
    const value = JSON.parse(files.text(path ?? "") ?? "null") as { name?: unknown; version?: unknown } | null;
    return { ...(typeof value?.name === "string" ? { name: value.name } : {}), ...(typeof value?.version === "string" ? { version: value.version } : {}) };
  } catch {
    return {};
  }
}

/** "Update Team from its Envelope definition (1.1.0 → 1.2.0)"; the definitions' hashes where the versions do not tell them apart. */
export function pullRequestTitle(last: { ledger: Ledger; files: FileSet }, next: { ledger: Ledger; files: FileSet }): string {
  const [was, now] = [definitionIdentity(last.files), definitionIdentity(next.files)];
  const change = was.version && now.version && was.version !== now.version ? `${was.version} → ${now.version}` : `${shortHash(last.ledger)} → ${shortHash(next.ledger)}`;
  return `Update ${now.name ?? "the project"} from its Envelope definition (${change})`;
}

/** A code span inside a table cell: GitHub splits cells at a pipe even there, unless it is escaped. */
const cellCode = (value: string) => mdCode(value).replace(/\|/g, "\\|");
const cell = (markdown: string) => markdown.replace(/(?<!\\)\|/g, "\\|");

const counted = (c: LossCounts) => `${c.carried} carried, ${c.approximated} approximated, ${c.dropped} not carried`;

export function pullRequestBody(input: { plan: readonly PlanEntry[]; last: Ledger; next: Ledger; defaultBranch: string; base: string; loss?: LossChanges | undefined }): string {
  const { plan, last, next } = input;
  const files = plan.filter((e) => !e.record && e.action !== "unchanged");
  const conflicts = files.filter((e) => e.action === "conflict");
  const out: string[] = [];
  if (conflicts.length) {
    out.push(
      `> [!WARNING]`,
      `> ${conflicts.length === 1 ? "1 file has" : `${conflicts.length} files have`} conflicting changes, committed **with conflict markers** (\`${MARKERS.yours}\` … \`${MARKERS.export}\`): resolve them on this branch before merging. ${conflicts.map((e) => mdCode(e.path)).join(", ")}`,
      "",
    );
  }
  out.push(
    `This updates the project to a new export of its Envelope definition (target ${mdText(next.target)}), the way \`envelope export --out\` updates a local copy: files you did not edit are replaced, files both sides changed are merged line by line, and your own files are not touched. The base of the merge is the last export recorded in \`.envelope/\` (by envelope-export ${mdCode(last.version)}); ${mdCode(input.defaultBranch)} was at ${input.base.slice(0, 7)}.`,
    "",
    "### Files",
    "",
  );
  if (files.length) {
    out.push("| action | path | why |", "|---|---|---|");
    const sorted = ORDER.flatMap((a) => files.filter((e) => e.action === a));
    for (const e of sorted.slice(0, MAX_ROWS)) out.push(`| ${e.action === "conflict" ? "⚠️ **conflict**" : e.action} | ${cellCode(e.path)} | ${mdText(e.reason)} |`);
    if (sorted.length > MAX_ROWS) out.push("", `… and ${sorted.length - MAX_ROWS} more.`);
  } else {
    out.push("Only the export's record in `.envelope/` changes.");
  }
  const unchanged = plan.filter((e) => !e.record && e.action === "unchanged").length;
  out.push("", `${unchanged} other exported file${unchanged === 1 ? "" : "s"} unchanged; \`.envelope/\` records this export.`);
  if (input.loss) {
    const { before, after, changes } = input.loss;
    out.push("", "### Loss report", "", before ? `Last export: ${counted(before)}. This export: ${counted(after)}.` : `This export: ${counted(after)}.`);
    if (changes.length) {
      out.push("", "| field | last export | this export |", "|---|---|---|");
      for (const c of changes.slice(0, MAX_ROWS)) out.push(`| ${cell(c.field)} | ${c.from ? STATUS[c.from] : "—"} | ${c.to ? STATUS[c.to] : "—"} |`);
      if (changes.length > MAX_ROWS) out.push("", `… and ${changes.length - MAX_ROWS} more.`);
    } else if (before) {
      out.push("", "No field is carried differently than in the last export.");
    }
    out.push("", "The whole report is in `ENVELOPE_EXPORT.md`.");
  }
  out.push("", `<sub>Opened by envelope-export ${mdCode(VERSION)}.</sub>`, "");
  return out.join("\n");
}
