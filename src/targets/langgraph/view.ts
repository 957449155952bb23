// TeamModel → the view the LangGraph templates render. All decisions about LangGraph live
// here; templates only lay text out, and every value they print passes an escaping helper.
import type { RuntimeChoice } from "../../export/target.js";
import { runtimeView, type RuntimeView } from "../python-common/runtime-library.js";
import type { TeamConnections } from "../../connections/connections.js";
import { connectionsView, type ConnectionsView } from "../python-common/connections-view.js";
import { type ScheduleView, scheduleView } from "../python-common/schedule-view.js";
import { agentWorkspaceTools, type WorkspaceView, workspaceView } from "../python-common/workspace-view.js";
import { agentAbout } from "../python-common/shared-field-rules.js";
import type { LossEntry } from "../../export/loss-report.js";
import type { AgentModel, GateModel, StepModel, TeamModel } from "../../model/types.js";
import { Namespace, toSnake } from "../../model/namer.js";
import { PYTHON_BUILTINS, PYTHON_KEYWORDS } from "../../model/reserved-words.js";
import {
  finalStepOf,
  flaggedInputsView,
  runCommandView,
  workflowEnvNames,
  MAX_REVIEW_ROUNDS,
  gatesView,
  lossSummary,
  modelSourceOf,
  outputsView,
  recordStepsOf,
  scheduleWords,
  specCommentOf,
  workflowTimeoutMinutes,
  type FlaggedInputView,
  type GateView,
  type LossSummary,
  type OutputView,
  type RecordStepView,
} from "../python-common/team-view.js";
import { DEFAULT_PROVIDER, LANGCHAIN_PROVIDERS, langchainModelId, langchainProvider } from "./providers.js";
import { type ModelEnvView, modelEnvView } from "../python-common/model-env-view.js";
import { VERSION } from "../../version.js";

export interface PolicyRuleView {
  ref: string;
  fields: Array<{ name: string; value: string | string[]; list: boolean }>;
}

export interface AgentView {
  key: string;
  ident: string;
  /** `agents[1] billing-specialist` — for comments pointing back to the definition. */
  ref: string;
  name: string;
  /** What the agent is for, as its manager's `ask_<ident>` tool describes it. */
  description: string;
  /** Its title (role) and capabilities, for the README's agents table. */
  about: string;
  model?: string;
  modelSource: string;
  temperature?: number;
  maxTokens?: number;
  timeoutS: number;
  /** The agent's manager in the running team (several roots: the others report to the first). */
  reportsTo?: string;
  /**
   * Hierarchy mode: the nodes from the team's graph down to the agent's own node, e.g.
   * `team`, `ask-billing_lead`, `billing_lead` (hierarchy.py: a report's graph is the node
   * `ask-<ident>` of its manager's graph, the agent itself the node `<ident>` of its own).
   */
  graphPath?: string[];
  /** The tools the agent holds (agents.py): http_request with egress, its connection packs' tools, its workspace documents' (list, read, write), then in hierarchy mode `ask_<report>` per report. */
  tools: string[];
  hasEgress: boolean;
  egressSource: AgentModel["egress"]["source"];
  defaultAction: "allow" | "deny";
  allowedHosts?: string[];
  rules: PolicyRuleView[];
}

export interface StepView extends StepModel {
  ref: string;
  agentIdent: string;
  label: string;
  node: string;
  /** Node names this step's node waits for (one edge, or one list edge: a join). */
  waitsFor: string[];
  /** The same, as the README diagram's node ids (s_<step>, g_<gate>). */
  diagramFrom: string[];
  /** Gate nodes a gated step routes to with Command(goto=...); empty: static edges. */
  gateNodes: string[];
  /** The gates reviewing this step, in definition order (graph.py adds them after it). */
  reviewedBy: GateNodeView[];
  comment: string;
  /** team.py's comment: the step, and how its dependencies were given. */
  specComment: string;
  /** Where the step's incoming edge comes from in the definition. */
  edgeComment: string;
}

export interface GateNodeView extends GateView {
  node: string;
  escalateNode: string;
  releasedNode: string;
  /** Needs an escalation node: onReject escalate or timeout.behaviour escalate. */
  escalates: boolean;
  /** Where the gate node may route (Command goto): itself, released, rerun, escalate; END is added by the template. */
  destinations: string[];
}

