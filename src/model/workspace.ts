// Workspace documents (v1.2) as the exports run them: which agents get a document's tools,
// and which columns hold a status (their values must be declared in `statusValues`).
import type { AgentModel, TeamModel, WorkspaceDocumentModel } from "./types.js";

/** Whether a prompt names the document: its name as a whole word (names are `[a-z0-9-]+`). */
export function promptNames(prompt: string, document: string): boolean {
  const escaped = document.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![A-Za-z0-9_-])${escaped}(?![A-Za-z0-9_-])`, "i").test(prompt);
}

/**
 * The agents that get a document's tools (list, read, write): every agent whose prompt
 * names the document; when no prompt names it, every agent. Definition order.
 */
export function documentAgents(document: WorkspaceDocumentModel, agents: readonly AgentModel[]): string[] {
  const naming = agents.filter((a) => promptNames(a.prompt.raw, document.name));
  return (naming.length ? naming : agents).map((a) => a.key);
}

/** The rule documentAgents applies, in words (README, loss report). */
export const TOOL_RULE = "an agent gets a document's tools when its prompt names the document; when no prompt names it, every agent gets them";

/**
 * A document's status columns: the columns its triggers name, and a column called `status`;
 * none without `statusValues` (then nothing is a status).
 */
export function statusColumns(document: WorkspaceDocumentModel): string[] {
  if (document.statusValues.length === 0) return [];
  const named = new Set([...document.triggers.map((t) => t.column), ...(document.columns.some((c) => c.name === "status") ? ["status"] : [])]);
  return document.columns.filter((c) => named.has(c.name)).map((c) => c.name);
}

/** Per document, the agents with its tools (documentAgents). */
export function workspaceAgents(model: TeamModel): Array<{ document: string; agents: string[]; byName: boolean }> {
  return model.workspace.map((d) => ({ document: d.name, agents: documentAgents(d, model.agents), byName: model.agents.some((a) => promptNames(a.prompt.raw, d.name)) }));
}
