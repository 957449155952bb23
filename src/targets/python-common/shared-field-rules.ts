// Loss-report rules every Python target states alike. Registry data (what Envelope's
// registry lists: visibility, pricing, tags…) is read by no runtime, in an exported project
// or in Envelope: reported as not carried, never fatal to a strict export. The schedule
// goes to the README, and a cron schedule to the shared scheduled workflow.
import type { FieldRule } from "../../export/loss-report.js";
import type { TeamModel } from "../../model/types.js";
import { parsePointer } from "../../read/json-pointer.js";
import { documentAgents, promptNames } from "../../model/workspace.js";

const REGISTRY = "registry-only: no runtime reads it; kept in the provenance copy src/<package>/envelope.json";

/**
 * An agent's title, role and capabilities: in the README's agents table, and seen by a model
 * only in the ask_ tool its manager holds (LangGraph's hierarchy; a second root's manager is the
 * entry agent). `asked`: where they go for such an agent; `notAsked`: why the entry agent's and
 * a pipeline's agents' reach no model.
 */
export function descriptiveAgentRules(asked: string, notAsked: { hierarchy: string; pipeline: string }): FieldRule[] {
  return ["title", "role", "capabilities"].map((field) => ({
    pattern: `/agents/*/${field}`,
    resolve: (_v: unknown, pointer: string, model: TeamModel) => {
      const execution = model.execution;
      const hierarchy = execution.mode === "hierarchy";
      return execution.mode === "hierarchy" && model.agents[Number(pointer.split("/")[2])]!.key !== execution.entryAgent
        ? { status: "carried" as const, detail: `the README's agents table and ${asked}` }
        : { status: "carried" as const, detail: `the README's agents table (${hierarchy ? notAsked.hierarchy : notAsked.pipeline}, the one place a model would read it)` };
    },
  }));
}

/** An agent's title (role): capabilities, as the LangGraph READMEs' agents tables show it. */
export function agentAbout(a: { title: string; role: string; capabilities: readonly string[] }): string {
  return `${a.title} (${a.role})${a.capabilities.length ? `: ${a.capabilities.join(", ")}` : ""}`;
}

export function registryRule(pattern: string): FieldRule {
  return { pattern, status: "dropped", detail: REGISTRY, registryOnly: true };
}

/** The team's own registry fields. */
export const TEAM_REGISTRY_RULES: readonly FieldRule[] = ["/changelog", "/category", "/tags", "/visibility", "/pricing", "/icon", "/forkable", "/forkedFrom", "/metadata"].map(registryRule);

/** schedule.type: where it goes depends on the value. */
export const SCHEDULE_TYPE_RULE: FieldRule = {
  pattern: "/schedule/type",
  resolve: (v) =>
    v === "event"
      ? { status: "carried", detail: "`<package> serve-webhook`: an HMAC-SHA256-verified webhook receiver that refuses replays and runs the team with the payload as its inputs (README)" }
      : v === "condition"
        ? { status: "carried", detail: "`<package> poll` (and .github/workflows/scheduled-run.yml with `poll --once`): the condition asked of the cheapest declared model, the team run only on yes (README)" }
        : v === "continuous"
          ? { status: "approximated", detail: "declared only: continuous schedules have no behaviour in Envelope v1.1; the team runs when you start it" }
          : v === "cron"
        ? { status: "carried", detail: "README, and .github/workflows/scheduled-run.yml" }
        : { status: "carried", detail: "README: the team runs when you start it" },
};

/**
 * schedule.webhookSecret: carried when it is `{{NAME}}` of a declared secret (normalize's
 * webhookSecretRef); anything else (a variable's name, a literal value, which is never copied)
 * leaves serve-webhook on its own variable, WEBHOOK_SECRET.
 */
export const WEBHOOK_SECRET_RULE: FieldRule = {
  pattern: "/schedule/webhookSecret",
  resolve: (_v, _pointer, model) =>
    model.schedule.type === "event" && model.schedule.webhookSecretRef !== undefined
      ? { status: "carried", detail: `team.WEBHOOK_SECRET_ENV: serve-webhook verifies signatures with the secret ${model.schedule.webhookSecretRef}` }
      : { status: "approximated", detail: "not `{{NAME}}` of a declared secret (a value is never copied into the export): serve-webhook verifies signatures with WEBHOOK_SECRET instead" },
};