/** One input of the graph's flat input schema (state.TeamInputs). */
export interface InputChannelView extends FlaggedInputView {
  /** Its key in the graph's input (a LangGraph channel): the key as written, unless the graph uses that name itself. */
  channel: string;
  renamed: boolean;
}

/** One field of context.Context: the model of one agent for a run. */
export interface ContextFieldView {
  /** The agent's identifier (the model's namer), a dataclass field name. */
  ident: string;
  key: string;
  ref: string;
}

export interface LanggraphView extends ModelEnvView {
  package: string;
  /** envelope-runtime: the exact pin, and whether its source is vendored (--runtime). */
  runtime: RuntimeView;
  /** envelope-export's version: the support sub-package's version line. */
  generatorVersion: string;
  distribution: string;
  team: TeamModel["team"];
  mode: "hierarchy" | "pipeline";
  agents: AgentView[];
  entryAgent?: AgentView;
  steps: StepView[];
  gates: GateNodeView[];
  hasGates: boolean;
  /** Some agent has egress: the export ships policy.py and tools.py (the http_request tool). */
  anyEgress: boolean;
  gatesDropped: boolean;
  /** Nodes that join into `finalize`. */
  sinks: string[];
  inputs: InputChannelView[];
  /** The inputs a run must be given: required, without a default (tests/test_team_graph.py). */
  requiredInputs: string[];
  /** The inputs whose key the graph's input cannot use as is (INPUT_CHANNELS). */
  renamedInputs: InputChannelView[];
  outputs: OutputView[];
  /** context.Context: one model field per agent, and the field for every agent at once. */
  contextFields: ContextFieldView[];
  contextAllField: string;
  /** README: a flat input (its first key) and a run choosing one agent's model. */
  inputExample?: string;
  contextExample: string;
  outputsAliased: boolean;
  /** The typing names state.py uses beyond the fixed ones. */
  stateTyping: string[];
  needsConfigDict: boolean;
  needsRecordAction: boolean;
  needsPolicyRule: boolean;
  finalStep: string;
  recordSteps: RecordStepView[];
  agentIdents: Record<string, string>;
  stepIdents: Record<string, string>;
  secrets: string[];
  variables: string[];
  providerKeys: Array<{ keys: string[]; label: string; agents: string }>;
  needsDefaultModel: boolean;
  defaultModelAgents: string;
  /** Exactly the LangChain integration packages the team's models need. */
  providerPackages: string[];
  runTimeoutMs: number;
  agentTimeoutMs: number;
  timeoutsDefaulted: boolean;
  recursionLimit: number;
  schedule: TeamModel["schedule"];
  hasCron: boolean;
  /** schedule.type event / condition: the webhook receiver and the condition poll (schedule-view.ts). */
  schedules: ScheduleView;
  /** workspace (v1.2): the documents, their store and tools (workspace-view.ts). */
  workspace: WorkspaceView;
  /** --connections: the packs' OpenAPI tools and which agent has them (connections-view.ts). */
  connections: ConnectionsView;
  /** A declared schedule other than cron, in words for the README (empty when none was declared). */
  scheduleWords: string;
  envNames: string[];
  /** Where runs are kept (the runner's --state-dir default): the scheduled workflow keeps it. */
  stateDir: string;
  maxReviewRounds: number;
  /** tests/test_team_run.py: the agents a whole run calls (a pipeline's step agents; a hierarchy's every agent, through the ask tools). */
  runAgents: AgentView[];
  /** tests/test_team_run.py: how often its offline run reviews each gate: twice where rejected records go back (onReject rerun/escalate, a reject action), else once. */
  gateReviews: Array<{ ref: string; name: string; count: number }>;
  /** Whether any gate has a timeout (README: when timeouts apply). */
  gateTimeouts: boolean;
  inputsOutsideCommand: string[];
  needsInputs: boolean;
  workflowTimeoutMinutes: number;
  loss: LossSummary;
}

function descriptionOf(a: AgentModel): string {
  const caps = a.capabilities.length ? ` Capabilities: ${a.capabilities.join(", ")}.` : "";
  return `${a.name}: ${a.title} (${a.role}).${caps}`;
}

function rulesOf(a: AgentModel): PolicyRuleView[] {
  return a.egress.rules.map((r, j) => ({
    ref: `rules[${j}]`,
    // The present keys, in the order people write them.
    fields: [
      ...(r.host !== undefined ? [{ name: "host", value: r.host, list: false }] : []),
      ...(r.methods !== undefined ? [{ name: "methods", value: r.methods, list: true }] : []),
      ...(r.pathPrefix !== undefined ? [{ name: "path_prefix", value: r.pathPrefix, list: false }] : []),
      { name: "action", value: r.action, list: false },
      ...(r.reason !== undefined ? [{ name: "reason", value: r.reason, list: false }] : []),
    ],
  }));
}

