// What the LangGraph.js target does with every definition field — the loss report's rules.
// Ordered: the first matching pattern wins. The generic behaviour is envelope-runtime-js's
// (js/envelope-runtime/); the team's data is src/team.ts.
import type { FieldRule } from "../../export/loss-report.js";
import type { TeamModel } from "../../model/types.js";
import { parsePointer } from "../../read/json-pointer.js";
import { descriptiveAgentRules, registryRule, workspaceRules, escalationRules } from "../python-common/shared-field-rules.js";
import { JS_PROVIDERS, inputChannels } from "./view.js";

const agentAt = (pointer: string, model: TeamModel) => model.agents[Number(parsePointer(pointer)[1])]!;
const REGISTRY = "registry-only: no runtime reads it; kept in the provenance copy src/envelope.json";
const registry = (pattern: string): FieldRule => ({ ...registryRule(pattern), detail: REGISTRY });

const providerOf = (v: unknown) => (typeof v === "string" && v.includes(":") ? v.slice(0, v.indexOf(":")) : "");

/** workspace (v1.2): TEAM.workspace, kept in the graph's store and enforced by envelope-runtime-js's Workspace, whoever writes through it (the Python targets' rules, with this target's names). */
const workspaceFieldRules = workspaceRules("in the graph's store (the Agent Server's own; the runner's .envelope-workspace/)", undefined, {
  constant: "TEAM.workspace",
  pii: "masked in `workspace list`/`show`/`export` unless asked; `workspace delete` also deletes the stored runs holding it (--purge-runs: the runner's, or with --url the Agent Server's threads); but agents read it through their tools, so a verbose run and a tracing service show it",
  triggers:
    "`npm start -- watch` (a served team's: `watch --url URL`, on the Agent Server's store, its runs started there): once per status change of a non-archived row, `run` runs the team with the triggering rows in its task, `notify` prints a line (and posts to ENVELOPE_WORKSPACE_WEBHOOK_URL)",
});

