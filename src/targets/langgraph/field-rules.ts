// What the LangGraph target does with every definition field — the loss report's rules.
// Ordered: the first matching pattern wins.
import type { FieldRule } from "../../export/loss-report.js";
import { descriptiveAgentRules, registryRule, SCHEDULE_TYPE_RULE, TEAM_REGISTRY_RULES, WEBHOOK_SECRET_RULE, workspaceRules, escalationRules } from "../python-common/shared-field-rules.js";
import { parsePointer } from "../../read/json-pointer.js";
import type { TeamModel } from "../../model/types.js";
import { langchainProvider } from "./providers.js";
import { inputChannels } from "./view.js";

const agentAt = (pointer: string, model: TeamModel) => model.agents[Number(parsePointer(pointer)[1])]!;

/** Each input's channel, computed once per model: the rule runs once per input (n inputs, not n²). */
const channels = new WeakMap<TeamModel, Map<string, string>>();
function channelOf(model: TeamModel, key: string): string {
  let byKey = channels.get(model);
  if (!byKey) channels.set(model, (byKey = new Map(inputChannels(model.inputs).map((i) => [i.key, i.channel]))));
  return byKey.get(key) ?? key;
}

export const LANGGRAPH_FIELD_RULES: readonly FieldRule[] = [
  { pattern: "/$schema", status: "carried", detail: "provenance copy src/<package>/envelope.json" },
  { pattern: "/name", status: "carried", detail: "team.NAME, README title, runner --help" },
  { pattern: "/slug", status: "carried", detail: "pyproject name, the Python package name, the graph id in langgraph.json, the compiled graph's name (team.SLUG)" },
  { pattern: "/version", status: "carried", detail: "pyproject version and team.VERSION" },
  {
    pattern: "/description",
    // Only a hierarchy's team task reads team.DESCRIPTION; a pipeline's step tasks are their labels.
    resolve: (_v, _p, model) =>
      model.execution.mode === "hierarchy"
        ? { status: "carried", detail: "pyproject description, README, team.DESCRIPTION (the team task)" }
        : { status: "carried", detail: "pyproject description, README and team.DESCRIPTION, which a pipeline does not read: no step's task includes it" },
  },
  { pattern: "/readme", status: "carried", detail: "TEAM.md, linked from the README" },
  ...TEAM_REGISTRY_RULES,
  { pattern: "/timeout/runMs", status: "carried", detail: "team.RUN_TIMEOUT_MS: the runner's whole-run limit, model time summed over run and resumes (exit 124)" },
  { pattern: "/timeout/agentMs", status: "carried", detail: "team.AGENT_TIMEOUT_MS: model timeout and step-node timeout of agents without modelConfig.timeoutMs" },
  {
    pattern: "/inputs/*",
    resolve: (_v, pointer, model) => {
      const key = parsePointer(pointer)[1]!;
      const channel = channelOf(model, key);
      return {
        status: "carried",
        detail:
          channel === key
            ? "state.TeamInputs (the graph's flat input, Studio's form) and team.INPUTS: runner flags and --inputs JSON, checked (type, enum, required, default) before any model call"
            : `state.TeamInputs as ${JSON.stringify(channel)} (the graph's state uses the key itself; state.INPUT_CHANNELS) and team.INPUTS: runner flags and --inputs JSON, checked before any model call`,
      };
    },
  },
  { pattern: "/outputs/*", status: "carried", detail: "state.TeamResult, the typed final result: `result` of the graph's output (state.TeamOutput, with its status)" },
  { pattern: "/requiredSecrets", status: "carried", detail: ".env.example (names only); checked at start; usable as {{NAME}} in HTTP requests; never in graph state or checkpoints" },
  { pattern: "/requiredVariables", status: "carried", detail: ".env.example (names only); checked at start; substituted for {{NAME}} at run time" },
  {
    pattern: "/agents/*/key",
    resolve: (_v, pointer, model) => {
      const agent = agentAt(pointer, model);
      return model.execution.mode === "hierarchy" && model.execution.otherRoots.includes(agent.key)
        ? { status: "approximated", detail: `a second top-level agent: it becomes a report (an ask_ tool) of the first root, ${model.execution.entryAgent}, which runs the team` }
        : undefined;
    },
  },
  {
    pattern: "/agents/*/reportsToKey",
    resolve: (_v, _p, model) =>
      model.execution.mode === "hierarchy"
        ? { status: "carried", detail: "the manager's ask_<report> tools (agent-as-tool, recursively)" }
        : { status: "carried", detail: "who a gate's escalation goes to (a pipeline never delegates)" },
  },
  { pattern: "/agents/*/key", status: "carried", detail: "team.AGENTS, models.MODELS, its field of context.Context (its model per run) and prompts/<key>.txt" },
  {
    pattern: "/agents/*/name",
    // Only a report's ask_ tool shows a model the description; the entry agent and a pipeline's agents have none.
    resolve: (_v, pointer, model) =>
      model.execution.mode === "hierarchy" && agentAt(pointer, model).key !== model.execution.entryAgent
        ? { status: "carried", detail: "the agent's description in team.AGENTS (its manager's ask_ tool) and the README" }
        : { status: "carried", detail: `team.AGENTS and the README (${model.execution.mode === "hierarchy" ? "the entry agent is no one's ask_ tool" : "a pipeline's agents are no one's ask_ tool"}: no model reads it)` },
  },
  ...descriptiveAgentRules("the agent's description in team.AGENTS: its manager's ask_ tool", { hierarchy: "the entry agent is no one's ask_ tool", pipeline: "a pipeline's agents are no one's ask_ tool" }),
  { pattern: "/agents/*/prompt", status: "carried", detail: "prompts/<key>.txt, the agent's system prompt verbatim after {{NAME}} substitution" },
  {
    pattern: "/agents/*/model",
    resolve: (v) => {
      const provider = typeof v === "string" && v.includes(":") ? v.slice(0, v.indexOf(":")) : "";
      return langchainProvider(provider)
        ? { status: "carried", detail: "init_chat_model in models.py / llms.py, created on first use" }
        : { status: "approximated", detail: "not a known provider: passed to init_chat_model as written; add its LangChain package" };
    },
  },
  {
    pattern: "/agents/*/modelConfig",
    resolve: (v) => {
      const provider = v !== null && typeof v === "object" && "provider" in v ? String(v.provider) : "";
      return langchainProvider(provider)
        ? { status: "carried", detail: "init_chat_model in models.py with temperature, max_tokens and timeout" }
        : { status: "approximated", detail: "not a known provider: passed to init_chat_model as provider:model; add its LangChain package" };
    },
  },
  {
    pattern: "/agents/*/adapterType",
    resolve: (v) =>
      typeof v === "string" && v.endsWith("_local")
        ? { status: "approximated", detail: `${v} runs a local tool; the export calls the vendor's API instead` }
        : { status: "carried", detail: "http: the model provider's API" },
  },
  { pattern: "/agents/*/allowedHosts", status: "carried", detail: "team.POLICIES, enforced by the agent's http_request tool" },
  { pattern: "/agents/*/accessPolicy", status: "carried", detail: "team.POLICIES, enforced by the agent's http_request tool" },
  registryRule("/agents/*/metadata"),
  { pattern: "/pipeline", status: "carried", detail: "graph.py: a StateGraph node per step; a join waits for every dependency; parallel steps share a super-step" },
  {
    pattern: "/gates/*",
    resolve: (_v, _p, model) =>
      model.execution.mode === "hierarchy"
        ? { status: "dropped", detail: "a gate between agents of a hierarchy (no pipeline) would pause inside the manager's model conversation, which a resume re-runs: there is no step boundary to interrupt at" }
        : undefined,
  },
  { pattern: "/gates/*/recordActions/*/endpointTemplate", status: "dropped", detail: "registry UI endpoint: reviewers decide through the runner's prompt, a decisions file or Command(resume=...)" },
  { pattern: "/gates/*/recordActions/*/style", status: "dropped", detail: "review UI colour; the terminal review has none" },
  { pattern: "/gates/*/recordActions/*/label", status: "carried", detail: "the action's label in the interrupt payload, the terminal review and the decisions file" },
  { pattern: "/gates/*/recordActions/*/verb", status: "carried", detail: "what the action does (approve, skip, reject, reset)" },
  {
    pattern: "/gates/*/trigger",
    resolve: (v) =>
      v === "scheduled"
        ? { status: "approximated", detail: "scheduled release has no clock here: treated as all_resolved" }
        : { status: "carried", detail: "gate_rules.evaluate decides when the gate node releases" },
  },
  ...escalationRules("team.GATES: a gate node with interrupt() after the step (graph.py), rules in gates.py"),
  {
    pattern: "/gates/*/*",
    // recordActions is listed action by action, field by field (the rules above).
    resolve: (_v, pointer) =>
      pointer.endsWith("/recordActions") ? undefined : { status: "carried", detail: "team.GATES: a gate node with interrupt() after the step (graph.py), rules in gates.py" },
  },
  SCHEDULE_TYPE_RULE,
  { pattern: "/schedule/cron", status: "carried", detail: ".github/workflows/scheduled-run.yml `schedule`, and described in words in the README" },
  { pattern: "/schedule/label", status: "carried", detail: "README" },
  WEBHOOK_SECRET_RULE,
  { pattern: "/schedule/conditionInterval", status: "carried", detail: "team.CONDITION_INTERVAL_S (poll's interval) and the scheduled workflow's cron" },
  { pattern: "/schedule/conditionPrompt", status: "carried", detail: "team.CONDITION_PROMPT, asked by poll with a structured yes/no answer ({{NAME}} of requiredVariables filled)" },
  // Served, the rows are in the server's store (langgraph.json names none); the runner's are local.
  ...workspaceRules("kept in LangGraph's Store: the Agent Server's own store when served (`langgraph dev`, a deployment), else the runner's: PostgreSQL with DATABASE_URL, otherwise a SqliteStore on .envelope-workspace.sqlite3 (ENVELOPE_WORKSPACE_DB)"),
];
