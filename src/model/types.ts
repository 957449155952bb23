// The normalized team model: the one contract between reading a definition and every export
// target (like Prisma's DMMF). It is plain data — JSON-serializable, deterministic, printed
// by `envelope inspect --json` — and versioned: a breaking change bumps MODEL_VERSION.
// Every element keeps the JSON pointer it came from so generated code can point back to it.
import type { Provider } from "./providers.js";

export const MODEL_VERSION = 1;

export interface TeamModel {
  modelVersion: typeof MODEL_VERSION;
  source: SourceInfo;
  team: TeamIdentity;
  /** Fields the registry uses and no runtime interprets; kept apart from runtime fields. */
  registry: RegistryFields;
  /** Python names chosen once for the whole team; every target uses these. */
  names: TeamNames;
  agents: AgentModel[];
  hierarchy: HierarchyModel;
  execution: ExecutionModel;
  gates: GateModel[];
  inputs: IOFieldModel[];
  outputs: IOFieldModel[];
  secrets: EnvNameModel[];
  variables: EnvNameModel[];
  schedule: ScheduleModel;
  timeouts: TimeoutsModel;
  workspace: WorkspaceDocumentModel[];
}

export interface SourceInfo {
  schemaUrl: string;
  /** Lowest Envelope minor version whose fields this definition uses. */
  specVersion: "1.0" | "1.1" | "1.2";
  /** Definition fields (pointers) that need v1.1 or v1.2. */
  versionFeatures: Array<{ pointer: string; since: "1.1" | "1.2" }>;
}

export interface TeamIdentity {
  name: string;
  slug: string;
  version: string;
  description: string;
  readme?: string;
}

export interface RegistryFields {
  visibility: "public" | "team" | "private";
  category?: string;
  tags: string[];
  icon?: string;
  pricing?: {
    model: "free" | "per_run" | "per_k_tokens" | "subscription";
    amount?: number;
    currency?: string;
    interval?: "month" | "year";
    trialDays?: number;
  };
  forkable?: boolean;
  forkedFrom?: { ownerSlug: string; teamSlug: string; version: string };
  changelog?: string;
  metadata?: Record<string, unknown>;
}

export interface TeamNames {
  /** Python import package, e.g. `support_tier`; never a keyword, builtin or shadowing module. */
  package: string;
  /** Distribution name for pyproject, e.g. `support-tier`; never one the project depends on. */
  distribution: string;
  /** PascalCase class name, e.g. `SupportTier`. */
  className: string;
}

export interface AgentModel {
  key: string;
  index: number;
  pointer: string;
  /** Identifier unique across agents, steps and gates. */
  ident: string;
  name: string;
  title: string;
  role: string;
  capabilities: string[];
  adapter: AdapterModel;
  /** Undefined when the definition names no model: targets use their documented default. */
  llm?: LlmModel;
  /** Effective per-call timeout: modelConfig.timeoutMs, else timeout.agentMs, else 30000. */
  timeoutMs: number;
  timeoutSource: "modelConfig.timeoutMs" | "timeout.agentMs" | "default";
  prompt: PromptModel;
  parent?: string;
  children: string[];
  /** 0 for roots. */
  depth: number;
  egress: AccessPolicyModel;
  metadata?: Record<string, unknown>;
}

export interface AdapterModel {
  /** As written; "http" when omitted. */
  type: string;
  declared: boolean;
  local: boolean;
  /** For `*_local` adapters, the API provider an export uses instead. */
  apiProvider?: Provider;
}

export interface LlmModel {
  /** Provider as named in the definition (may be one the targets don't know). */
  provider: string;
  known: boolean;
  model: string;
  source: "model" | "modelConfig";
  pointer: string;
  temperature?: number;
  maxTokens?: number;
}

export interface PromptModel {
  /** The prompt exactly as written ("" when the agent has none); like every string of the model, with U+FFFD for a lone surrogate. */
  raw: string;
  present: boolean;
  segments: PromptSegment[];
}

export type PromptSegment =
  | { kind: "text"; text: string }
  | { kind: "secret" | "variable"; name: string; raw: string }
  | { kind: "input"; name: string; inputKey: string; raw: string };

export interface AccessPolicyModel {
  /** Where it came from; "none" means the agent declared no egress and gets no HTTP access. */
  source: "accessPolicy" | "allowedHosts" | "none";
  pointer?: string;
  defaultAction: "allow" | "deny";
  rules: AccessRuleModel[];
  /** False when every request would be refused (no allow rule, default deny). */
  allowsAny: boolean;
}

