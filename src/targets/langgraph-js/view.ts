// The langgraph-js target's view of a team: the TeamSpec data src/team.ts declares (read by
// envelope-runtime-js), the schemas' fields, the README's rows. Built from the normalized
// model only; every value is data here, and becomes code only through ./typescript.ts.
import type { TeamConnections } from "../../connections/connections.js";
import type { LossEntry } from "../../export/loss-report.js";
import { lossCounts } from "../../export/loss-report.js";
import type { AccessPolicyModel, IOFieldModel, TeamModel } from "../../model/types.js";
import { recursionLimit } from "../langgraph/view.js";
import { connectionsView, type ConnectionsView } from "../python-common/connections-view.js";
import { finalStepOf, outputsExpectation } from "../python-common/team-view.js";
import { agentAbout } from "../python-common/shared-field-rules.js";
import { toolNames } from "../python-common/workspace-view.js";
import { documentAgents, promptNames, statusColumns } from "../../model/workspace.js";

/** Providers envelope-runtime-js maps onto an installed LangChain.js package. */
export const JS_PROVIDERS: ReadonlySet<string> = new Set(["openai", "anthropic", "google", "google_genai", "mistral", "mistralai", "openrouter"]);

/** Each provider's key, as envelope-runtime-js's models.ts PROVIDERS names it. */
const PROVIDER_KEYS: Readonly<Record<string, string>> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_API_KEY",
  google_genai: "GOOGLE_API_KEY",
  mistral: "MISTRAL_API_KEY",
  mistralai: "MISTRAL_API_KEY",
  openrouter: "OPENROUTER_API_KEY",
};

/** State keys the runtime uses itself (an input with one of these keys gets `input:<key>`). */
const RESERVED = new Set(["inputs", "answers", "records", "approved", "gates", "feedback", "halted", "status", "result", "configurable", "thread_id", "messages"]);

function reserved(key: string): boolean {
  return RESERVED.has(key) || key.startsWith("__") || key.includes("|") || /^(branch|join|start|input|checkpoint)[:_]/.test(key) || key.includes(":");
}

/** The graph's channel for an input key (the key itself unless the state uses it). */
export function inputChannel(key: string): string {
  return reserved(key) ? `input:${key}` : key;
}

export function inputChannels(inputs: readonly IOFieldModel[]): Array<{ key: string; channel: string }> {
  const taken = new Set<string>(inputs.filter((i) => !reserved(i.key)).map((i) => i.key));
  return inputs.map((i) => {
    if (!reserved(i.key)) return { key: i.key, channel: i.key };
    let channel = `input:${i.key}`;
    for (let n = 2; taken.has(channel); n++) channel = `input:${i.key}:${n}`;
    taken.add(channel);
    return { key: i.key, channel };
  });
}

function policyOf(egress: AccessPolicyModel) {
  if (egress.source === "none") return null;
  return {
    defaultAction: egress.defaultAction,
    rules: egress.rules.map((r) => ({
      ...(r.host !== undefined ? { host: r.host } : {}),
      ...(r.methods !== undefined ? { methods: r.methods } : {}),
      ...(r.pathPrefix !== undefined ? { pathPrefix: r.pathPrefix } : {}),
      action: r.action,
      ...(r.reason !== undefined ? { reason: r.reason } : {}),
    })),
  };
}

/** Each agent's field of the run's context: its identifier (`model` is every agent's). */
export function contextFields(model: TeamModel): Map<string, string> {
  const taken = new Set(["model"]);
  const out = new Map<string, string>();
  for (const a of model.agents) {
    let field = a.ident;
    for (let n = 2; taken.has(field); n++) field = `${a.ident}_${n}`;
    taken.add(field);
    out.set(a.key, field);
  }
  return out;
}

const sample = (f: IOFieldModel): unknown =>
  f.enum?.length ? f.enum[0] : f.type === "number" ? 1 : f.type === "boolean" ? true : f.type === "object" ? {} : f.type === "array" ? [] : `sample ${f.key}`;

/** src/team.ts's CONNECTIONS (envelope-runtime-js's ConnectionsSpec): the packs an agent got, as data. */
function connectionsSpec(c: ConnectionsView) {
  return {
    packs: c.packs.map((p) => ({
      provider: p.provider,
      displayName: p.displayName,
      auth: { kind: p.authKind, header: p.header, env: p.env },
      apiHosts: p.apiHosts,
      baseUrl: p.baseUrl,
      operations: p.operations.map((o) => ({
        tool: o.tool,
        method: o.method,
        path: o.path,
        description: o.description,
        params: o.params.map((x) => ({ arg: x.arg, name: x.name, in: x.in, required: x.required, description: x.description, schema: x.schema })),
        body: o.body,
        bodyRequired: o.bodyRequired,
        bodyDescription: o.bodyDescription,
      })),
    })),
    mcpServers: c.mcpServers.map((m) => ({ provider: m.provider, displayName: m.displayName, auth: { kind: m.authKind, header: m.header, env: m.env }, apiHosts: m.apiHosts, url: m.url, transport: m.transport })),
    agents: Object.fromEntries(c.agents.map((a) => [a.key, a.providers])),
    secrets: c.secrets,
  };
}

