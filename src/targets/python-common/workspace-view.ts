// What the exported project needs of `workspace` (v1.2) in both Python targets: each
// document's declaration as team.WORKSPACE (workspace.py's DocumentSpec), the agents with
// its tools and the status columns. The rules are src/model/workspace.ts.
import type { TeamModel } from "../../model/types.js";
import { documentAgents, promptNames, statusColumns, TOOL_RULE } from "../../model/workspace.js";

export interface WorkspaceColumnView {
  name: string;
  owner: "agent" | "human" | "both";
  type: "string" | "number" | "boolean";
  id: boolean;
  pii: boolean;
}

export interface WorkspaceDocumentView {
  name: string;
  /** `workspace[i]`, for the comments that point back to the definition. */
  ref: string;
  type: string;
  hasType: boolean;
  columns: WorkspaceColumnView[];
  statusValues: string[];
  statusColumns: string[];
  triggers: Array<{ column: string; status: string; action: "run" | "notify" }>;
  agents: string[];
  /** Whether a prompt names the document (else every agent has its tools). */
  byName: boolean;
  idColumn: string;
  piiColumns: string[];
  hypotheses: number;
}

export interface WorkspaceView {
  has: boolean;
  documents: WorkspaceDocumentView[];
  /** Any trigger at all: `watch` has something to evaluate. */
  hasTriggers: boolean;
  hasRunTriggers: boolean;
  hasNotifyTriggers: boolean;
  toolRule: string;
}

export function workspaceView(model: TeamModel): WorkspaceView {
  const documents = model.workspace.map((d, i): WorkspaceDocumentView => {
    const agents = documentAgents(d, model.agents);
    return {
      name: d.name,
      ref: `workspace[${i}]`,
      type: d.type ?? "",
      hasType: d.type !== undefined,
      columns: d.columns.map((c) => ({ ...c })),
      statusValues: [...d.statusValues],
      statusColumns: statusColumns(d),
      triggers: d.triggers.map((t) => ({ ...t })),
      agents,
      byName: model.agents.some((a) => promptNames(a.prompt.raw, d.name)),
      idColumn: d.columns.find((c) => c.id)?.name ?? "",
      piiColumns: d.columns.filter((c) => c.pii).map((c) => c.name),
      hypotheses: d.hypotheses.length,
    };
  });
  const triggers = documents.flatMap((d) => d.triggers);
  return {
    has: documents.length > 0,
    documents,
    hasTriggers: triggers.length > 0,
    hasRunTriggers: triggers.some((t) => t.action === "run"),
    hasNotifyTriggers: triggers.some((t) => t.action === "notify"),
    toolRule: TOOL_RULE,
  };
}
