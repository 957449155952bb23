// Validated definition → TeamModel. Pure and deterministic: defaults applied, references
// resolved, names chosen, the pipeline ordered. Assumes validation passed (see normalize()).
import { pointerOf } from "../read/json-pointer.js";
import { normalizeAccessPolicy } from "./access-policy.js";
import type { DefinitionAgent, EnvelopeDefinition, IOField } from "./definition.js";
import { stableTopoOrder } from "./graph.js";
import { className, distributionName, fieldNamespace, memberNamespace, packageName } from "./namer.js";
import { buildScope, findPlaceholders, inputReferenceName, type PlaceholderScope } from "./placeholders.js";
import { promptSegments } from "./prompt-segments.js";
import { LOCAL_ADAPTER_PROVIDER, isProvider, splitModelId } from "./providers.js";
import { effectiveDependencies } from "./step-dependencies.js";
import {
  MODEL_VERSION,
  type AgentModel,
  type EnvNameModel,
  type ExecutionModel,
  type GateModel,
  type IOFieldModel,
  type LlmModel,
  type ScheduleModel,
  type SourceInfo,
  type StepModel,
  type TeamModel,
} from "./types.js";

/** Team defaults documented by the standard (VERSIONS.md): both timeouts default to 30 s. */
export const DEFAULT_RUN_MS = 30_000;
export const DEFAULT_AGENT_MS = 30_000;

/** `reservedMembers`: the export target's (ExportTarget.reservedMembers), none for a model without one. */
export function buildTeamModel(def: EnvelopeDefinition, reservedMembers?: ReadonlySet<string>): TeamModel {
  const members = memberNamespace(reservedMembers);
  const scope = buildScope(def.requiredSecrets ?? [], def.requiredVariables ?? [], Object.keys(def.inputs ?? {}));
  const agentMs = def.timeout?.agentMs ?? DEFAULT_AGENT_MS;
  const agents = def.agents.map((a, i) => buildAgent(a, i, def, scope, members.claim(a.key, { prefix: "agent", collisionSuffix: "_agent" }), agentMs));
  linkHierarchy(agents);
  const execution = buildExecution(def, agents, (key) => members.claim(key, { prefix: "step", collisionSuffix: "_step" }));
  const gates = buildGates(def, (name) => members.claim(name, { prefix: "gate", collisionSuffix: "_gate" }));
  if (execution.mode === "pipeline") {
    for (const g of gates) execution.steps.find((s) => s.key === g.afterStep)?.gatesAfter.push(g.name);
    for (const s of execution.steps) Object.assign(s, stepReceives(s, gates));
  }
  const pkg = packageName(def.slug);
  const roots = agents.filter((a) => a.parent === undefined).map((a) => a.key);
  const references = placeholderReferences(def);
  const model: TeamModel = {
    modelVersion: MODEL_VERSION,
    source: sourceInfo(def),
    team: {
      name: def.name,
      slug: def.slug,
      version: def.version,
      description: def.description,
      ...(def.readme !== undefined ? { readme: def.readme } : {}),
    },
    registry: {
      visibility: def.visibility,
      tags: def.tags ?? [],
      ...pick(def, ["category", "icon", "forkable", "forkedFrom", "changelog", "metadata"]),
      ...(def.pricing !== undefined ? { pricing: readPricing(def.pricing) } : {}),
    },
    names: { package: pkg, distribution: distributionName(def.slug), className: className(pkg) },
    agents,
    hierarchy: { roots, maxDepth: Math.max(...agents.map((a) => a.depth)), multipleRoots: roots.length > 1 },
    execution,
    gates,
    inputs: ioFields(def.inputs, "inputs"),
    outputs: ioFields(def.outputs, "outputs"),
    secrets: envNames(def.requiredSecrets, "requiredSecrets", references),
    variables: envNames(def.requiredVariables, "requiredVariables", references),
    schedule: schedule(def),
    timeouts: {
      runMs: def.timeout?.runMs ?? DEFAULT_RUN_MS,
      runMsSource: def.timeout?.runMs !== undefined ? "timeout.runMs" : "default",
      agentMs,
      agentMsSource: def.timeout?.agentMs !== undefined ? "timeout.agentMs" : "default",
    },
    workspace: (def.workspace ?? []).map((w, i) => ({
      name: w.name,
      pointer: pointerOf("workspace", i),
      ...(w.type !== undefined ? { type: w.type } : {}),
      columns: (w.columns ?? []).map((c) => ({ name: c.name, owner: c.owner, type: c.type ?? "string", id: c.id ?? false, pii: c.pii ?? false })),
      statusValues: w.statusValues ?? [],
      triggers: (w.triggers ?? []).map((t) => ({ column: t.column, status: t.status, action: t.action ?? "run" })),
      hypotheses: w.hypotheses ?? [],
    })),
  };
  return model;
}