export function buildView(model: TeamModel, loss: LossEntry[], connections?: TeamConnections, runtime?: RuntimeChoice): LanggraphView {
  const pipeline = model.execution.mode === "pipeline";
  const entry = model.execution.mode === "hierarchy" ? model.execution.entryAgent : undefined;
  const otherRoots = new Set(model.execution.mode === "hierarchy" ? model.execution.otherRoots : []);
  // The connection packs' tools an agent's graph holds when it is built (connection_tools.py), in the order
  // agents.py adds them: an MCP server's are not among them (listed on the agent's first model call, McpTools).
  const packs = connectionsView(connections);
  const packTools = (key: string) =>
    (packs.agents.find((a) => a.key === key)?.providers ?? []).flatMap((p) => packs.packs.find((x) => x.provider === p)?.operations.map((o) => o.tool) ?? []);
  const agents: AgentView[] = model.agents.map((a) => {
    const view: AgentView = {
      key: a.key,
      ident: a.ident,
      ref: `agents[${a.index}] ${a.key}`,
      name: a.name,
      description: descriptionOf(a),
      about: agentAbout(a),
      modelSource: a.llm ? modelSourceOf(a) : "no model: MODEL, else llms.DEFAULT_MODEL",
      timeoutS: a.timeoutMs / 1000,
      // Every declared policy is shipped and enforced, even one that allows nothing (an empty
      // allowedHosts, deny rules only): the tool then refuses each request with its reason.
      hasEgress: a.egress.source !== "none",
      egressSource: a.egress.source,
      defaultAction: a.egress.defaultAction,
      rules: rulesOf(a),
      tools: [...(a.egress.source !== "none" ? ["http_request"] : []), ...packTools(a.key), ...agentWorkspaceTools(model, a.key)],
    };
    if (a.egress.source === "allowedHosts") view.allowedHosts = a.egress.rules.map((r) => r.host!);
    if (a.llm) {
      view.model = langchainModelId(a.llm);
      if (a.llm.temperature !== undefined) view.temperature = a.llm.temperature;
      if (a.llm.maxTokens !== undefined) view.maxTokens = a.llm.maxTokens;
    }
    // Several roots (no pipeline): the first root runs the team and the others report to it.
    if (a.parent !== undefined) view.reportsTo = a.parent;
    else if (otherRoots.has(a.key) && entry !== undefined) view.reportsTo = entry;
    return view;
  });
  const agentByKey = new Map(agents.map((a) => [a.key, a]));
  if (entry !== undefined) {
    const unitPath = (a: AgentView): string[] => (a.reportsTo === undefined ? ["team"] : [...unitPath(agentByKey.get(a.reportsTo)!), `ask-${a.ident}`]);
    for (const a of agents) a.graphPath = [...unitPath(a), a.ident];
    // Each manager's ask_ tools, its reports in the team's order (grouped once: a filter per agent is quadratic).
    const asks = new Map<string, string[]>();
    for (const r of agents) {
      if (r.reportsTo === undefined) continue;
      const list = asks.get(r.reportsTo);
      if (list) list.push(`ask_${r.ident}`);
      else asks.set(r.reportsTo, [`ask_${r.ident}`]);
    }
    for (const a of agents) a.tools.push(...(asks.get(a.key) ?? []));
  }
  const gates: GateNodeView[] = pipeline ? gateNodes(model) : [];
  const steps = pipeline ? stepViews(model, gates, agentByKey) : [];
  const used = model.agents.filter((a) => a.llm);
  const withoutModel = model.agents.filter((a) => !a.llm);
  const providers = [...new Set([...used.map((a) => a.llm!.provider), ...(withoutModel.length ? [DEFAULT_PROVIDER] : [])])];
  const providerKeys = providers
    .map((p) => {
      const keys = langchainProvider(p)?.keys ?? [];
      const users = p === DEFAULT_PROVIDER && withoutModel.length ? [...used.filter((a) => a.llm!.provider === p), ...withoutModel] : used.filter((a) => a.llm!.provider === p);
      return { keys, label: keys.join(" or "), agents: users.map((a) => a.key).join(", ") };
    })
    .filter((p) => p.keys.length > 0);
  const providerPackages = providers.flatMap((p) => (langchainProvider(p) ? [langchainProvider(p)!.package] : [])).sort();
  const modelEnv = modelEnvView(
    model,
    providers,
    Object.fromEntries(Object.entries(LANGCHAIN_PROVIDERS).map(([p, c]) => [p, c.baseUrlEnv])),
    // An agent redirected to another provider needs that provider's package: one extra each.
    Object.entries(LANGCHAIN_PROVIDERS).flatMap(([p, c]) => (providerPackages.includes(c.package) ? [] : [{ name: p, requirement: c.package }])),
  );
  const recordSteps = recordStepsOf(model);
  const outputs = outputsView(model);
  const inputs = inputChannels(flaggedInputsView(model));
  const view: LanggraphView = {
    package: model.names.package,
    runtime: runtimeView("langgraph", runtime),
    generatorVersion: VERSION,
    distribution: model.names.distribution,
    team: model.team,
    mode: model.execution.mode,
    agents,
    steps,
    gates,
    hasGates: gates.length > 0,
    anyEgress: agents.some((a) => a.hasEgress),
    gatesDropped: !pipeline && model.gates.length > 0,
    sinks: steps.filter((s) => s.dependents.length === 0 && s.gatesAfter.length === 0).map((s) => s.node),
    inputs,
    renamedInputs: inputs.filter((i) => i.renamed),
    requiredInputs: inputs.filter((i) => i.required && !i.hasDefault).map((i) => i.key),
    ...runCommandView(inputs),
    outputs,
    contextFields: agents.map((a) => ({ ident: a.ident, key: a.key, ref: a.ref })),
    contextAllField: contextAllField(agents),
    ...(inputs.length ? { inputExample: `{${JSON.stringify(inputs[0]!.channel)}: …}` } : {}),
    contextExample: `client.runs.wait(thread_id, assistant_id, input=…, context={"${agents[0]!.ident}": "openai:gpt-4.1"})`,
    outputsAliased: outputs.some((o) => o.aliased),
    stateTyping: [
      "Annotated",
      "Any",
      // TeamOutput: status is a Literal
      "Literal",
      // TypedDict comes from typing_extensions (state.py.hbs): pydantic refuses typing's on
      // Python < 3.12, which left the server's input/output schemas null under langgraph dev.
    ],
    needsConfigDict: outputs.some((o) => o.aliased) || recordSteps.some((r) => r.aliased),
    needsRecordAction: gates.some((g) => g.recordActions.length > 0),
    // An accessPolicy may have no rules (the schema makes them optional): then team.py
    // writes rules=() and must not import PolicyRule.
    needsPolicyRule: agents.some((a) => a.egressSource === "accessPolicy" && a.rules.length > 0),
    finalStep: finalStepOf(model),
    recordSteps,
    agentIdents: Object.fromEntries(agents.map((a) => [a.key, a.ident])),
    stepIdents: Object.fromEntries(steps.map((s) => [s.key, s.ident])),
    secrets: model.secrets.map((s) => s.name),
    variables: model.variables.map((v) => v.name),
    providerKeys,
    needsDefaultModel: withoutModel.length > 0,
    defaultModelAgents: withoutModel.map((a) => `agents[${a.index}] ${a.key}`).join(", "),
    providerPackages,
    ...modelEnv,
    runTimeoutMs: model.timeouts.runMs,
    agentTimeoutMs: model.timeouts.agentMs,
    timeoutsDefaulted: model.timeouts.runMsSource === "default" && model.timeouts.agentMsSource === "default",
    recursionLimit: recursionLimit(model),
    schedule: model.schedule,
    hasCron: model.schedule.type === "cron",
    schedules: scheduleView(model),
    workspace: workspaceView(model, "langgraph"),
    connections: packs,
    scheduleWords: scheduleWords(model.schedule),
    // and the connection packs' credentials (--connections), which the runner requires too
    envNames: [
      ...workflowEnvNames(
        model,
        providerKeys.map((p) => p.keys[0]!),
        Object.values(LANGCHAIN_PROVIDERS).flatMap((p) => p.keys),
        modelEnv,
      ),
      ...connectionsView(connections).secrets,
    ],
    stateDir: ".langgraph_runs",
    maxReviewRounds: MAX_REVIEW_ROUNDS,
    runAgents: pipeline ? agents.filter((a) => steps.some((s) => s.agentKey === a.key)) : agents,
    gateReviews: gates.map((g) => {
      const revised = (g.onReject === "rerun" || g.onReject === "escalate") && (g.recordActions.length === 0 || g.recordActions.some((a) => a.verb === "reject"));
      return { ref: g.ref, name: g.name, count: revised ? 2 : 1 };
    }),
    gateTimeouts: model.gates.some((g) => g.timeout !== undefined),
    workflowTimeoutMinutes: workflowTimeoutMinutes(model),
    loss: lossSummary(loss),
  };
  if (entry !== undefined) view.entryAgent = agentByKey.get(entry)!;
  return view;
}

