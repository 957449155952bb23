// TeamModel → the view the CrewAI templates render. All decisions about CrewAI live here;
// templates only lay text out, and every value they print passes an escaping helper.
import type { RuntimeChoice } from "../../export/target.js";
import { runtimeView, type RuntimeView } from "../python-common/runtime-library.js";
import type { TeamConnections } from "../../connections/connections.js";
import { connectionsView, type ConnectionsView } from "../python-common/connections-view.js";
import { type ScheduleView, scheduleView } from "../python-common/schedule-view.js";
import { type WorkspaceView, workspaceView } from "../python-common/workspace-view.js";
import { VERSION } from "../../version.js";
import type { LossEntry } from "../../export/loss-report.js";
import type { AgentModel, StepModel, TeamModel } from "../../model/types.js";
import { documentAgents, statusColumns } from "../../model/workspace.js";
import {
  finalStepOf,
  flaggedInputsView,
  runCommandView,
  workflowEnvNames,
  MAX_REVIEW_ROUNDS,
  gatesView,
  lossSummary,
  modelSourceOf,
  outputsExpectation,
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
import { CREWAI_PROVIDERS, crewaiModelId, crewaiProvider } from "./providers.js";
import { type ModelEnvView, modelEnvView } from "../python-common/model-env-view.js";

export const CREWAI_VERSION = "1.15.30";

export interface AgentView {
  key: string;
  ident: string;
  index: number;
  /** `agents[1] billing-specialist` — for comments pointing back to the definition. */
  ref: string;
  name: string;
  /** CrewAI role: the agent's name, made unique (delegation addresses coworkers by role). */
  role: string;
  title: string;
  goal: string;
  /** agents[].prompt exactly as written: the backstory in config/agents.yaml. */
  prompt: string;
  /** The comment above its @agent method. */
  crewNote: string;
  model?: string;
  modelSource: string;
  temperature?: number;
  maxTokens?: number;
  timeoutMs: number;
  hasEgress: boolean;
  egressSource: string;
  defaultAction: "allow" | "deny";
  rules: Array<{ ref: string; fields: Array<{ name: string; value: string | string[]; list: boolean }> }>;
  allowedHosts?: string[];
  parent?: string;
  children: string[];
  isRoot: boolean;
  /** The crew's manager has egress or workspace tools, so a "<role> Requests" worker carries them. */
  needsRequestsDelegate: boolean;
}

/** A flow.py decorator: `@start()`, `@listen(a)`, `@listen(and_(a, b))`, `@listen(or_(a, "gate:again"))`,
 * `@router(a, emit=[...])`, a gate's `@human_feedback(...)`. */
export type FlowDecorator =
  | { kind: "start" }
  | { kind: "listen"; triggers: Array<{ method: string } | { label: string }>; any?: boolean }
  | { kind: "router"; after: string; emit: string[] }
  | { kind: "feedback"; message: string; gate: string };

export interface FlowMethod {
  ident: string;
  key: string;
  /** What the body calls: PipelineFlow.run_step, review (records to decide), decide (the router), released. */
  body: "run_step" | "review" | "decide" | "released";
  comment: string;
  decorators: FlowDecorator[];
}

/** An output as TeamResult declares it: `pyType` when it is not the JSON type's own. */
export type CrewaiOutputView = OutputView & { pyType?: string };

export interface CrewaiView extends ModelEnvView {
  package: string;
  /** envelope-runtime: the exact pin, and whether its source is vendored (--runtime). */
  runtime: RuntimeView;
  distribution: string;
  className: string;
  team: TeamModel["team"];
  mode: "hierarchy" | "pipeline";
  agents: AgentView[];
  /** tools/custom_tool.py's example: the first agent that may hold tools (not the crew's manager). */
  toolAgent?: AgentView;
  root?: AgentView;
  steps: Array<StepModel & { ref: string; specComment: string; agentIdent: string; label: string; expectedOutput: string; isFinal: boolean; diagramFrom: string[] }>;
  gates: GateView[];
  inputs: FlaggedInputView[];
  finalStep: string;
  recordSteps: RecordStepView[];
  timeoutsDefaulted: boolean;
  teamTask: { description: string; expectedOutput: string };
  flowMethods: FlowMethod[];
  needsAnd: boolean;
  needsListen: boolean;
  /** json_text.py types TeamResult uses (array and object outputs); then it also imports describe_json_text. */
  jsonTextTypes: string[];
  needsConfigDict: boolean;
  needsRecordAction: boolean;
  agentIdents: Record<string, string>;
  stepIdents: Record<string, string>;
  /** tests/test_team.py: what the definition says each built object must hold. */
  teamTests: {
    httpAgents: string[];
    subTeamAgents: string[];
    requiredInputs: string[];
    /** workspace: per document a column people own (agents' writes of it are refused). */
    humanColumns: Array<{ ref: string; document: string; column: string }>;
    /** workspace: per document a status column agents write (undeclared values are refused). */
    agentStatusColumns: Array<{ ref: string; document: string; column: string; values: string[] }>;
  };
  /** envelope-export's version: envelope_support/__init__.py's __version__. */
  generatorVersion: string;
  /** team.py's StepSpec names each step's @task method in crew.py. */
  stepMethods: true;
  outputs: CrewaiOutputView[];
  outputsAliased: boolean;
  anyEgress: boolean;
  /** team.py's EGRESS: agents with an http_request tool, in definition order. */
  egressAgents: string[];
  secrets: string[];
  variables: string[];
  providerKeys: Array<{ keys: string[]; label: string; agents: string }>;
  needsDefaultModel: boolean;
  defaultModelAgents: string;
  /** The crewai requirement with exactly the provider extras the team's models need. */
  dependency: string;
  runTimeoutMs: number;
  agentTimeoutMs: number;
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
  /** Every environment name the runner reads: secrets, variables, provider keys, MODEL. */
  envNames: string[];
  /** Where runs are kept (the runner's --state-dir default): the scheduled workflow keeps it. */
  stateDir: string;
  maxReviewRounds: number;
  /** Whether any gate has a timeout (README: when timeouts apply). */
  gateTimeouts: boolean;
  inputsOutsideCommand: string[];
  needsInputs: boolean;
  workflowTimeoutMinutes: number;
  hasGates: boolean;
  loss: LossSummary;
}

/**
 * An array or object output declares no item or property schema: as list[Any] / dict[str, Any],
 * CrewAI's strict schema conversion sends `items: {}` (OpenAI's strict mode refuses it) / an
 * open object (refused) or a closed one with no properties (only `{}`). Such an output travels
 * as JSON text instead (json_text.py: the schema asks for a string, and says what it holds).
 */
function jsonTextOutput(o: OutputView): CrewaiOutputView {
  if (o.type !== "array" && o.type !== "object") return o;
  return { ...o, pyType: o.type === "array" ? "JsonArray" : "JsonObject" };
}

function goalOf(a: AgentModel): string {
  const caps = a.capabilities.length ? ` Capabilities: ${a.capabilities.join(", ")}.` : "";
  return `${a.title} (${a.role}).${caps}`;
}

export function buildView(model: TeamModel, loss: LossEntry[], connections?: TeamConnections, runtime?: RuntimeChoice): CrewaiView {
  const hierarchy = model.execution.mode === "hierarchy";
  // The agents with a workspace document's tools (workspace.documents_of in the export).
  const workspaceAgents = new Set(model.workspace.flatMap((d) => documentAgents(d, model.agents)));
  const agents: AgentView[] = model.agents.map((a) => {
    const view: AgentView = {
      key: a.key,
      ident: a.ident,
      index: a.index,
      ref: `agents[${a.index}] ${a.key}`,
      name: a.name,
      role: a.name,
      title: a.title,
      goal: goalOf(a),
      prompt: a.prompt.raw,
      crewNote: "",
      modelSource: a.llm ? modelSourceOf(a) : "no model: MODEL",
      timeoutMs: a.timeoutMs,
      // Every declared policy is shipped and enforced, even one that allows nothing (an empty
      // allowedHosts, deny rules only): the tool then refuses each request with its reason.
      hasEgress: a.egress.source !== "none",
      egressSource: a.egress.source,
      defaultAction: a.egress.defaultAction,
      rules: a.egress.rules.map((r, j) => ({
        ref: `rules[${j}]`,
        // The present keys, in the order people write them.
        fields: [
          ...(r.host !== undefined ? [{ name: "host", value: r.host, list: false }] : []),
          ...(r.methods !== undefined ? [{ name: "methods", value: r.methods, list: true }] : []),
          ...(r.pathPrefix !== undefined ? [{ name: "pathPrefix", value: r.pathPrefix, list: false }] : []),
          { name: "action", value: r.action, list: false },
          ...(r.reason !== undefined ? [{ name: "reason", value: r.reason, list: false }] : []),
        ],
      })),
      children: a.children,
      isRoot: a.parent === undefined,
      // Only the crew's manager (the first root) can hold no tools; see delegation.py.
      needsRequestsDelegate:
        model.execution.mode === "hierarchy" &&
        model.execution.entryAgent === a.key &&
        a.children.length > 0 &&
        (a.egress.source !== "none" || workspaceAgents.has(a.key)),
    };
    if (a.egress.source === "allowedHosts") view.allowedHosts = a.egress.rules.map((r) => r.host!);
    if (a.llm) {
      view.model = crewaiModelId(a.llm);
      if (a.llm.temperature !== undefined) view.temperature = a.llm.temperature;
      if (a.llm.maxTokens !== undefined) view.maxTokens = a.llm.maxTokens;
    }
    if (a.parent !== undefined) view.parent = a.parent;
    return view;
  });
  makeRolesUnique(agents);
  const agentView = new Map(agents.map((a) => [a.key, a]));
  const entry = model.execution.mode === "hierarchy" ? model.execution.entryAgent : undefined;
  for (const a of agents) {
    const parts = [`agents[${a.index}] ${a.key}`];
    if (a.parent !== undefined) parts.push(`(reportsToKey ${a.parent})`);
    let note = parts.join(" ");
    if (hierarchy && a.key === entry) note += ": the first root, the crew's manager";
    else if (hierarchy && a.isRoot) note += ": another root, a worker of the manager";
    else if (hierarchy && a.children.length) note += `: manages ${a.children.join(", ")}`;
    a.crewNote = note;
  }
  const gates = gatesView(model);
  const stepIdent = new Map(model.execution.mode === "pipeline" ? model.execution.steps.map((s) => [s.key, s.ident]) : []);
  const gateIdent = new Map(model.gates.map((g) => [g.name, g.ident]));
  const steps =
    model.execution.mode === "pipeline"
      ? model.execution.steps.map((s) => {
          return {
            ...s,
            ref: `pipeline[${s.index}] ${s.key}`,
            specComment: specCommentOf(s),
            agentIdent: agentView.get(s.agentKey)!.ident,
            label: s.label ?? s.key,
            expectedOutput: "",
            isFinal: false,
            // README diagram: what the step waits for (normalize.stepReceives).
            diagramFrom: [...s.answersFrom.map((d) => `s_${stepIdent.get(d)!}`), ...s.gatesBefore.map((g) => `g_${gateIdent.get(g)!}`)],
          };
        })
      : [];
  const used = model.agents.filter((a) => a.llm);
  const providerKeys = [...new Set(used.map((a) => a.llm!.provider))].map((p) => {
    const keys = crewaiProvider(p).keys;
    return { keys, label: keys.join(" or "), agents: used.filter((a) => a.llm!.provider === p).map((a) => a.key).join(", ") };
  }).filter((p) => p.keys.length > 0);
  const extras = [...new Set(used.map((a) => crewaiProvider(a.llm!.provider).extra).filter((e): e is string => !!e))].sort();
  const withoutModel = model.agents.filter((a) => !a.llm);
  const crewaiVersion = `>=${CREWAI_VERSION},<2.0.0`;
  const modelEnv = modelEnvView(
    model,
    used.map((a) => a.llm!.provider),
    Object.fromEntries(Object.entries(CREWAI_PROVIDERS).flatMap(([p, c]) => (c.baseUrlEnv ? [[p, c.baseUrlEnv]] : []))),
    // An agent redirected to another provider needs that provider's client: one extra each.
    Object.entries(CREWAI_PROVIDERS).flatMap(([p, c]) => (c.extra && !extras.includes(c.extra) ? [{ name: p, requirement: `crewai[${c.extra}]${crewaiVersion}` }] : [])),
  );
  const root = hierarchy ? agentView.get(model.execution.mode === "hierarchy" ? model.execution.entryAgent : "")! : undefined;
  const outputs = outputsView(model).map(jsonTextOutput);
  const inputs = flaggedInputsView(model);
  const view: CrewaiView = {
    package: model.names.package,
    runtime: runtimeView("crewai", runtime),
    distribution: model.names.distribution,
    className: model.names.className,
    team: model.team,
    mode: model.execution.mode,
    agents,
    // CrewAI refuses tools on a hierarchical crew's manager_agent ("Manager agent should not have tools").
    toolAgent: agents.find((a) => !(hierarchy && a.key === entry && a.children.length > 0)),
    steps,
    gates,
    inputs,
    ...runCommandView(inputs),
    finalStep: finalStepOf(model),
    recordSteps: recordStepsOf(model),
    timeoutsDefaulted: model.timeouts.runMsSource === "default" && model.timeouts.agentMsSource === "default",
    flowMethods: [],
    needsAnd: false,
    needsListen: false,
    teamTask: { description: `Handle this run of the ${model.team.name} team.\n\n${model.team.description}`, expectedOutput: outputsExpectation(model) },
    jsonTextTypes: ["JsonArray", "JsonObject"].filter((t) => outputs.some((o) => o.pyType === t)),
    needsConfigDict: false,
    needsRecordAction: model.execution.mode === "pipeline" && model.gates.some((g) => g.recordActions.length > 0),
    agentIdents: Object.fromEntries(agents.map((a) => [a.key, a.ident])),
    stepIdents: Object.fromEntries(steps.map((s) => [s.key, s.ident])),
    stepMethods: true,
    teamTests: teamTestsOf(model, agents),
    generatorVersion: VERSION,
    outputs,
    outputsAliased: outputs.some((o) => o.aliased),
    anyEgress: agents.some((a) => a.hasEgress),
    egressAgents: agents.filter((a) => a.hasEgress).map((a) => a.key),
    secrets: model.secrets.map((s) => s.name),
    variables: model.variables.map((v) => v.name),
    providerKeys,
    needsDefaultModel: withoutModel.length > 0,
    defaultModelAgents: withoutModel.map((a) => `agents[${a.index}] ${a.key}`).join(", "),
    dependency: `crewai${extras.length ? `[${extras.join(",")}]` : ""}${crewaiVersion}`,
    ...modelEnv,
    runTimeoutMs: model.timeouts.runMs,
    agentTimeoutMs: model.timeouts.agentMs,
    schedule: model.schedule,
    hasCron: model.schedule.type === "cron",
    schedules: scheduleView(model),
    workspace: workspaceView(model, "sqlite", true),
    connections: connectionsView(connections),
    scheduleWords: scheduleWords(model.schedule),
    // and the connection packs' credentials (--connections), which the runner requires too
    envNames: [
      ...workflowEnvNames(
        model,
        providerKeys.map((p) => p.keys[0]!),
        Object.values(CREWAI_PROVIDERS).flatMap((p) => p.keys),
        modelEnv,
      ),
      ...connectionsView(connections).secrets,
    ],
    stateDir: ".envelope-runs",
    maxReviewRounds: MAX_REVIEW_ROUNDS,
    gateTimeouts: model.gates.some((g) => g.timeout !== undefined),
    workflowTimeoutMinutes: workflowTimeoutMinutes(model),
    hasGates: model.gates.length > 0 && model.execution.mode === "pipeline",
    loss: lossSummary(loss),
  };
  if (root) view.root = root;
  view.needsConfigDict = view.outputsAliased || view.jsonTextTypes.length > 0 || view.recordSteps.some((r) => r.aliased);
  view.flowMethods = flowMethods(model);
  const listens = view.flowMethods.flatMap((m) => m.decorators).filter((d) => d.kind === "listen");
  view.needsAnd = listens.some((d) => d.triggers.length > 1 && !d.any);
  view.needsListen = listens.length > 0;
  for (const step of view.steps) {
    step.isFinal = step.key === view.finalStep;
    const records = view.recordSteps.find((r) => r.stepKey === step.key);
    step.expectedOutput = records
      ? `A JSON object {"records": [...]}; each record has the fields ${records.fields.map((f) => `${f.name} (string)`).join(" and ")}.`
      : step.isFinal
        ? outputsExpectation(model)
        : "The result of this step.";
  }
  return view;
}


/** flow.py: steps in topological order; after the step a gate reviews, the gate as CrewAI's
 * human feedback (review_<gate>, `@human_feedback` without emit: no LLM), its router
 * (gate_<gate>: released, again, halted) and released_<gate>, which the steps it feeds wait for. */
function flowMethods(model: TeamModel): FlowMethod[] {
  if (model.execution.mode !== "pipeline") return [];
  const steps = model.execution.steps;
  const identOf = new Map(steps.map((s) => [s.key, s.ident]));
  const agentOf = new Map(model.agents.map((a) => [a.key, a]));
  const out: FlowMethod[] = [];
  for (const step of steps) {
    // What the step waits for (normalize.stepReceives): the answers of the steps no gate
    // reviews, and the release of the gates that review the others or trigger it.
    const gatesIn = step.gatesBefore.map((name) => model.gates.find((g) => g.name === name)!);
    const triggers = [...step.answersFrom.map((d) => ({ method: `step_${identOf.get(d)!}` })), ...gatesIn.map((g) => ({ method: `released_${g.ident}` }))];
    const agent = agentOf.get(step.agentKey)!;
    const via = gatesIn.map((g) => `gates[${g.index}]`).join(", ");
    const deps = step.dependsOn.length ? `, dependsOn ${step.dependsOn.join(", ")}${via ? ` (through ${via})` : ""}` : "";
    out.push({
      ident: `step_${step.ident}`,
      key: step.key,
      body: "run_step",
      comment: `pipeline[${step.index}] ${step.key} (agent ${agent.key})${deps}`,
      decorators: [triggers.length === 0 ? { kind: "start" } : { kind: "listen", triggers }],
    });
    for (const gate of model.gates.filter((g) => g.afterStep === step.key)) {
      const label = (outcome: string) => `${gate.name}:${outcome}`;
      const actions = gate.recordActions.length ? gate.recordActions.map((a) => a.label) : ["Approve", "Skip", "Reject"];
      const message =
        `Gate ${gate.name} (${gate.type}) after step ${gate.afterStep}: give each record one of ${actions.join(", ")}, ` +
        `e.g. "r1 ${actions[0]}; r2 ${actions[actions.length - 1]}: why", or one action for every record (Enter: decide later).`;
      out.push(
        {
          ident: `review_${gate.ident}`,
          key: gate.name,
          body: "review",
          comment: `gates[${gate.index}] ${gate.name}: afterStep ${gate.afterStep}, triggersStep ${gate.triggersStep}`,
          decorators: [
            { kind: "listen", triggers: [{ method: `step_${step.ident}` }, { label: label("again") }], any: true },
            { kind: "feedback", message, gate: gate.name },
          ],
        },
        { ident: `gate_${gate.ident}`, key: gate.name, body: "decide", comment: "", decorators: [{ kind: "router", after: `review_${gate.ident}`, emit: ["released", "again", "halted"].map(label) }] },
        { ident: `released_${gate.ident}`, key: gate.name, body: "released", comment: "", decorators: [{ kind: "listen", triggers: [{ label: label("released") }] }] },
      );
    }
  }
  return out;
}

/** Roles must be unique: on a clash (or with a manager's "<role> Requests" worker) add the key. */
function makeRolesUnique(agents: AgentView[]): void {
  const count = new Map<string, number>();
  for (const a of agents) count.set(a.name, (count.get(a.name) ?? 0) + 1);
  const requests = new Set(agents.filter((a) => a.needsRequestsDelegate).map((a) => `${a.name} Requests`));
  for (const a of agents) {
    if ((count.get(a.name) ?? 0) > 1 || requests.has(a.name)) a.role = `${a.name} (${a.key})`;
  }
}

/** The agents whose tools the team's own tests check (delegation.py's rules, from the model). */
function teamTestsOf(model: TeamModel, agents: AgentView[]): CrewaiView["teamTests"] {
  const hierarchy = model.execution.mode === "hierarchy";
  const entry = model.execution.mode === "hierarchy" ? model.execution.entryAgent : undefined;
  const others = model.execution.mode === "hierarchy" ? model.execution.otherRoots : [];
  const manages = (a: AgentView) => a.key === entry && (a.children.length > 0 || others.length > 0);
  return {
    // The crew's manager holds no tool (CrewAI's rule): its requests go through a worker.
    httpAgents: agents.filter((a) => a.hasEgress && !manages(a)).map((a) => a.key),
    subTeamAgents: hierarchy ? agents.filter((a) => a.key !== entry && a.children.length > 0).map((a) => a.key) : [],
    requiredInputs: model.inputs.filter((i) => i.required && !i.hasDefault).map((i) => i.key),
    humanColumns: model.workspace.flatMap((d, i) => {
      const column = d.columns.find((c) => c.owner === "human");
      return column ? [{ ref: `workspace[${i}] ${d.name}`, document: d.name, column: column.name }] : [];
    }),
    agentStatusColumns: model.workspace.flatMap((d, i) => {
      // A string status column agents write: a column people own refuses any agent's value
      // first, a number or boolean column any text.
      const column = statusColumns(d).find((name) => d.columns.some((c) => c.name === name && c.owner !== "human" && c.type === "string"));
      return column ? [{ ref: `workspace[${i}] ${d.name}`, document: d.name, column, values: [...d.statusValues] }] : [];
    }),
  };
}
