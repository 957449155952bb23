// Workspace documents in the model (issue 19): which agents get a document's tools, which
// columns are status columns; and what the Python targets make of them (view, loss report).
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normalize } from "../src/model/index.js";
import { runBin } from "./helpers/cli.js";
import { documentAgents, promptNames, statusColumns, workspaceAgents } from "../src/model/workspace.js";
import { buildLossReport } from "../src/export/loss-report.js";
import { CREWAI_FIELD_RULES } from "../src/targets/crewai/field-rules.js";
import { LANGGRAPH_FIELD_RULES } from "../src/targets/langgraph/field-rules.js";
import { toolNames, workspaceView } from "../src/targets/python-common/workspace-view.js";

const leadDesk = normalize(readFileSync(new URL("./fixtures/valid/outbound-lead-desk.envelope.json", import.meta.url))).model!;

describe("workspace tools: who gets them", () => {
  it("every agent whose prompt names the document", () => {
    expect(workspaceAgents(leadDesk)).toEqual([
      { document: "leads", agents: ["lead-researcher", "email-drafter"], byName: true },
      { document: "messaging-experiments", agents: ["email-drafter"], byName: true },
    ]);
  });

  it("all agents when no prompt names it", () => {
    const doc = { ...leadDesk.workspace[0]!, name: "nowhere-named" };
    expect(documentAgents(doc, leadDesk.agents)).toEqual(leadDesk.agents.map((a) => a.key));
  });

  it("a name counts as a whole word only", () => {
    expect(promptNames("Add each person to the 'leads' document.", "leads")).toBe(true);
    expect(promptNames("misleads nobody", "leads")).toBe(false);
    expect(promptNames("the leads-archive", "leads")).toBe(false);
    expect(promptNames("LEADS.", "leads")).toBe(true);
  });
});

describe("workspace status columns", () => {
  it("the trigger columns and a column named status, when statusValues are declared", () => {
    expect(statusColumns(leadDesk.workspace[0]!)).toEqual(["status"]);
    expect(statusColumns(leadDesk.workspace[1]!)).toEqual([]);
    expect(statusColumns({ ...leadDesk.workspace[0]!, statusValues: [] })).toEqual([]);
  });
});

describe("workspace in the exports: the view and the loss report", () => {
  const text = readFileSync(new URL("./fixtures/valid/event-signup-desk.envelope.json", import.meta.url), "utf8");
  const desk = normalize(text).model!;

  it("each document's declaration, agents, status columns and tool names", () => {
    const view = workspaceView(desk, "sqlite");
    expect(view.documents.map((d) => [d.name, d.agents, d.statusColumns, d.idColumn, d.piiColumns, d.tools.write])).toEqual([
      ["attendees", ["screener"], ["status"], "email", ["email", "full_name"], "write_attendees_rows"],
      ["speaker-queue", ["brief-writer"], ["status"], "talk_id", ["speaker_email"], "write_speaker_queue_rows"],
    ]);
    expect([view.hasTriggers, view.hasRunTriggers, view.hasNotifyTriggers, view.langgraphStore]).toEqual([true, true, true, false]);
    expect(workspaceView(desk, "langgraph").langgraphStore).toBe(true);
  });

  it("tool names stay within the 64 characters providers allow, distinct (as workspace.py's tool_ident)", () => {
    const long = "a".repeat(30) + "-" + "b".repeat(29);
    expect(toolNames(long).write).toBe(`write_${"a".repeat(30)}_${"b".repeat(10)}_4bc0c9b3_rows`);
    expect(toolNames(long).write.length).toBeLessThanOrEqual(64);
    expect(toolNames(long).list).not.toBe(toolNames(long.slice(0, -1) + "c").list);
  });

  it.each([
    ["crewai", CREWAI_FIELD_RULES],
    ["langgraph", LANGGRAPH_FIELD_RULES],
  ] as const)("%s: every workspace field carried (pii approximated), hypotheses ignored, who gets the tools said", (_target, rules) => {
    const entries = buildLossReport(JSON.parse(text), rules, desk).filter((e) => e.pointer.startsWith("/workspace"));
    expect(entries.filter((e) => e.status === "dropped").map((e) => e.pointer)).toEqual(["/workspace/1/hypotheses"]);
    // pii: agents read it through their tools, so it is not kept from every log
    expect(entries.filter((e) => e.status === "approximated").map((e) => e.pointer)).toEqual(["/workspace/0/columns/0/pii", "/workspace/0/columns/1/pii", "/workspace/1/columns/1/pii"]);
    expect(entries.find((e) => e.pointer === "/workspace/1/name")?.detail).toContain("the agents whose prompt names it: brief-writer");
    expect(entries.find((e) => e.pointer === "/workspace/0/columns/5/owner")?.status).toBe("carried");
  });

  it("a document no prompt names: every agent, in the report too", () => {
    const def = JSON.parse(text) as { workspace: Array<{ name: string }> };
    def.workspace[0]!.name = "guest-book";
    const model = normalize(JSON.stringify(def)).model!;
    expect(workspaceView(model, "sqlite").documents[0]!.agents).toEqual(["screener", "brief-writer"]);
    const entry = buildLossReport(def, CREWAI_FIELD_RULES, model).find((e) => e.pointer === "/workspace/0/name");
    expect(entry?.detail).toContain("every agent (no prompt names it)");
  });
});

describe("columns named like a row's own fields (issue 34)", () => {
  // A column `created_at` beside the row's own `created_at`: a CSV export headed both alike,
  // and importing it wrote the row's timestamp into the column. Refused before any export.
  const fixture = new URL("./fixtures/invalid/e_workspace_reserved_column-created-at.envelope.json", import.meta.url).pathname;

  it("envelope validate refuses them with the column's pointer and a hint", () => {
    const r = runBin(["validate", fixture]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(`${fixture}:41:19: error E_WORKSPACE_RESERVED_COLUMN column "created_at" has the name of a field every row has`);
    expect(r.stdout).toContain("/workspace/0/columns/5/name");
    expect(r.stdout).toMatch(/hint: the store keeps `id`, `created_at`, `updated_at`, `archived`, `version` itself.*"attendees_created_at"/);
    const json = JSON.parse(runBin(["validate", fixture, "--format", "json"]).stdout) as { files: Array<{ diagnostics: Array<{ code: string; pointer: string }> }> };
    expect(json.files[0]!.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["E_WORKSPACE_RESERVED_COLUMN", "/workspace/0/columns/5/name"]]);
  });

  it.each(["crewai", "langgraph"])("envelope export --target %s refuses them and writes nothing", (target) => {
    const out = join(mkdtempSync(join(tmpdir(), "envelope-reserved-")), "out");
    const r = runBin(["export", fixture, "--target", target, "--out", out]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain("E_WORKSPACE_RESERVED_COLUMN");
    expect(existsSync(out)).toBe(false);
  });
});