/** A document as envelope-runtime-js's DocumentSpec (workspace.ts): its declaration, status columns and the agents with its tools. */
function workspaceSpec(d: TeamModel["workspace"][number], model: TeamModel) {
  return {
    name: d.name,
    type: d.type ?? "",
    columns: d.columns.map((c) => ({ name: c.name, owner: c.owner, type: c.type, id: c.id, pii: c.pii })),
    statusValues: d.statusValues,
    statusColumns: statusColumns(d),
    triggers: d.triggers.map((t) => ({ column: t.column, status: t.status, action: t.action })),
    agents: documentAgents(d, model.agents),
  };
}

/**
 * A new row an agent may write (the tests' case that the store writes it): its id when the
 * document has an id column agents write, and a column of theirs; null when agents create no
 * rows (the id column is people's) or have no text column to write.
 */
function agentRow(d: TeamModel["workspace"][number]): Record<string, string> | null {
  const id = d.columns.find((c) => c.id);
  if (id !== undefined && (id.owner === "human" || id.type !== "string")) return null;
  const column = d.columns.find((c) => c.owner !== "human" && !c.id && c.type === "string" && !statusColumns(d).includes(c.name));
  if (column === undefined) return null;
  return { ...(id ? { [id.name]: "row-by-an-agent" } : {}), [column.name]: "set by an agent" };
}

/** The README's and the tests' view of each document. */
function workspaceView(model: TeamModel) {
  return model.workspace.map((d, i) => {
    const human = d.columns.find((c) => c.owner === "human");
    const status = statusColumns(d)[0];
    const sampleOf = (type: string) => (type === "number" ? 1 : type === "boolean" ? true : "set by an agent");
    return {
      name: d.name,
      ref: `workspace[${i}]`,
      type: d.type ?? "",
      columns: d.columns.map((c) => ({ name: c.name, notes: [c.owner, ...(c.id ? ["id"] : []), ...(c.pii ? ["pii"] : []), ...(c.type !== "string" ? [c.type] : [])].join(", ") })),
      statusValues: d.statusValues,
      statusColumns: statusColumns(d),
      triggers: d.triggers,
      agents: documentAgents(d, model.agents),
      byName: model.agents.some((a) => promptNames(a.prompt.raw, d.name)),
      tools: toolNames(d.name),
      firstAgent: documentAgents(d, model.agents)[0] ?? "",
      humanColumn: human?.name ?? "",
      humanValue: human ? sampleOf(human.type) : null,
      // A status column of another type than string holds no declared status: none to test.
      statusColumn: status !== undefined && d.columns.find((c) => c.name === status)?.type === "string" ? status : "",
      agentRow: agentRow(d),
    };
  });
}