/**
 * workspace (v1.2): the documents, kept in `store` (the target's words for it) and enforced
 * by envelope_support/workspace.py whoever writes: agents' tools, `workspace`, imports.
 */
export function workspaceRules(
  store: string,
  holder: (agentKey: string, model: TeamModel) => string = (key) => key,
  // What differs in LangGraph.js: the constant's name, and how pii and triggers are carried there.
  target: { constant?: string; pii?: string; triggers?: string } = {},
): FieldRule[] {
  const constant = target.constant ?? "team.WORKSPACE";
  const document = (pointer: string, model: TeamModel) => model.workspace.find((d) => pointer.startsWith(d.pointer + "/"));
  return [
    {
      pattern: "/workspace/*/name",
      resolve: (_v, pointer, model) => {
        const d = document(pointer, model);
        const agents = d ? documentAgents(d, model.agents) : [];
        const named = d !== undefined && model.agents.some((a) => promptNames(a.prompt.raw, d.name));
        const holders = agents.map((key) => holder(key, model)).join(", ");
        const who = named ? `the agents whose prompt names it: ${holders}` : `every agent (no prompt names it): ${holders}`;
        return { status: "carried", detail: `${constant}, ${store}; its tools (list, read, write rows) go to ${who}` };
      },
    },
    { pattern: "/workspace/*/type", status: "carried", detail: `${constant}, the tools' descriptions and the README` },
    { pattern: "/workspace/*/columns/*/name", status: "carried", detail: `a column of the document's rows (${constant}), in the write tool's arguments` },
    { pattern: "/workspace/*/columns/*/owner", status: "carried", detail: "enforced by the store: agents write only `agent` and `both` columns; a `both` column changes only with the version the agent read (compare-and-set), else the write is reported as a conflict" },
    { pattern: "/workspace/*/columns/*/type", status: "carried", detail: "enforced by the store (a value of another type is refused), and the write tool's argument types" },
    { pattern: "/workspace/*/columns/*/id", status: "carried", detail: "the column's value is the row's id: rows are addressed (and never duplicated) by it" },
    { pattern: "/workspace/*/columns/*/pii", status: "approximated", detail: target.pii ?? "masked in `workspace list`/`show`/`export` unless asked, left out of `watch`'s lines and webhook posts; `workspace delete` also deletes the stored runs holding it (--purge-runs); but agents read it through their tools, so a verbose run or a tracing service shows it" },
    { pattern: "/workspace/*/statusValues", status: "carried", detail: "the store refuses any other value in a status column (a trigger's column, or `status`), with the allowed values in its answer" },
    { pattern: "/workspace/*/triggers", status: "carried", detail: target.triggers ?? "`<package> watch`: once per status change of a non-archived row, `run` runs the team with the triggering rows in its task, `notify` prints a line (and posts to ENVELOPE_WORKSPACE_WEBHOOK_URL)" },
    { pattern: "/workspace/*/hypotheses", status: "dropped", detail: "ignored: notes for people about the document; no runtime reads them (kept in the provenance copy)" },
  ];
}

/**
 * A pipeline gate's onReject or timeout that escalates (every target): `carried` (where the
 * gate goes), then to whom: the gated step agent's reportsToKey, else the first root. When
 * that is the step's own agent nobody else can decide, and the gate halts the run instead.
 */
export function escalationRules(carried: string): FieldRule[] {
  return ["/gates/*/onReject", "/gates/*/timeout"].map((pattern) => ({
    pattern,
    resolve: (v: unknown, pointer: string, model: TeamModel) => {
      const escalates = v === "escalate" || (v as { behaviour?: unknown } | null)?.behaviour === "escalate";
      if (!escalates || model.execution.mode !== "pipeline") return undefined;
      const gate = model.gates[Number(parsePointer(pointer)[1])]!;
      const agent = model.execution.steps.find((s) => s.key === gate.afterStep)?.agentKey;
      const manager = model.agents.find((a) => a.key === agent)?.parent ?? model.agents.find((a) => a.parent === undefined)?.key;
      const to =
        manager === agent
          ? `its escalation would go to step ${gate.afterStep}'s own agent, ${agent} (it reports to nobody and is the first root): nobody else can decide, so the gate halts the run instead (no agent approves its own work)`
          : `escalates to ${manager} (the step agent's reportsToKey, else the first root)`;
      return { status: "carried" as const, detail: `${carried}; ${to}` };
    },
  }));
}