function pick<T extends object, K extends keyof T>(obj: T, keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (obj[k] !== undefined) out[k] = structuredClone(obj[k]);
  return out;
}

function sourceInfo(def: EnvelopeDefinition): SourceInfo {
  const features: SourceInfo["versionFeatures"] = [];
  const s = def.schedule;
  if (s && ["event", "condition", "continuous"].includes(s.type)) features.push({ pointer: "/schedule/type", since: "1.1" });
  for (const f of ["webhookSecret", "conditionInterval", "conditionPrompt"] as const) {
    if (s?.[f] !== undefined) features.push({ pointer: `/schedule/${f}`, since: "1.1" });
  }
  if (def.metadata !== undefined) features.push({ pointer: "/metadata", since: "1.1" });
  if (def.workspace !== undefined) features.push({ pointer: "/workspace", since: "1.2" });
  const specVersion = features.some((f) => f.since === "1.2") ? "1.2" : features.length ? "1.1" : "1.0";
  return { schemaUrl: def.$schema, specVersion, versionFeatures: features };
}

function buildAgent(a: DefinitionAgent, index: number, def: EnvelopeDefinition, scope: PlaceholderScope, ident: string, agentMs: number): AgentModel {
  const adapterType = a.adapterType ?? "http";
  const local = adapterType.endsWith("_local");
  const apiProvider = LOCAL_ADAPTER_PROVIDER[adapterType];
  const agent: AgentModel = {
    key: a.key,
    index,
    pointer: pointerOf("agents", index),
    ident,
    name: a.name,
    title: a.title,
    role: a.role,
    capabilities: a.capabilities ?? [],
    adapter: { type: adapterType, declared: a.adapterType !== undefined, local, ...(apiProvider ? { apiProvider } : {}) },
    timeoutMs: a.modelConfig?.timeoutMs ?? agentMs,
    timeoutSource: a.modelConfig?.timeoutMs !== undefined ? "modelConfig.timeoutMs" : def.timeout?.agentMs !== undefined ? "timeout.agentMs" : "default",
    prompt: { raw: a.prompt ?? "", present: a.prompt !== undefined, segments: promptSegments(a.prompt ?? "", scope) },
    children: [],
    depth: 0,
    egress: normalizeAccessPolicy(index, a),
  };
  const llm = llmOf(a, index);
  if (llm) agent.llm = llm;
  if (a.reportsToKey !== undefined) agent.parent = a.reportsToKey;
  if (a.metadata !== undefined) agent.metadata = structuredClone(a.metadata);
  return agent;
}

function llmOf(a: DefinitionAgent, index: number): LlmModel | undefined {
  if (a.modelConfig) {
    const c = a.modelConfig;
    return {
      provider: c.provider,
      known: isProvider(c.provider),
      model: c.model,
      source: "modelConfig",
      pointer: pointerOf("agents", index, "modelConfig"),
      ...(c.temperature !== undefined ? { temperature: c.temperature } : {}),
      ...(c.maxTokens !== undefined ? { maxTokens: c.maxTokens } : {}),
    };
  }
  if (a.model !== undefined) {
    // Not in provider:model form (warned): keep the whole string as the model of an unknown provider.
    const parts = splitModelId(a.model) ?? { provider: "", model: a.model };
    return { provider: parts.provider, known: isProvider(parts.provider), model: parts.model, source: "model", pointer: pointerOf("agents", index, "model") };
  }
  return undefined;
}

