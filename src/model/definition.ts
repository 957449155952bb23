// The shape of a definition that passed validation (schema v1.0 + the v1.1/v1.2 overlay).
// Only normalize.ts reads it; everything downstream reads the TeamModel instead.

export interface EnvelopeDefinition {
  $schema: string;
  name: string;
  slug: string;
  version: string;
  description: string;
  category?: string;
  tags?: string[];
  visibility: "public" | "team" | "private";
  pricing?: { model: "free" | "per_run" | "per_k_tokens" | "subscription"; amount?: number; currency?: string; interval?: "month" | "year"; trialDays?: number };
  forkable?: boolean;
  forkedFrom?: { ownerSlug: string; teamSlug: string; version: string };
  timeout?: { runMs?: number; agentMs?: number };
  readme?: string;
  icon?: string;
  inputs?: Record<string, IOField>;
  outputs?: Record<string, IOField>;
  requiredSecrets?: string[];
  requiredVariables?: string[];
  changelog?: string;
  agents: DefinitionAgent[];
  gates?: DefinitionGate[];
  schedule?: {
    type: "manual" | "cron" | "event" | "condition" | "continuous";
    cron?: string;
    label?: string;
    webhookSecret?: string;
    conditionInterval?: "15min" | "1h" | "6h" | "24h";
    conditionPrompt?: string;
  };
  pipeline?: Array<{ key: string; agentKey: string; label?: string; dependsOn?: string[] }>;
  metadata?: Record<string, unknown>;
  workspace?: Array<{
    name: string;
    type?: string;
    columns?: Array<{ name: string; owner: "agent" | "human" | "both"; type?: "string" | "number" | "boolean"; id?: boolean; pii?: boolean }>;
    statusValues?: string[];
    triggers?: Array<{ column: string; status: string; action?: "run" | "notify" }>;
    hypotheses?: string[];
  }>;
}

export interface IOField {
  type?: "string" | "number" | "boolean" | "object" | "array";
  description?: string;
  required?: boolean;
  enum?: string[];
  default?: unknown;
}

export interface DefinitionAgent {
  key: string;
  name: string;
  title: string;
  role: string;
  adapterType?: string;
  reportsToKey?: string;
  capabilities?: string[];
  prompt?: string;
  model?: string;
  modelConfig?: { provider: string; model: string; temperature?: number; maxTokens?: number; timeoutMs?: number };
  allowedHosts?: string[];
  accessPolicy?: {
    accessPolicyVersion: "1";
    defaultAction: "allow" | "deny";
    rules?: Array<{ host?: string; methods?: string[]; pathPrefix?: string; action: "allow" | "deny" | "require_approval"; reason?: string }>;
  };
  metadata?: Record<string, unknown>;
}

export interface DefinitionGate {
  name: string;
  type: "decision" | "content_generation" | "classification" | "action";
  afterStep: string;
  triggersStep: string;
  fields: string[];
  trigger: "any_approved" | "all_resolved" | "threshold" | "scheduled";
  thresholdCount?: number;
  onReject: "skip" | "rerun" | "escalate" | "halt";
  recordActions?: Array<{ label: string; verb: "approve" | "skip" | "reject" | "reset"; endpointTemplate: string; style?: "primary" | "secondary" | "danger" }>;
  timeout?: { after: string; behaviour: "escalate" | "halt" | "proceed" };
}
