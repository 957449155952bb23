// The demo team the runtime's own tests run: a writer drafts records, a gate reviews them, the
// lead (the writer's manager) finishes from the approved ones.
import { z } from "zod";
import type { AgentSpec, TeamSpec } from "../src/spec.js";

export const agent = (key: string, extra: Partial<AgentSpec> = {}): AgentSpec => ({
  key, name: key, title: key, role: key, capabilities: [], reportsTo: null, reports: [], model: { provider: "openai", model: "gpt-4.1-mini", temperature: null, maxTokens: null },
  timeoutMs: 30_000, prompt: `You are ${key}. Topic: {{TOPIC}}.`, policy: null, contextField: key, ...extra,
});

export const pipeline: TeamSpec = {
  name: "Demo", slug: "demo", version: "1.0.0", description: "A demo.", mode: "pipeline", entryAgent: "lead",
  agents: [agent("lead", { reports: ["writer"] }), agent("writer", { reportsTo: "lead" })],
  steps: [
    { key: "draft", agent: "writer", label: "Draft", dependsOn: [], answersFrom: [], gatesBefore: [], gatesAfter: ["review"] },
    { key: "final", agent: "lead", label: "Finish", dependsOn: ["draft"], answersFrom: [], gatesBefore: ["review"], gatesAfter: [] },
  ],
  finalStep: "final",
  gates: [{ name: "review", type: "decision", afterStep: "draft", triggersStep: "final", fields: ["title"], trigger: "all_resolved", thresholdCount: null, onReject: "rerun", actions: [{ label: "Approve", verb: "approve" }, { label: "Reject", verb: "reject" }], timeout: null }],
  inputs: [{ key: "topic", channel: "topic", type: "string", required: true, enum: null, hasDefault: false, default: null, description: null }],
  outputs: [{ key: "summary", type: "string", required: true, description: null }],
  secrets: [], variables: [], runTimeoutMs: 600_000, recursionLimit: 50,
};
export const schemas = { input: z.object({ topic: z.string() }), result: z.object({ summary: z.string() }), context: z.object({ model: z.string().optional(), lead: z.string().optional(), writer: z.string().optional() }) };