export const LANGGRAPH_JS_FIELD_RULES: readonly FieldRule[] = [
  { pattern: "/$schema", status: "carried", detail: "provenance copy src/envelope.json" },
  { pattern: "/name", status: "carried", detail: "TEAM.name in src/team.ts, the README title, the runner's --help" },
  { pattern: "/slug", status: "carried", detail: "package.json name, the compiled graph's name, the graph id in langgraph.json" },
  { pattern: "/version", status: "carried", detail: "package.json version and TEAM.version" },
  {
    pattern: "/description",
    resolve: (_v, _p, model) =>
      model.execution.mode === "hierarchy"
        ? { status: "carried", detail: "package.json description, README, TEAM.description (the team task)" }
        : { status: "carried", detail: "package.json description, README, TEAM.description (in every step's task, after the step's label)" },
  },
  { pattern: "/readme", status: "carried", detail: "TEAM.md, linked from the README" },
  ...["/changelog", "/category", "/tags", "/visibility", "/pricing", "/icon", "/forkable", "/forkedFrom", "/metadata"].map(registry),
  { pattern: "/timeout/runMs", status: "carried", detail: "TEAM.runTimeoutMs: the model work of a run and its resumes (the state's work spans, counted by the graph's nodes wherever it runs; the runner also bounds each invoke with an AbortSignal)" },
  { pattern: "/timeout/agentMs", status: "carried", detail: "each agent's model timeout (TEAM.agents[].timeoutMs) for agents without modelConfig.timeoutMs" },
  {
    pattern: "/inputs/*",
    resolve: (_v, pointer, model) => {
      const key = parsePointer(pointer)[1]!;
      const channel = inputChannels(model.inputs).find((i) => i.key === key)?.channel ?? key;
      return {
        status: "carried",
        detail:
          channel === key
            ? "InputSchema in src/state.ts (the graph's input, Studio's form) and TEAM.inputs: checked (type, enum, required, default) before any model call"
            : `InputSchema in src/state.ts as ${JSON.stringify(channel)} (the graph's state uses the key itself) and TEAM.inputs: checked before any model call`,
      };
    },
  },
  { pattern: "/outputs/*", status: "carried", detail: "ResultSchema in src/state.ts: the `result` of the graph's output, validated in finalize (a default fills a result that leaves the output out)" },
  { pattern: "/requiredSecrets", status: "carried", detail: ".env.example (names only); checked before any model call; usable as {{NAME}} in HTTP requests; redacted from answers, never in graph state or checkpoints" },
  { pattern: "/requiredVariables", status: "carried", detail: ".env.example (names only); checked before any model call; substituted for {{NAME}} at run time" },
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
  { pattern: "/agents/*/key", status: "carried", detail: "TEAM.agents, its field of ContextSchema (its model per run) and MODEL_<AGENT>" },
  {
    pattern: "/agents/*/name",
    resolve: (_v, _p, model) => ({ status: "carried", detail: model.execution.mode === "hierarchy" ? "TEAM.agents (its manager's ask_ tool description) and the README" : "TEAM.agents and the README" }),
  },
  ...descriptiveAgentRules("TEAM.agents: its manager's ask_ tool description", { hierarchy: "the entry agent is nobody's report", pipeline: "a pipeline's agents get no ask_ tools" }),
  { pattern: "/agents/*/prompt", status: "carried", detail: "TEAM.agents[].prompt, the agent's system prompt verbatim after {{NAME}} substitution" },
  {
    pattern: "/agents/*/model",
    resolve: (v) =>
      JS_PROVIDERS.has(providerOf(v))
        ? { status: "carried", detail: "initChatModel (envelope-runtime-js models.ts), created on first use" }
        : { status: "approximated", detail: "not a known provider: passed to initChatModel as written; add its LangChain.js package" },
  },
  {
    pattern: "/agents/*/modelConfig",
    resolve: (v) => {
      const provider = v !== null && typeof v === "object" && "provider" in v ? String(v.provider) : "";
      return JS_PROVIDERS.has(provider)
        ? { status: "carried", detail: "initChatModel with temperature, maxTokens and timeout" }
        : { status: "approximated", detail: "not a known provider: passed to initChatModel as provider:model; add its LangChain.js package" };
    },
  },
  {
    pattern: "/agents/*/adapterType",
    resolve: (v) =>
      typeof v === "string" && v.endsWith("_local")
        ? { status: "approximated", detail: `${v} runs a local tool; the export calls the vendor's API instead` }
        : { status: "carried", detail: "http: the model provider's API" },
  },
  { pattern: "/agents/*/allowedHosts", status: "carried", detail: "TEAM.agents[].policy, enforced by the agent's http_request tool" },
  { pattern: "/agents/*/accessPolicy", status: "carried", detail: "TEAM.agents[].policy, enforced by the agent's http_request tool" },
  registry("/agents/*/metadata"),
  { pattern: "/pipeline", status: "carried", detail: "a StateGraph node per step (TEAM.steps); a join waits for every dependency; parallel steps share a super-step" },
  {
    pattern: "/gates/*",
    resolve: (_v, _p, model) =>
      model.execution.mode === "hierarchy"
        ? { status: "dropped", detail: "a gate between agents of a hierarchy (no pipeline) would pause inside the manager's model conversation, which a resume re-runs: there is no step boundary to interrupt at" }
        : undefined,
  },
  { pattern: "/gates/*/recordActions/*/endpointTemplate", status: "dropped", detail: "registry UI endpoint: reviewers decide through the runner's decisions file or Command({ resume })" },
  { pattern: "/gates/*/recordActions/*/style", status: "dropped", detail: "review UI colour; the runner has none" },
  { pattern: "/gates/*/recordActions/*/label", status: "carried", detail: "the action's label in the interrupt payload and the decisions file" },
  { pattern: "/gates/*/recordActions/*/verb", status: "carried", detail: "what the action does (approve, skip, reject, reset)" },
  {
    pattern: "/gates/*/trigger",
    resolve: (v) =>
      v === "scheduled" ? { status: "approximated", detail: "scheduled release has no clock here: treated as all_resolved" } : { status: "carried", detail: "gates.evaluate decides when the gate node releases" },
  },
  ...escalationRules("TEAM.gates: a gate node with interrupt() after the step"),
  {
    pattern: "/gates/*/*",
    resolve: (_v, pointer) => (pointer.endsWith("/recordActions") ? undefined : { status: "carried", detail: "TEAM.gates: a gate node with interrupt() after the step" }),
  },
  {
    pattern: "/schedule/type",
    resolve: (v) =>
      v === "manual" || v === undefined
        ? { status: "carried", detail: "README: the team runs when you start it" }
        : { status: "approximated", detail: `README only: the LangGraph.js target has no ${String(v)} trigger; start runs yourself (npm start -- run, or the Agent Server's crons)` },
  },
  { pattern: "/schedule/cron", status: "approximated", detail: "README, in words: no scheduled workflow is generated for this target (the Agent Server's crons can run it)" },
  { pattern: "/schedule/label", status: "carried", detail: "README" },
  { pattern: "/schedule/webhookSecret", status: "dropped", detail: "the LangGraph.js target has no webhook receiver (a value is never copied into the export)" },
  { pattern: "/schedule/conditionInterval", status: "dropped", detail: "the LangGraph.js target has no condition poll" },
  { pattern: "/schedule/conditionPrompt", status: "dropped", detail: "the LangGraph.js target has no condition poll" },
  ...workspaceFieldRules,
];
