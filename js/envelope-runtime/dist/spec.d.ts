import type { GateSpec } from "./gates.js";
import type { AccessPolicy } from "./policy.js";
import type { DocumentSpec } from "./workspace.js";
export interface ModelSpec {
    /** Provider as the definition names it (openai, anthropic, google, mistral, openrouter, …). */
    provider: string;
    model: string;
    temperature: number | null;
    maxTokens: number | null;
}
export interface AgentSpec {
    key: string;
    name: string;
    title: string;
    role: string;
    capabilities: readonly string[];
    /** Its manager (hierarchy), null for the entry agent and other roots' manager. */
    reportsTo: string | null;
    reports: readonly string[];
    /** Null: no model in the definition (MODEL, else DEFAULT_MODEL). */
    model: ModelSpec | null;
    /** The model's per-request timeout. */
    timeoutMs: number;
    /** The system prompt as written; `{{NAME}}` filled at run time. */
    prompt: string;
    /** Null: no egress, no http_request tool. */
    policy: AccessPolicy | null;
    /** Its field of the run's context (its model for one run). */
    contextField: string;
}
export interface StepSpec {
    key: string;
    agent: string;
    label: string | null;
    dependsOn: readonly string[];
    /** Dependencies whose answer the step receives (no gate reviews them). */
    answersFrom: readonly string[];
    /** Gates that release this step; it receives their approved records. */
    gatesBefore: readonly string[];
    /** Gates that review this step's records. */
    gatesAfter: readonly string[];
}
export interface InputSpec {
    key: string;
    /** The graph state's key for it: the key itself, or `input:<key>` when the key is taken. */
    channel: string;
    type: "string" | "number" | "boolean" | "object" | "array";
    required: boolean;
    enum: readonly string[] | null;
    hasDefault: boolean;
    default: unknown;
    description: string | null;
}
export interface OutputSpec {
    key: string;
    type: "string" | "number" | "boolean" | "object" | "array";
    required: boolean;
    description: string | null;
}
export interface TeamSpec {
    name: string;
    slug: string;
    version: string;
    description: string;
    mode: "pipeline" | "hierarchy";
    entryAgent: string;
    agents: readonly AgentSpec[];
    steps: readonly StepSpec[];
    /** Pipeline: the step whose answer is the team's result. */
    finalStep: string | null;
    gates: readonly GateSpec[];
    inputs: readonly InputSpec[];
    outputs: readonly OutputSpec[];
    secrets: readonly string[];
    variables: readonly string[];
    runTimeoutMs: number;
    recursionLimit: number;
    /** The workspace documents (v1.2), kept in the graph's store across runs; absent: none. */
    workspace?: readonly DocumentSpec[];
}
