// What the exported project needs of `workspace` (v1.2) in both Python targets: each
// document's declaration as team.WORKSPACE (workspace.py's DocumentSpec), the agents with
// its tools and the status columns. The rules are src/model/workspace.ts.
import { createHash } from "node:crypto";
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
  /** `workspace[i] <name> (type <type>)`: the comment over its declaration in team.py. */
  comment: string;
  type: string;
  hasType: boolean;
  columns: WorkspaceColumnView[];
  statusValues: string[];
  statusColumns: string[];
  triggers: Array<{ column: string; status: string; action: "run" | "notify" }>;
  agents: string[];
  /** CrewAI: the crew's manager among `agents`, whose tools its Requests worker holds ("" when none). */
  managerAgent: string;
  /** Whether a prompt names the document (else every agent has its tools). */
  byName: boolean;
  idColumn: string;
  /** The generated tests' cases: an agent with the tools, a column people own, a status column ("" when none). */
  firstAgent: string;
  humanColumn: string;
  statusColumn: string;
  piiColumns: string[];
  hypotheses: number;
  /** The agents' tool names (workspace.py DocumentTools.names). */
  tools: { list: string; read: string; write: string };
}

export interface WorkspaceView {
  has: boolean;
  documents: WorkspaceDocumentView[];
  /** Any document declares columns: team.py imports `Column` only then. */
  hasColumns: boolean;
  /** Any trigger at all: `watch` has something to evaluate. */
  hasTriggers: boolean;
  hasRunTriggers: boolean;
  hasNotifyTriggers: boolean;
  toolRule: string;
  /** Where the rows are: LangGraph's Store (a SqliteStore) or, for CrewAI, an embedded SQLite file. */
  langgraphStore: boolean;
  /** CrewAI: the stored runs `workspace delete` looks through (workspace_tools.py's RunRecords). */
  runRecords: string;
  /** The store's default file (workspace.py DEFAULT_DB), which the scheduled workflow keeps. */
  dbFile: string;
}

/** As workspace.py's tool_ident: `-` becomes `_`; over 50 characters, cut and told apart by 8 hex digits of SHA-256. */
export function toolIdent(document: string): string {
  const ident = document.replaceAll("-", "_");
  if (ident.length <= 50) return ident;
  return `${ident.slice(0, 41)}_${createHash("sha256").update(document).digest("hex").slice(0, 8)}`;
}

/** As workspace.py's DocumentTools names them. */
export function toolNames(document: string): { list: string; read: string; write: string } {
  const ident = toolIdent(document);
  return { list: `list_${ident}_rows`, read: `read_${ident}_row`, write: `write_${ident}_rows` };
}

/** The workspace tools an agent holds: list, read and write of each document it has. */
export function agentWorkspaceTools(model: TeamModel, agentKey: string): string[] {
  return model.workspace.filter((d) => documentAgents(d, model.agents).includes(agentKey)).flatMap((d) => Object.values(toolNames(d.name)));
}

/** The crew's manager when a CrewAI crew has one (hierarchy mode, the entry agent with reports): it can hold no tools. */
export function toollessManager(model: TeamModel): string | undefined {
  const entry = model.agents.find((a) => model.execution.mode === "hierarchy" && a.key === model.execution.entryAgent);
  return entry && entry.children.length > 0 ? entry.key : undefined;
}

/** `store`: where the target keeps the rows; `managerHoldsNoTools`: CrewAI's rule for a crew's manager. */
export function workspaceView(model: TeamModel, store: "langgraph" | "sqlite", managerHoldsNoTools = false): WorkspaceView {
  const manager = managerHoldsNoTools ? toollessManager(model) : undefined;
  const documents = model.workspace.map((d, i): WorkspaceDocumentView => {
    const agents = documentAgents(d, model.agents);
    return {
      name: d.name,
      ref: `workspace[${i}]`,
      comment: `workspace[${i}] ${d.name}${d.type !== undefined ? ` (type ${d.type})` : ""}`,
      type: d.type ?? "",
      hasType: d.type !== undefined,
      columns: d.columns.map((c) => ({ ...c })),
      statusValues: [...d.statusValues],
      statusColumns: statusColumns(d),
      triggers: d.triggers.map((t) => ({ ...t })),
      agents,
      byName: model.agents.some((a) => promptNames(a.prompt.raw, d.name)),
      idColumn: d.columns.find((c) => c.id)?.name ?? "",
      firstAgent: agents[0] ?? "",
      managerAgent: manager !== undefined && agents.includes(manager) ? manager : "",
      humanColumn: d.columns.find((c) => c.owner === "human")?.name ?? "",
      statusColumn: statusColumns(d)[0] ?? "",
      piiColumns: d.columns.filter((c) => c.pii).map((c) => c.name),
      hypotheses: d.hypotheses.length,
      tools: toolNames(d.name),
    };
  });
  const triggers = documents.flatMap((d) => d.triggers);
  return {
    has: documents.length > 0,
    documents,
    hasColumns: documents.some((d) => d.columns.length > 0),
    hasTriggers: triggers.length > 0,
    hasRunTriggers: triggers.some((t) => t.action === "run"),
    hasNotifyTriggers: triggers.some((t) => t.action === "notify"),
    toolRule: TOOL_RULE,
    langgraphStore: store === "langgraph",
    dbFile: ".envelope-workspace.sqlite3",
    // Plain words: the README renders it as text (md_text), where a backtick is escaped.
    runRecords: `${model.execution.mode === "pipeline" ? "the pipeline runs' state in .envelope-runs/, and " : ""}CrewAI's own record of the latest run's task outputs, which its replay command reads`,
  };
}