function linkHierarchy(agents: AgentModel[]): void {
  const byKey = new Map(agents.map((a) => [a.key, a]));
  for (const a of agents) if (a.parent !== undefined) byKey.get(a.parent)?.children.push(a.key);
  const depthOf = (a: AgentModel): number => (a.parent === undefined ? 0 : 1 + depthOf(byKey.get(a.parent)!));
  for (const a of agents) a.depth = depthOf(a);
}

function buildExecution(def: EnvelopeDefinition, agents: AgentModel[], claim: (key: string) => string): ExecutionModel {
  const pipeline = def.pipeline ?? [];
  if (pipeline.length === 0) {
    const roots = agents.filter((a) => a.parent === undefined).map((a) => a.key);
    return { mode: "hierarchy", entryAgent: roots[0]!, otherRoots: roots.slice(1) };
  }
  const deps = effectiveDependencies(pipeline);
  const idents = new Map(pipeline.map((s) => [s.key, claim(s.key)]));
  const order = stableTopoOrder(pipeline.map((s) => s.key), (k) => deps.get(k)!.deps);
  const level = new Map<string, number>();
  for (const k of order) level.set(k, Math.max(-1, ...deps.get(k)!.deps.map((d) => level.get(d)!)) + 1);
  const steps: StepModel[] = order.map((key) => {
    const index = pipeline.findIndex((s) => s.key === key);
    const s = pipeline[index]!;
    return {
      key,
      index,
      pointer: pointerOf("pipeline", index),
      ident: idents.get(key)!,
      agentKey: s.agentKey,
      ...(s.label !== undefined ? { label: s.label } : {}),
      dependsOn: deps.get(key)!.deps,
      dependsOnImplicit: deps.get(key)!.implicit,
      dependents: order.filter((o) => deps.get(o)!.deps.includes(key)),
      level: level.get(key)!,
      gatesAfter: [],
      answersFrom: [],
      gatesBefore: [],
    };
  });
  return { mode: "pipeline", steps };
}

function buildGates(def: EnvelopeDefinition, claim: (name: string) => string): GateModel[] {
  const attachesTo = (def.pipeline ?? []).length > 0 ? "steps" : "agents";
  return (def.gates ?? []).map((g, i) => {
    const fields = fieldNamespace();
    const gate: GateModel = {
      name: g.name,
      index: i,
      pointer: pointerOf("gates", i),
      ident: claim(g.name),
      type: g.type,
      attachesTo,
      afterStep: g.afterStep,
      triggersStep: g.triggersStep,
      fields: g.fields.map((name) => ({ name, ident: fields.claim(name) })),
      trigger: g.trigger,
      onReject: g.onReject,
      recordActions: (g.recordActions ?? []).map((r) => ({ ...r })),
    };
    if (g.thresholdCount !== undefined) gate.thresholdCount = g.thresholdCount;
    if (g.timeout) gate.timeout = { after: g.timeout.after, afterMs: durationMs(g.timeout.after), behaviour: g.timeout.behaviour };
    return gate;
  });
}

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function durationMs(text: string): number {
  const m = /^(\d+)([smhd])$/.exec(text);
  if (!m) throw new Error(`not a duration: ${text}`);
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

function ioFields(fields: Record<string, IOField> | undefined, where: "inputs" | "outputs"): IOFieldModel[] {
  const ns = fieldNamespace();
  return Object.entries(fields ?? {}).map(([key, f]) => {
    const out: IOFieldModel = {
      key,
      pointer: pointerOf(where, key),
      ident: ns.claim(key),
      referenceName: inputReferenceName(key),
      type: f.type ?? "string",
      typeDeclared: f.type !== undefined,
      required: f.required ?? false,
      hasDefault: Object.hasOwn(f, "default"),
    };
    if (f.description !== undefined) out.description = f.description;
    if (f.enum !== undefined) out.enum = [...f.enum];
    if (out.hasDefault) out.default = structuredClone(f.default);
    return out;
  });
}

function envNames(names: string[] | undefined, list: "requiredSecrets" | "requiredVariables", refs: Map<string, string[]>): EnvNameModel[] {
  return (names ?? []).map((name, i) => ({ name, pointer: pointerOf(list, i), references: refs.get(name) ?? [] }));
}

/** name → pointers of every `{{name}}` in prompts, policy hosts/paths and the condition prompt. */
function placeholderReferences(def: EnvelopeDefinition): Map<string, string[]> {
  // Sets, in the order first seen: a name used in every prompt of a large team would make a
  // list's includes() quadratic.
  const refs = new Map<string, Set<string>>();
  const add = (text: string | undefined, pointer: string) => {
    if (text === undefined) return;
    for (const u of findPlaceholders(text)) {
      const seen = refs.get(u.name);
      if (seen) seen.add(pointer);
      else refs.set(u.name, new Set([pointer]));
    }
  };
  def.agents.forEach((a, i) => {
    add(a.prompt, pointerOf("agents", i, "prompt"));
    a.allowedHosts?.forEach((h, j) => add(h, pointerOf("agents", i, "allowedHosts", j)));
    a.accessPolicy?.rules?.forEach((r, j) => {
      add(r.host, pointerOf("agents", i, "accessPolicy", "rules", j, "host"));
      add(r.pathPrefix, pointerOf("agents", i, "accessPolicy", "rules", j, "pathPrefix"));
    });
  });
  add(def.schedule?.conditionPrompt, "/schedule/conditionPrompt");
  add(def.schedule?.webhookSecret, "/schedule/webhookSecret");
  return new Map([...refs].map(([name, pointers]) => [name, [...pointers]]));
}

/** `"{{NAME}}"` naming a declared secret: the deployment reads the webhook secret from there. */
function webhookRef(value: string | undefined, def: EnvelopeDefinition): { webhookSecretRef?: string } {
  const m = value === undefined ? null : /^\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}$/.exec(value);
  return m && (def.requiredSecrets ?? []).includes(m[1]!) ? { webhookSecretRef: m[1]! } : {};
}