export interface AccessRuleModel {
  pointer: string;
  /** As written, may contain `{{NAME}}` expanded at run time. */
  host?: string;
  methods?: string[];
  pathPrefix?: string;
  action: "allow" | "deny" | "require_approval";
  /** `require_approval` is deny in v1. */
  effect: "allow" | "deny";
  reason?: string;
}

export interface HierarchyModel {
  roots: string[];
  maxDepth: number;
  /** How a team with several roots runs (only meaningful without a pipeline). */
  multipleRoots: boolean;
}

export type ExecutionModel = PipelineExecution | HierarchyExecution;

export interface PipelineExecution {
  mode: "pipeline";
  /** Steps in a stable topological order (ties keep definition order). */
  steps: StepModel[];
}

export interface HierarchyExecution {
  mode: "hierarchy";
  /** The agent that receives the task: the first root in definition order. */
  entryAgent: string;
  /** Roots after the first: they receive nothing unless a target reports how it runs them. */
  otherRoots: string[];
}

export interface StepModel {
  key: string;
  index: number;
  pointer: string;
  ident: string;
  agentKey: string;
  label?: string;
  dependsOn: string[];
  dependsOnImplicit: boolean;
  dependents: string[];
  /** Longest path from a step without dependencies; steps of equal level may run in parallel. */
  level: number;
  /** Gates that review this step's output. */
  gatesAfter: string[];
  /** Dependencies whose answer the step receives (those no gate reviews). */
  answersFrom: string[];
  /**
   * Gates that must release before this step runs; it receives their approved records in
   * place of the reviewed dependencies' answers (normalize.stepReceives).
   */
  gatesBefore: string[];
}

export interface GateModel {
  name: string;
  index: number;
  pointer: string;
  ident: string;
  type: "decision" | "content_generation" | "classification" | "action";
  /** What the gate's step names refer to: pipeline steps, or agents when there is no pipeline. */
  attachesTo: "steps" | "agents";
  afterStep: string;
  triggersStep: string;
  fields: GateFieldModel[];
  trigger: "any_approved" | "all_resolved" | "threshold" | "scheduled";
  thresholdCount?: number;
  onReject: "skip" | "rerun" | "escalate" | "halt";
  recordActions: RecordActionModel[];
  timeout?: { after: string; afterMs: number; behaviour: "escalate" | "halt" | "proceed" };
}

export interface GateFieldModel {
  /** As written: the record field's name. */
  name: string;
  /** Identifier for structured-output models. */
  ident: string;
}

export interface RecordActionModel {
  label: string;
  verb: "approve" | "skip" | "reject" | "reset";
  endpointTemplate: string;
  style?: "primary" | "secondary" | "danger";
}

export interface IOFieldModel {
  key: string;
  pointer: string;
  ident: string;
  /** Reference name in prompts: `{{OUTPUT_FORMAT}}` for `output_format`. */
  referenceName: string;
  type: "string" | "number" | "boolean" | "object" | "array";
  typeDeclared: boolean;
  description?: string;
  required: boolean;
  enum?: string[];
  hasDefault: boolean;
  default?: unknown;
}

export interface EnvNameModel {
  name: string;
  pointer: string;
  /** Pointers of the `{{NAME}}` references. */
  references: string[];
}

export type ScheduleModel =
  | { type: "manual"; declared: boolean; label?: string }
  | { type: "cron"; cron: string; label?: string }
  // The webhook secret's value is never copied into the model: only whether one was given.
  | { type: "event"; label?: string; webhookSecretDeclared: boolean; webhookSecretRef?: string }
  | { type: "condition"; interval: "15min" | "1h" | "6h" | "24h"; conditionPrompt?: string; label?: string }
  | { type: "continuous"; label?: string };

export interface TimeoutsModel {
  runMs: number;
  runMsSource: "timeout.runMs" | "default";
  agentMs: number;
  agentMsSource: "timeout.agentMs" | "default";
}

export interface WorkspaceDocumentModel {
  name: string;
  pointer: string;
  type?: string;
  columns: Array<{ name: string; owner: "agent" | "human" | "both"; type: "string" | "number" | "boolean"; id: boolean; pii: boolean }>;
  statusValues: string[];
  triggers: Array<{ column: string; status: string; action: "run" | "notify" }>;
  hypotheses: string[];
}