export function buildView(model: TeamModel, loss: LossEntry[], connections?: TeamConnections) {
  const fields = contextFields(model);
  const channels = new Map(inputChannels(model.inputs).map((c) => [c.key, c.channel]));
  const mode = model.execution.mode;
  const steps = model.execution.mode === "pipeline" ? model.execution.steps : [];
  const entryAgent = model.execution.mode === "hierarchy" ? model.execution.entryAgent : (model.hierarchy.roots[0] ?? model.agents[0]!.key);
  const otherRoots = model.execution.mode === "hierarchy" ? model.execution.otherRoots : [];
  const gates = mode === "pipeline" ? model.gates : [];
  const team = {
    name: model.team.name,
    slug: model.team.slug,
    version: model.team.version,
    description: model.team.description,
    mode,
    entryAgent,
    agents: model.agents.map((a) => ({
      key: a.key,
      name: a.name,
      title: a.title,
      role: a.role,
      capabilities: a.capabilities,
      reportsTo: a.parent ?? (otherRoots.includes(a.key) ? entryAgent : null),
      reports: [...a.children, ...(a.key === entryAgent ? otherRoots : [])],
      model: a.llm ? { provider: a.llm.provider, model: a.llm.model, temperature: a.llm.temperature ?? null, maxTokens: a.llm.maxTokens ?? null } : null,
      timeoutMs: a.timeoutMs,
      prompt: a.prompt.raw,
      policy: policyOf(a.egress),
      contextField: fields.get(a.key)!,
    })),
    steps: steps.map((s) => ({ key: s.key, agent: s.agentKey, label: s.label ?? null, dependsOn: s.dependsOn, answersFrom: s.answersFrom, gatesBefore: s.gatesBefore, gatesAfter: s.gatesAfter })),
    finalStep: mode === "pipeline" ? finalStepOf(model) || null : null,
    gates: gates.map((g) => ({
      name: g.name,
      type: g.type,
      afterStep: g.afterStep,
      triggersStep: g.triggersStep,
      fields: g.fields.map((f) => f.name),
      trigger: g.trigger,
      thresholdCount: g.thresholdCount ?? null,
      onReject: g.onReject,
      actions: g.recordActions.length ? g.recordActions.map((a) => ({ label: a.label, verb: a.verb })) : [
        { label: "Approve", verb: "approve" as const },
        { label: "Skip", verb: "skip" as const },
        { label: "Reject", verb: "reject" as const },
      ],
      timeout: g.timeout ? { after: g.timeout.after, afterMs: g.timeout.afterMs, behaviour: g.timeout.behaviour } : null,
    })),
    inputs: model.inputs.map((i) => ({
      key: i.key,
      channel: channels.get(i.key)!,
      type: i.type,
      required: i.required,
      enum: i.enum ?? null,
      hasDefault: i.hasDefault,
      default: i.hasDefault ? (i.default ?? null) : null,
      description: i.description ?? null,
    })),
    outputs: model.outputs.map((o) => ({ key: o.key, type: o.type, required: o.required, description: o.description ?? null })),
    secrets: model.secrets.map((s) => s.name),
    variables: model.variables.map((v) => v.name),
    runTimeoutMs: model.timeouts.runMs,
    // the graph's own (graph.ts binds it: a run the Agent Server starts gets it too) and each agent's
    // tool loop's: the Python target's count of the graph's nodes, never below the 50 an agent had
    recursionLimit: Math.max(50, recursionLimit(model)),
    // workspace (v1.2): envelope-runtime-js's DocumentSpec per document; absent without one.
    ...(model.workspace.length ? { workspace: model.workspace.map((d) => workspaceSpec(d, model)) } : {}),
  };
  const packs = connectionsView(connections);
  const packsOf = (key: string) => packs.agents.find((x) => x.key === key)?.providers ?? [];
  // What the runtime gives each agent: http_request with a policy, its packs' tools; ask_<report>
  // tools only in a hierarchy (a pipeline step's agent works alone; a manager there only decides escalations).
  const agentRows = team.agents.map((a, i) => ({
    name: a.name,
    key: a.key,
    about: agentAbout(model.agents[i]!),
    model: a.model ? `${a.model.provider}:${a.model.model}` : null,
    tools: [
      ...(a.policy ? [{ name: "http_request", note: "its access policy" }] : []),
      // In the runtime's order: the OpenAPI packs' operations, then the MCP servers' tools (listed at run time).
      ...packsOf(a.key).flatMap((p) => packs.packs.find((x) => x.provider === p)?.operations.map((o) => ({ name: o.tool, note: `pack ${p}` })) ?? []),
      ...packsOf(a.key).flatMap((p) => packs.mcpServers.filter((x) => x.provider === p).map((x) => ({ name: `${x.toolPrefix}*`, note: `pack ${p}'s MCP server` }))),
      ...(team.workspace ?? []).filter((d) => d.agents.includes(a.key)).flatMap((d) => Object.values(toolNames(d.name)).map((name) => ({ name, note: `workspace ${d.name}` }))),
      ...(mode === "hierarchy" ? a.reports.map((r) => ({ name: `ask_${r.replace(/[^A-Za-z0-9_]/g, "_")}`, note: "" })) : []),
    ],
  }));
  // The keys of the providers the agents' models use (an agent without one: the default, openai).
  // Own keys only: a provider named "constructor" must not find Object.prototype's.
  const providerOf = (a: TeamModel["agents"][number]) => (a.llm ? a.llm.provider.toLowerCase() : "openai");
  const providerKeys = [...new Set(model.agents.map(providerOf).filter((p) => Object.hasOwn(PROVIDER_KEYS, p)).map((p) => PROVIDER_KEYS[p]!))].sort();
  // The shared rows speak of the Python targets: here an MCP server's tools are listed when the agent starts a conversation.
  const rows = packs.rows.map((r) => ({ ...r, detail: r.detail.replace("listed from it when the agent is built", "listed from it when the agent starts a conversation").replace("not in a Python project", "not in a LangGraph.js project") }));
  const counts = lossCounts(loss);
  return {
    team,
    model,
    agentRows,
    contextFields: [...fields].map(([key, field]) => ({ key, field })),
    sampleInputs: Object.fromEntries(model.inputs.filter((i) => i.required && !i.hasDefault).map((i) => [channels.get(i.key)!, sample(i)])),
    sampleResult: model.outputs.length ? Object.fromEntries(model.outputs.map((o) => [o.key, sample(o)])) : { answer: "the team's answer" },
    outputsExpectation: outputsExpectation(model),
    connectionRows: rows,
    connections: { ...packs, rows, spec: packs.has ? connectionsSpec(packs) : null },
    loss: { counts, notCarried: loss.filter((e) => e.status !== "carried") },
    hasGates: team.gates.length > 0,
    hasTimeouts: team.gates.some((g) => g.timeout !== null),
    isPipeline: mode === "pipeline",
    scheduleManual: model.schedule.type === "manual",
    scheduleCron: model.schedule.type === "cron" ? model.schedule.cron : undefined,
    providerKeys,
    workspace: workspaceView(model),
    hasWorkspace: model.workspace.length > 0,
    hasTriggers: model.workspace.some((d) => d.triggers.length > 0),
    hasNotifyTriggers: model.workspace.some((d) => d.triggers.some((t) => t.action === "notify")),
  };
}

export type LanggraphJsView = ReturnType<typeof buildView>;