/**
 * Names the graph's state uses itself (state.TeamState and state.TeamOutput): a flat input
 * whose key is one of them would write into that channel. Keep in step with state.py.hbs
 * (a unit test compares them).
 */
export const STATE_CHANNELS: readonly string[] = ["inputs", "answers", "records", "approved", "gates", "feedback", "halted", "work", "result", "status"];

/**
 * Channel names LangGraph refuses (langgraph/_internal/_constants.py RESERVED, less the
 * `__…` ones): compiling a graph with such a channel fails ("Channel name … is reserved").
 */
const LANGGRAPH_RESERVED: readonly string[] = ["configurable", "thread_id", "checkpoint_id", "checkpoint_ns", "checkpoint_map", "langsmith:hidden", "|", ":"];

/**
 * Whether LangGraph itself uses a channel of this name: its reserved names, `__…`
 * (`__start__`, `__interrupt__`, ...) and the prefixes of the channels it makes
 * (`branch:to:<node>`, `join:<starts>:<end>`, `start:<node>` of old checkpoints).
 */
function langgraphChannel(name: string): boolean {
  return LANGGRAPH_RESERVED.includes(name) || name.startsWith("__") || /^(branch|join|start):/.test(name);
}

/**
 * Field names state.TeamInputs (a pydantic class) cannot have: BaseModel's own attributes
 * (pydantic 2 refuses some, and silently takes `model_config` as the configuration).
 */
