import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { normalize } from "../src/model/index.js";
import type { TeamModel } from "../src/model/types.js";
import { agent, team } from "./helpers/definitions.js";

function model(def: unknown): TeamModel {
  const r = normalize(JSON.stringify(def));
  if (!r.model) throw new Error(JSON.stringify(r.diagnostics));
  return r.model;
}

describe("normalize", () => {
  it("refuses an invalid definition and returns its diagnostics", () => {
    const r = normalize("{}");
    expect(r.valid).toBe(false);
    expect(r.model).toBeUndefined();
    expect(r.diagnostics.length).toBeGreaterThan(0);
  });

  it("support-tier: hierarchy, models, policies, names", () => {
    const m = normalize(readFileSync(new URL("../examples/support-tier.envelope.json", import.meta.url))).model!;
    expect(m.names).toEqual({ package: "support_tier", distribution: "support-tier", className: "SupportTier" });
    expect(m.execution).toEqual({ mode: "hierarchy", entryAgent: "support-lead", otherRoots: [] });
    expect(m.hierarchy).toEqual({ roots: ["support-lead"], maxDepth: 1, multipleRoots: false });
    const [lead, billing] = m.agents;
    expect(lead!.children).toEqual(["billing-specialist", "technical-specialist"]);
    expect(billing).toMatchObject({ ident: "billing_specialist", parent: "support-lead", depth: 1, llm: { provider: "anthropic", model: "claude-sonnet-4-5", known: true, source: "model" } });
    expect(billing!.egress.rules[1]).toMatchObject({ action: "deny", effect: "deny", methods: ["DELETE"], pointer: "/agents/1/accessPolicy/rules/1" });
    expect(m.secrets.map((s) => s.name)).toEqual(["ZENDESK_API_KEY", "SLACK_BOT_TOKEN"]);
    expect(m.variables.find((v) => v.name === "ZENDESK_SUBDOMAIN")!.references).toContain("/agents/0/accessPolicy/rules/0/host");
    expect(m.source.specVersion).toBe("1.1");
    expect(m.registry.pricing).toEqual({ model: "per_run", amount: 0.05, currency: "USD" });
  });

  it("orders a fan-out/fan-in pipeline topologically with levels, and attaches gates", () => {
    const m = model(
      team({
        agents: [agent("lead"), agent("w", { reportsToKey: "lead" })],
        pipeline: [
          { key: "publish", agentKey: "lead", dependsOn: ["research", "draft"] },
          { key: "intake", agentKey: "lead", dependsOn: [] },
          { key: "research", agentKey: "w", dependsOn: ["intake"] },
          { key: "draft", agentKey: "w", dependsOn: ["intake"] },
        ],
        gates: [{ name: "research", type: "decision", afterStep: "research", triggersStep: "publish", fields: ["title", "url"], trigger: "threshold", thresholdCount: 2, onReject: "rerun", timeout: { after: "2h", behaviour: "halt" } }],
      }),
    );
    if (m.execution.mode !== "pipeline") throw new Error("expected a pipeline");
    expect(m.execution.steps.map((s) => [s.key, s.level])).toEqual([["intake", 0], ["research", 1], ["draft", 1], ["publish", 2]]);
    expect(m.execution.steps[0]!.dependents).toEqual(["research", "draft"]);
    expect(m.execution.steps.find((s) => s.key === "publish")!.gatesBefore).toEqual(["research"]);
    // The gate's name collides with the step's: members are distinct.
    expect(m.execution.steps.find((s) => s.key === "research")!.ident).toBe("research");
    expect(m.gates[0]).toMatchObject({ ident: "research_gate", attachesTo: "steps", thresholdCount: 2, timeout: { afterMs: 7_200_000, behaviour: "halt" } });
  });

  it("an omitted dependsOn means after the previous step", () => {
    const m = model(team({ pipeline: [{ key: "a", agentKey: "lead" }, { key: "b", agentKey: "lead" }] }));
    if (m.execution.mode !== "pipeline") throw new Error("expected a pipeline");
    expect(m.execution.steps.map((s) => [s.key, s.dependsOn, s.dependsOnImplicit])).toEqual([["a", [], true], ["b", ["a"], true]]);
  });

  it("allowedHosts becomes a deny-by-default policy; an empty list or no field means no egress", () => {
    const m = model(team({ agents: [agent("a", { allowedHosts: ["api.x.com"] }), agent("b", { allowedHosts: [], reportsToKey: "a" }), agent("c", { reportsToKey: "a" })] }));
    expect(m.agents[0]!.egress).toMatchObject({ source: "allowedHosts", defaultAction: "deny", allowsAny: true, rules: [{ host: "api.x.com", action: "allow" }] });
    expect(m.agents[1]!.egress).toMatchObject({ source: "allowedHosts", rules: [], allowsAny: false });
    expect(m.agents[2]!.egress).toEqual({ source: "none", defaultAction: "deny", rules: [], allowsAny: false });
  });

  it("splits prompts into text and typed placeholders, leaving other braces alone", () => {
    const prompt = 'Hi {{NAME}} {{TOKEN}} {{OUTPUT_FORMAT}} {word} {"json": 1} {{UNKNOWN}} """\\';
    const m = model(team({ agents: [agent("a", { prompt, allowedHosts: ["x.com"] })], requiredVariables: ["NAME"], requiredSecrets: ["TOKEN"], inputs: { output_format: { type: "string" } } }));
    const segs = m.agents[0]!.prompt.segments;
    expect(segs).toEqual([
      { kind: "text", text: "Hi " },
      { kind: "variable", name: "NAME", raw: "{{NAME}}" },
      { kind: "text", text: " " },
      { kind: "secret", name: "TOKEN", raw: "{{TOKEN}}" },
      { kind: "text", text: " " },
      { kind: "input", name: "OUTPUT_FORMAT", inputKey: "output_format", raw: "{{OUTPUT_FORMAT}}" },
      { kind: "text", text: ' {word} {"json": 1} {{UNKNOWN}} """\\' },
    ]);
    expect(segs.map((s) => (s.kind === "text" ? s.text : s.raw)).join("")).toBe(prompt);
  });

  it("resolves models, timeouts and local adapters with their defaults", () => {
    const m = model(
      team({
        timeout: { agentMs: 45_000 },
        agents: [
          agent("a", { modelConfig: { provider: "google", model: "gemini-2.5-pro", temperature: 0.2, maxTokens: 800, timeoutMs: 5000 } }),
          agent("b", { reportsToKey: "a", adapterType: "claude_local" }),
        ],
      }),
    );
    expect(m.agents[0]).toMatchObject({ timeoutMs: 5000, timeoutSource: "modelConfig.timeoutMs", llm: { provider: "google", temperature: 0.2, maxTokens: 800, source: "modelConfig" } });
    expect(m.agents[1]).toMatchObject({ timeoutMs: 45_000, timeoutSource: "timeout.agentMs", adapter: { type: "claude_local", local: true, apiProvider: "anthropic" } });
    expect(m.agents[1]!.llm).toBeUndefined();
    expect(m.timeouts).toEqual({ runMs: 30_000, runMsSource: "default", agentMs: 45_000, agentMsSource: "timeout.agentMs" });
  });

  it("keeps inputs' types, enums, defaults and gives fields safe identifiers", () => {
    const m = model(team({ inputs: { class: { type: "string", enum: ["a", "b"], default: "a", required: true }, "max-items": { type: "number" }, notes: {} } }));
    expect(m.inputs).toEqual([
      { key: "class", pointer: "/inputs/class", ident: "class_", referenceName: "CLASS", type: "string", typeDeclared: true, required: true, enum: ["a", "b"], hasDefault: true, default: "a" },
      { key: "max-items", pointer: "/inputs/max-items", ident: "max_items", referenceName: "MAX_ITEMS", type: "number", typeDeclared: true, required: false, hasDefault: false },
      { key: "notes", pointer: "/inputs/notes", ident: "notes", referenceName: "NOTES", type: "string", typeDeclared: false, required: false, hasDefault: false },
    ]);
  });

  it("never copies a webhook secret's value; v1.1/v1.2 features set the spec version", () => {
    const m = model(team({ schedule: { type: "event", webhookSecret: "s3cr3t" }, workspace: [{ name: "queue" }] }));
    expect(m.schedule).toEqual({ type: "event", webhookSecretDeclared: true });
    expect(JSON.stringify(m)).not.toContain("s3cr3t");
    expect(m.source.specVersion).toBe("1.2");
    expect(m.workspace).toEqual([{ name: "queue", pointer: "/workspace/0", columns: [], statusValues: [], triggers: [], hypotheses: [] }]);
  });

  it("is deterministic", () => {
    const def = readFileSync(new URL("../examples/support-tier.envelope.json", import.meta.url));
    expect(JSON.stringify(normalize(def).model)).toBe(JSON.stringify(normalize(def).model));
  });
});
