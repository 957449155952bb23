// What the CrewAI target does with every definition field — the loss report's rules.
// Ordered: the first matching pattern wins.
import type { FieldRule } from "../../export/loss-report.js";
import { toollessManager } from "../python-common/workspace-view.js";
import { registryRule, SCHEDULE_TYPE_RULE, TEAM_REGISTRY_RULES, WEBHOOK_SECRET_RULE, workspaceRules, escalationRules } from "../python-common/shared-field-rules.js";
import { parsePointer } from "../../read/json-pointer.js";
import { isProvider } from "../../model/providers.js";
import type { TeamModel } from "../../model/types.js";

const agentAt = (pointer: string, model: TeamModel) => model.agents[Number(parsePointer(pointer)[1])]!;

export const CREWAI_FIELD_RULES: readonly FieldRule[] = [
  { pattern: "/$schema", status: "carried", detail: "provenance copy src/<package>/envelope.json" },
  { pattern: "/name", status: "carried", detail: "team.NAME, README title, runner --help" },
  { pattern: "/slug", status: "carried", detail: "pyproject name and the Python package name" },
  { pattern: "/version", status: "carried", detail: "pyproject version and team.VERSION" },
  {
    pattern: "/description",
    // A pipeline has no team task: its steps' tasks are their labels.
    resolve: (_v, _p, model) =>
      model.execution.mode === "hierarchy"
        ? { status: "carried", detail: "pyproject description, README, the team task's description (the run handed to the manager)" }
        : { status: "carried", detail: "pyproject description and README only: no step's task includes it" },
  },
  { pattern: "/readme", status: "carried", detail: "TEAM.md, linked from the README" },
  ...TEAM_REGISTRY_RULES,
  { pattern: "/timeout/runMs", status: "carried", detail: "team.RUN_TIMEOUT_MS: the runner's whole-run deadline (exit 124)" },
  { pattern: "/timeout/agentMs", status: "carried", detail: "team.AGENT_TIMEOUT_MS: LLM timeout and Agent.max_execution_time of agents without modelConfig.timeoutMs" },
  { pattern: "/inputs/*", status: "carried", detail: "team.TeamInputs (a pydantic model): runner flags and --inputs JSON, checked (type, enum, required, default) before any model call" },
  { pattern: "/outputs/*", status: "carried", detail: "team.TeamResult, the pydantic model of the final result" },
  { pattern: "/requiredSecrets", status: "carried", detail: ".env.example (names only); checked at start; usable as {{NAME}} in HTTP requests; redacted from results" },
  { pattern: "/requiredVariables", status: "carried", detail: ".env.example (names only); checked at start; substituted for {{NAME}} at run time" },
  {
    pattern: "/agents/*/key",
    resolve: (_v, pointer, model) => {
      const agent = agentAt(pointer, model);
      return model.execution.mode === "hierarchy" && model.execution.otherRoots.includes(agent.key)
        ? { status: "approximated", detail: `a second top-level agent: it works as a coworker the first root (${model.execution.entryAgent}) can delegate to` }
        : undefined;
    },
  },
  {
    pattern: "/agents/*/reportsToKey",
    resolve: (_v, _p, model) =>
      model.execution.mode === "hierarchy"
        ? { status: "carried", detail: "the manager delegates to its reports (a sub-team tool below the top level)" }
        : { status: "carried", detail: "who a gate's escalation goes to (a pipeline never delegates)" },
  },
  { pattern: "/agents/*/key", status: "carried", detail: "the agent's method in crew.py and its key in config/agents.yaml" },
  { pattern: "/agents/*/name", status: "carried", detail: "CrewAI role" },
  { pattern: "/agents/*/title", status: "carried", detail: "CrewAI goal" },
  { pattern: "/agents/*/role", status: "carried", detail: "CrewAI goal" },
  { pattern: "/agents/*/capabilities", status: "carried", detail: "CrewAI goal" },
  { pattern: "/agents/*/prompt", status: "carried", detail: "the backstory in config/agents.yaml, delivered to the model verbatim after {{NAME}} substitution" },
  {
    pattern: "/agents/*/model",
    resolve: (v) => {
      const provider = typeof v === "string" && v.includes(":") ? v.slice(0, v.indexOf(":")) : "";
      return isProvider(provider)
        ? { status: "carried", detail: "crewai.LLM in models.py" }
        : { status: "approximated", detail: "not a known provider: passed to crewai.LLM as provider/model through LiteLLM" };
    },
  },
  {
    pattern: "/agents/*/modelConfig",
    status: "carried",
    detail: "crewai.LLM in models.py with temperature, max_tokens and timeout",
  },
  {
    pattern: "/agents/*/adapterType",
    resolve: (v) =>
      typeof v === "string" && v.endsWith("_local")
        ? { status: "approximated", detail: `${v} runs a local tool; the export calls the vendor's API instead` }
        : { status: "carried", detail: "http: the model provider's API" },
  },
  ...(["allowedHosts", "accessPolicy"] as const).map(
    (field): FieldRule => ({
      pattern: `/agents/*/${field}`,
      resolve: (_v, pointer, model) => {
        const agent = agentAt(pointer, model);
        const manager = model.execution.mode === "hierarchy" && model.execution.entryAgent === agent.key && agent.children.length > 0;
        return manager
          ? { status: "approximated", detail: "CrewAI allows no tools on a manager: a \"Requests\" coworker holds the manager's http_request tool and policy" }
          : { status: "carried", detail: "config/access_policies.yaml, enforced by the agent's http_request tool" };
      },
    }),
  ),
  registryRule("/agents/*/metadata"),
  { pattern: "/pipeline", status: "carried", detail: "flow.py: a CrewAI Flow step per pipeline step; joins wait for every dependency" },
  {
    pattern: "/gates/*",
    resolve: (_v, _p, model) =>
      model.execution.mode === "hierarchy"
        ? { status: "dropped", detail: "a gate between agents of a hierarchy (no pipeline) has no step boundary to pause at in a CrewAI crew" }
        : undefined,
  },
  { pattern: "/gates/*/recordActions/*/endpointTemplate", status: "dropped", detail: "registry UI endpoint: reviewers decide through the runner's prompt or a decisions file" },
  { pattern: "/gates/*/recordActions/*/style", status: "dropped", detail: "review UI colour; the terminal review has none" },
  { pattern: "/gates/*/recordActions/*/label", status: "carried", detail: "the action's label in the terminal review and the decisions file" },
  { pattern: "/gates/*/recordActions/*/verb", status: "carried", detail: "what the action does (approve, skip, reject, reset)" },
  {
    pattern: "/gates/*/trigger",
    resolve: (v) =>
      v === "scheduled"
        ? { status: "approximated", detail: "scheduled release has no clock here: treated as all_resolved" }
        : { status: "carried", detail: "gate_rules.evaluate decides when the gate releases" },
  },
  ...escalationRules("team.GATES, enforced by gates.py in the flow"),
  {
    pattern: "/gates/*/*",
    // recordActions is listed action by action, field by field (the rules above).
    resolve: (_v, pointer) => (pointer.endsWith("/recordActions") ? undefined : { status: "carried", detail: "team.GATES, enforced by gates.py in the flow" }),
  },
  SCHEDULE_TYPE_RULE,
  { pattern: "/schedule/cron", status: "carried", detail: ".github/workflows/scheduled-run.yml `schedule`, and described in words in the README" },
  { pattern: "/schedule/label", status: "carried", detail: "README" },
  WEBHOOK_SECRET_RULE,
  { pattern: "/schedule/conditionInterval", status: "carried", detail: "team.CONDITION_INTERVAL_S (poll's interval) and the scheduled workflow's cron" },
  { pattern: "/schedule/conditionPrompt", status: "carried", detail: "team.CONDITION_PROMPT, asked by poll with a structured yes/no answer ({{NAME}} of requiredVariables filled)" },
  ...workspaceRules("kept in an embedded SQLite file (.envelope-workspace.sqlite3, or ENVELOPE_WORKSPACE_DB), or in the database DATABASE_URL names", (key, model) =>
    key === toollessManager(model) ? `${key} (held by its "Requests" worker: CrewAI allows no tools on a manager)` : key,
  ),
];