const PYDANTIC_RESERVED: readonly string[] = ["construct", "copy", "dict", "from_orm", "json", "model_computed_fields", "model_config", "model_construct", "model_copy", "model_dump", "model_dump_json", "model_extra", "model_fields", "model_fields_set", "model_json_schema", "model_parametrized_name", "model_post_init", "model_rebuild", "model_validate", "model_validate_json", "model_validate_strings", "parse_file", "parse_obj", "parse_raw", "schema", "schema_json", "update_forward_refs", "validate"];

/** How much of a renamed input's snake_case key its channel keeps. */
const MAX_CHANNEL_SNAKE = 48;

/** Names state.py's TeamInputs class body uses: a field of that name would shadow it for the fields after it. */
const CLASS_BODY_NAMES: readonly string[] = ["Annotated", "Any", "BaseModel", "ConfigDict", "EphemeralValue", "Field", "Literal", "TypedDict"];

/**
 * The graph's input is flat: each input is a channel, a field of the TeamInputs class (LangGraph
 * names a channel by its field), so Studio shows the team's own names. A key that is no Python
 * identifier, a keyword or builtin, a name the class body uses, a key the graph uses itself
 * (STATE_CHANNELS, LangGraph's reserved names, `__…`) or one pydantic refuses (PYDANTIC_RESERVED,
 * `_…`) becomes `input_<snake_case key>` (at most 48 characters of it; numbered `_2`, … if
 * taken), and state.INPUT_CHANNELS
 * maps it back; definition order decides, so exports are deterministic.
 */
export function inputChannels<T extends { key: string }>(inputs: T[]): Array<T & { channel: string; renamed: boolean }> {
  const reserved = (name: string) =>
    !/^[A-Za-z][A-Za-z0-9_]*$/.test(name) ||
    PYTHON_KEYWORDS.has(name) ||
    PYTHON_BUILTINS.has(name) ||
    CLASS_BODY_NAMES.includes(name) ||
    STATE_CHANNELS.includes(name) ||
    langgraphChannel(name) ||
    PYDANTIC_RESERVED.includes(name);
  const taken = new Set(inputs.map((i) => i.key).filter((k) => !reserved(k)));
  return inputs.map((input) => {
    if (!reserved(input.key)) return { ...input, channel: input.key, renamed: false };
    // Cut: an identifier cannot be wrapped to the line length (numbering keeps cut ones apart).
    const base = `input_${toSnake(input.key).slice(0, MAX_CHANNEL_SNAKE).replace(/_+$/, "") || "value"}`;
    let channel = base;
    for (let n = 2; taken.has(channel); n++) channel = `${base}_${n}`;
    taken.add(channel);
    return { ...input, channel, renamed: true };
  });
}

