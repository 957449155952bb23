// Workspace documents in the model (issue 19): which agents get a document's tools, and
// which columns are status columns.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { normalize } from "../src/model/index.js";
import { documentAgents, promptNames, statusColumns, workspaceAgents } from "../src/model/workspace.js";

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