function schedule(def: EnvelopeDefinition): ScheduleModel {
  const s = def.schedule;
  const label = s?.label !== undefined ? { label: s.label } : {};
  switch (s?.type) {
    case undefined:
      return { type: "manual", declared: false };
    case "manual":
      return { type: "manual", declared: true, ...label };
    case "cron":
      return { type: "cron", cron: s.cron!.trim().split(/\s+/).join(" "), ...label };
    case "event":
      return { type: "event", webhookSecretDeclared: s.webhookSecret !== undefined, ...webhookRef(s.webhookSecret, def), ...label };
    case "condition":
      return { type: "condition", interval: s.conditionInterval ?? "1h", ...(s.conditionPrompt !== undefined ? { conditionPrompt: s.conditionPrompt } : {}), ...label };
    case "continuous":
      return { type: "continuous", ...label };
  }
}

/**
 * What a step is given (gates.receives in the generated Python says the same): a
 * dependency that gates review reaches the step only through them — those that trigger
 * this step, else all of them — so no step sees a record nobody released; a gate that
 * triggers the step counts even when the step does not depend on the gated step.
 */
export function stepReceives(step: { key: string; dependsOn: string[] }, gates: ReadonlyArray<Pick<GateModel, "name" | "afterStep" | "triggersStep">>): { answersFrom: string[]; gatesBefore: string[] } {
  const answersFrom: string[] = [];
  const gatesBefore: string[] = [];
  const add = (name: string) => gatesBefore.includes(name) || gatesBefore.push(name);
  for (const dep of step.dependsOn) {
    const reviewing = gates.filter((g) => g.afterStep === dep);
    const mine = reviewing.filter((g) => g.triggersStep === step.key);
    if (reviewing.length === 0) answersFrom.push(dep);
    for (const g of mine.length ? mine : reviewing) add(g.name);
  }
  for (const g of gates) if (g.triggersStep === step.key) add(g.name);
  return { answersFrom, gatesBefore };
}

/** Currency codes are read in capitals: "usd" (the schema's documented default) is "USD". */
function readPricing(pricing: NonNullable<EnvelopeDefinition["pricing"]>): NonNullable<TeamModel["registry"]["pricing"]> {
  return typeof pricing.currency === "string" ? { ...pricing, currency: pricing.currency.toUpperCase() } : pricing;
}