/**
 * context.Context's field for every agent at once: `model`, unless an agent's identifier is
 * `model` (then `model_2`, …: the namer's numbering, agents' identifiers blocked first).
 */
export function contextAllField(agents: ReadonlyArray<{ ident: string }>): string {
  const ns = new Namespace({ prefix: "model", isReserved: () => false, reservedSuffix: "_" });
  ns.block(...agents.map((a) => a.ident));
  return ns.claim("model");
}

function gateNodes(model: TeamModel): GateNodeView[] {
  return gatesView(model).map((g: GateView & GateModel) => ({
    ...g,
    node: `gate_${g.name}`,
    escalateNode: `escalate_${g.name}`,
    releasedNode: `released_${g.name}`,
    escalates: g.onReject === "escalate" || g.timeout?.behaviour === "escalate",
    destinations: [
      `gate_${g.name}`,
      `released_${g.name}`,
      ...(g.onReject === "rerun" ? [`step_${g.afterStep}`] : []),
      ...(g.onReject === "escalate" || g.timeout?.behaviour === "escalate" ? [`escalate_${g.name}`] : []),
    ],
  }));
}

/**
 * What each step's node waits for. A dependency reviewed by a gate that triggers this step
 * is replaced by that gate's `released_` node; a dependency reviewed only by other gates is
 * waited for through all of its gates (the step receives the reviewed answer); any other
 * dependency is its step node.
 */
function stepViews(model: TeamModel, gates: GateNodeView[], agents: Map<string, AgentView>): StepView[] {
  if (model.execution.mode !== "pipeline") return [];
  const steps = model.execution.steps;
  const identOf = new Map(steps.map((s) => [s.key, s.ident]));
  return steps.map((s) => {
    // [node name, README diagram id] of everything the step waits for.
    const waits: Array<[string, string]> = [];
    const add = (node: string, id: string) => {
      if (!waits.some(([n]) => n === node)) waits.push([node, id]);
    };
    // normalize.stepReceives: unreviewed dependencies' answers, and the gates' releases.
    for (const d of s.answersFrom) add(`step_${d}`, `s_${identOf.get(d)!}`);
    for (const name of s.gatesBefore) {
      const g = gates.find((x) => x.name === name)!;
      add(g.releasedNode, `g_${g.ident}`);
    }
    const waitsFor = waits.map(([n]) => n);
    const agent = agents.get(s.agentKey)!;
    const said = waitsFor.map((n) => {
      const g = gates.find((x) => x.releasedNode === n);
      return g ? `gates[${g.index}] ${g.name}` : n.slice("step_".length);
    });
    return {
      ...s,
      ref: `pipeline[${s.index}] ${s.key}`,
      agentIdent: agent.ident,
      label: s.label ?? s.key,
      // Node names keep the definition's keys (schema: [a-z0-9_-], never ":" or "|"): what
      // LangGraph Studio and stream events show is what the builder wrote.
      node: `step_${s.key}`,
      waitsFor,
      diagramFrom: waits.map(([, id]) => id),
      gateNodes: gates.filter((g) => g.afterStep === s.key).map((g) => g.node),
      reviewedBy: gates.filter((g) => g.afterStep === s.key),
      comment: `pipeline[${s.index}] ${s.key} (agent ${s.agentKey})`,
      specComment: specCommentOf(s),
      edgeComment: `pipeline[${s.index}] ${s.key}${waitsFor.length ? `: waits for ${said.join(", ")}` : ": the first step"}`,
    };
  });
}

/**
 * An explicit recursion limit (LangGraph's default changed between releases). It counts
 * super-steps per invocation: a pass through the graph takes at most one per node, and a
 * gate's review rounds (at most gates.MAX_ROUNDS, each re-running the step, the gate and
 * its escalation) repeat part of it. Four passes plus a margin keep it a guard against
 * loops, never a constraint on a legitimate run. LangGraph.js's graph has the same nodes
 * (langgraph-js/view.ts uses this too).
 */
export function recursionLimit(model: TeamModel): number {
  const nodes = model.execution.mode === "pipeline" ? 2 + model.execution.steps.length + 3 * model.gates.length : 3;
  return 25 + 4 * nodes;
}
