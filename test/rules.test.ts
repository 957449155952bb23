// One passing and one failing case per semantic rule; fixtures.test.ts checks positions.
import { describe, expect, it } from "vitest";
import { editDistance, suggestName } from "../src/validate/suggest.js";
import { exportDefinition } from "../src/export/export.js";
import { modelFromDocument } from "../src/model/index.js";
import { TARGETS } from "../src/targets/index.js";
import { validate } from "../src/validate/validate.js";
import { agent, codesOf, diagnosticsOf, team } from "./helpers/definitions.js";

const policy = (rules: unknown[], defaultAction = "deny") => ({ accessPolicyVersion: "1", defaultAction, rules });
const step = (key: string, agentKey: string, extra: Record<string, unknown> = {}) => ({ key, agentKey, ...extra });
const gate = (extra: Record<string, unknown> = {}) => ({
  name: "review",
  type: "decision",
  afterStep: "a",
  triggersStep: "b",
  fields: ["title"],
  trigger: "any_approved",
  onReject: "skip",
  ...extra,
});
const pipelineTeam = (pipeline: unknown[], extra: Record<string, unknown> = {}) =>
  team({ agents: [agent("lead"), agent("w", { reportsToKey: "lead" })], pipeline, ...extra });

describe("baseline", () => {
  it("a minimal team is valid with no diagnostics", () => {
    expect(codesOf(team())).toEqual([]);
  });
});

describe("agents and hierarchy", () => {
  it("E_DUPLICATE_AGENT_KEY", () => {
    expect(codesOf(team({ agents: [agent("a"), agent("b", { reportsToKey: "a" })] }))).toEqual([]);
    expect(diagnosticsOf(team({ agents: [agent("a"), agent("b", { reportsToKey: "a" }), agent("a", { reportsToKey: "b" })] }))).toMatchObject([
      { code: "E_DUPLICATE_AGENT_KEY", pointer: "/agents/2/key", message: expect.stringContaining("agents[0]") },
    ]);
  });
  it("E_REPORTS_TO_UNKNOWN lists the known agents", () => {
    expect(diagnosticsOf(team({ agents: [agent("a"), agent("b", { reportsToKey: "x" })] }))).toMatchObject([
      { code: "E_REPORTS_TO_UNKNOWN", pointer: "/agents/1/reportsToKey", hint: expect.stringContaining('"a", "b"') },
    ]);
  });
  it("E_REPORTS_TO_SELF", () => {
    expect(codesOf(team({ agents: [agent("a"), agent("b", { reportsToKey: "b" })] }))).toEqual(["E_REPORTS_TO_SELF"]);
  });
  it("E_REPORTS_TO_CYCLE names the cycle once", () => {
    const d = diagnosticsOf(team({ agents: [agent("r"), agent("a", { reportsToKey: "c" }), agent("b", { reportsToKey: "a" }), agent("c", { reportsToKey: "b" })] }));
    expect(d).toMatchObject([{ code: "E_REPORTS_TO_CYCLE", message: expect.stringMatching(/a → c → b → a/) }]);
  });
  it("E_MODEL_CONFLICT", () => {
    expect(codesOf(team({ agents: [agent("a", { modelConfig: { provider: "openai", model: "gpt-5" } })] }))).toEqual([]);
    expect(codesOf(team({ agents: [agent("a", { model: "openai:gpt-5", modelConfig: { provider: "openai", model: "gpt-5" } })] }))).toEqual(["E_MODEL_CONFLICT"]);
  });
  it("E_POLICY_CONFLICT", () => {
    expect(codesOf(team({ agents: [agent("a", { allowedHosts: ["api.example.com"] })] }))).toEqual([]);
    expect(codesOf(team({ agents: [agent("a", { allowedHosts: ["api.example.com"], accessPolicy: policy([]) })] }))).toEqual(["E_POLICY_CONFLICT"]);
  });
  it("W_MULTIPLE_ROOTS only without a pipeline", () => {
    const agents = [agent("a"), agent("b")];
    expect(codesOf(team({ agents }))).toEqual(["W_MULTIPLE_ROOTS"]);
    expect(codesOf(team({ agents, pipeline: [step("s1", "a"), step("s2", "b")] }))).toEqual([]);
  });
  it("W_MODEL_FORMAT and W_MODEL_PROVIDER_UNKNOWN", () => {
    expect(codesOf(team({ agents: [agent("a", { model: "google:gemini-2.5-pro" })] }))).toEqual([]);
    expect(codesOf(team({ agents: [agent("a", { model: "gpt-4o" })] }))).toEqual(["W_MODEL_FORMAT"]);
    const d = diagnosticsOf(team({ agents: [agent("a", { model: "cohere:command-r" })] }));
    expect(d).toMatchObject([{ code: "W_MODEL_PROVIDER_UNKNOWN", hint: expect.stringContaining("anthropic, openai, google, mistral, openrouter") }]);
  });
  it("W_LOCAL_ADAPTER names the API provider used instead", () => {
    expect(codesOf(team({ agents: [agent("a", { adapterType: "http" })] }))).toEqual([]);
    expect(diagnosticsOf(team({ agents: [agent("a", { adapterType: "claude_local" })] }))).toMatchObject([{ code: "W_LOCAL_ADAPTER", message: expect.stringContaining("anthropic") }]);
  });
  it("W_AGENT_TIMEOUT_RUN: a model call that may last the whole run, named at the value that set it", () => {
    const mc = (timeoutMs: number) => ({ modelConfig: { provider: "anthropic", model: "claude-opus-4-5", timeoutMs } });
    // The schema's equal defaults (30000 and 30000) are the author's choice of neither: no warning.
    expect(codesOf(team({ agents: [agent("a")] }))).toEqual([]);
    expect(codesOf(team({ agents: [agent("a", mc(29_999))] }))).toEqual([]);
    expect(codesOf(team({ timeout: { runMs: 600_000, agentMs: 120_000 }, agents: [agent("a", mc(180_000))] }))).toEqual([]);
    expect(diagnosticsOf(team({ agents: [agent("a"), agent("writer", { reportsToKey: "a", ...mc(180_000) })] }))).toMatchObject([
      { code: "W_AGENT_TIMEOUT_RUN", severity: "warning", pointer: "/agents/1/modelConfig/timeoutMs", message: expect.stringMatching(/"writer".*180000 ms \(modelConfig\.timeoutMs\).*30000 ms \(timeout\.runMs, the default\)/) },
    ]);
    // Equal is enough: the run can end inside the call.
    expect(codesOf(team({ timeout: { runMs: 60_000 }, agents: [agent("a", mc(60_000))] }))).toEqual(["W_AGENT_TIMEOUT_RUN"]);
    // The team-wide call timeout: one warning at timeout.agentMs, naming every agent that uses it.
    expect(diagnosticsOf(team({ timeout: { runMs: 60_000, agentMs: 90_000 }, agents: [agent("a"), agent("b", { reportsToKey: "a" }), agent("c", { reportsToKey: "a", ...mc(5_000) })] }))).toMatchObject([
      { code: "W_AGENT_TIMEOUT_RUN", pointer: "/timeout/agentMs", message: expect.stringMatching(/agents "a", "b": .*90000 ms \(timeout\.agentMs\).*60000 ms \(timeout\.runMs\)/) },
    ]);
    // runMs lowered below the default call timeout the agents keep.
    expect(diagnosticsOf(team({ timeout: { runMs: 20_000 }, agents: [agent("a")] }))).toMatchObject([
      { code: "W_AGENT_TIMEOUT_RUN", pointer: "/timeout/runMs", message: expect.stringContaining("the default timeout.agentMs") },
    ]);
  });
});

describe("pipeline", () => {
  it("E_DUPLICATE_STEP_KEY", () => {
    expect(codesOf(pipelineTeam([step("a", "lead"), step("b", "w")]))).toEqual([]);
    expect(codesOf(pipelineTeam([step("a", "lead"), step("a", "w")]))).toEqual(["E_DUPLICATE_STEP_KEY"]);
  });
  it("E_STEP_AGENT_UNKNOWN", () => {
    expect(codesOf(pipelineTeam([step("a", "ghost")]))).toEqual(["E_STEP_AGENT_UNKNOWN"]);
  });
  it("E_DEPENDS_ON_UNKNOWN", () => {
    expect(codesOf(pipelineTeam([step("a", "lead"), step("b", "w", { dependsOn: ["a"] })]))).toEqual([]);
    expect(diagnosticsOf(pipelineTeam([step("a", "lead"), step("b", "w", { dependsOn: ["zz"] })]))).toMatchObject([
      { code: "E_DEPENDS_ON_UNKNOWN", pointer: "/pipeline/1/dependsOn/0" },
    ]);
  });
  it("E_DEPENDS_ON_CYCLE, explicit and through an implicit previous-step dependency", () => {
    expect(codesOf(pipelineTeam([step("a", "lead", { dependsOn: ["b"] }), step("b", "w", { dependsOn: ["a"] })]))).toEqual(["E_DEPENDS_ON_CYCLE"]);
    const d = diagnosticsOf(pipelineTeam([step("a", "lead"), step("b", "w", { dependsOn: ["c"] }), step("c", "w")]));
    expect(d).toMatchObject([{ code: "E_DEPENDS_ON_CYCLE", hint: expect.stringContaining('"c"') }]);
  });
});

describe("gates", () => {
  const base = [step("a", "lead"), step("b", "w")];
  it("valid gate between two steps", () => {
    expect(codesOf(pipelineTeam(base, { gates: [gate()] }))).toEqual([]);
  });
  it("E_DUPLICATE_GATE_NAME", () => {
    expect(codesOf(pipelineTeam(base, { gates: [gate(), gate()] }))).toEqual(["E_DUPLICATE_GATE_NAME"]);
  });
  it("E_GATE_STEP_UNKNOWN names steps with a pipeline and agents without", () => {
    expect(diagnosticsOf(pipelineTeam(base, { gates: [gate({ triggersStep: "lead" })] }))).toMatchObject([
      { code: "E_GATE_STEP_UNKNOWN", pointer: "/gates/0/triggersStep", hint: expect.stringContaining("pipeline step") },
    ]);
    const noPipeline = team({ agents: [agent("lead"), agent("w", { reportsToKey: "lead" })] });
    expect(codesOf({ ...noPipeline, gates: [gate({ afterStep: "w", triggersStep: "lead" })] })).toEqual([]);
    expect(codesOf({ ...noPipeline, gates: [gate({ afterStep: "a", triggersStep: "lead" })] })).toEqual(["E_GATE_STEP_UNKNOWN"]);
  });
  it("E_GATE_ORDER: a gate cannot trigger its own or an earlier step", () => {
    expect(codesOf(pipelineTeam(base, { gates: [gate({ afterStep: "b", triggersStep: "a" })] }))).toEqual(["E_GATE_ORDER"]);
    expect(codesOf(pipelineTeam(base, { gates: [gate({ afterStep: "a", triggersStep: "a" })] }))).toEqual(["E_GATE_ORDER"]);
  });
  it("E_THRESHOLD_COUNT_MISSING", () => {
    expect(codesOf(pipelineTeam(base, { gates: [gate({ trigger: "threshold", thresholdCount: 2 })] }))).toEqual([]);
    expect(codesOf(pipelineTeam(base, { gates: [gate({ trigger: "threshold" })] }))).toEqual(["E_THRESHOLD_COUNT_MISSING"]);
  });
});

describe("access policy", () => {
  it("W_POLICY_HOST_PATTERN says what an unreadable host does: allow never matches, deny covers every host", () => {
    const rules = [
      { host: "a*b.com", action: "allow" },
      { host: "**", methods: ["POST"], action: "deny" },
      { host: "https://x.com", action: "require_approval", reason: "ask" },
    ];
    const d = diagnosticsOf(team({ agents: [agent("a", { accessPolicy: policy(rules, "allow") })] })).filter((x) => x.code === "W_POLICY_HOST_PATTERN");
    expect(d.map((x) => [x.pointer, x.message])).toEqual([
      ["/agents/0/accessPolicy/rules/0/host", '"a*b.com" is not a hostname pattern, so this allow rule never matches a request'],
      ["/agents/0/accessPolicy/rules/1/host", '"**" is not a hostname pattern, so this rule fails closed: it applies to every host'],
      ["/agents/0/accessPolicy/rules/2/host", '"https://x.com" is not a hostname pattern, so this rule fails closed: it applies to every host'],
    ]);
  });
  it("W_REQUIRE_APPROVAL", () => {
    const a = agent("a", { accessPolicy: policy([{ host: "api.example.com", action: "require_approval", reason: "ask" }]) });
    expect(codesOf(team({ agents: [a] }))).toEqual(["W_REQUIRE_APPROVAL"]);
  });
  it.each([
    ["api.example.com", true],
    ["*.example.com", true],
    ["{{SUBDOMAIN}}.zendesk.com", true],
    ["localhost", true],
    ["https://api.example.com", false],
    ["api.example.com/v1", false],
    ["api.example.com:443", false],
    ["api.*.com", false],
    ["{{ SUB }}.x.com", false],
    ["", false],
    ["*", true],
    ["example.com.", true],
    ["**", false],
    ["*.*", false],
    ["a*b.com", false],
    ["*.", false],
    ["api .example.com", false],
  ])("W_POLICY_HOST_PATTERN for %j → valid=%s", (host, ok) => {
    const a = agent("a", { allowedHosts: [host] });
    expect(codesOf(team({ agents: [a], requiredVariables: host.includes("SUBDOMAIN") ? ["SUBDOMAIN"] : undefined })).includes("W_POLICY_HOST_PATTERN")).toBe(!ok);
  });
});

describe("secrets, variables and placeholders", () => {
  it("resolves secrets, variables and inputs (also upper-cased)", () => {
    const def = team({
      agents: [agent("a", { prompt: "Use {{TONE}} and {{OUTPUT_FORMAT}} and {{topic}}; keep {word} and {{ spaced }}." })],
      requiredVariables: ["TONE"],
      inputs: { output_format: { type: "string" }, topic: { type: "string" } },
    });
    expect(codesOf(def)).toEqual([]);
  });
  it("W_PLACEHOLDER_UNKNOWN in prompts and hosts", () => {
    const def = team({ agents: [agent("a", { prompt: "Hi {{NOPE}}", allowedHosts: ["{{HOST}}.example.com"] })] });
    expect(diagnosticsOf(def).map((d) => [d.code, d.pointer])).toEqual([
      ["W_PLACEHOLDER_UNKNOWN", "/agents/0/prompt"],
      ["W_PLACEHOLDER_UNKNOWN", "/agents/0/allowedHosts/0"],
    ]);
  });
  it("W_SECRET_IN_PROMPT", () => {
    const def = team({ agents: [agent("a", { prompt: "Key: {{API_KEY}}" })], requiredSecrets: ["API_KEY"] });
    expect(codesOf(def)).toEqual(["W_SECRET_IN_PROMPT"]);
  });
  it("W_SECRET_UNUSED only when no agent can make requests", () => {
    expect(codesOf(team({ requiredSecrets: ["API_KEY"] }))).toEqual(["W_SECRET_UNUSED"]);
    expect(codesOf(team({ requiredSecrets: ["API_KEY"], agents: [agent("a", { allowedHosts: ["api.example.com"] })] }))).toEqual([]);
    expect(codesOf(team({ requiredSecrets: ["API_KEY"], agents: [agent("a", { allowedHosts: [] })] }))).toEqual(["W_SECRET_UNUSED"]);
  });
  it("W_VARIABLE_UNUSED", () => {
    expect(codesOf(team({ requiredVariables: ["REGION"] }))).toEqual(["W_VARIABLE_UNUSED"]);
    expect(codesOf(team({ requiredVariables: ["REGION"], agents: [agent("a", { prompt: "in {{REGION}}" })] }))).toEqual([]);
  });
  it("E_DUPLICATE_ENV_NAME across secrets and variables", () => {
    const def = team({ requiredSecrets: ["X"], requiredVariables: ["X"], agents: [agent("a", { prompt: "{{X}}" })] });
    expect(codesOf(def)).toContain("E_DUPLICATE_ENV_NAME");
  });
});

describe("schedule and pricing", () => {
  it("E_CRON_INVALID for a missing or malformed expression", () => {
    expect(codesOf(team({ schedule: { type: "cron", cron: "0 9 * * MON-FRI" } }))).toEqual([]);
    expect(codesOf(team({ schedule: { type: "cron" } }))).toEqual(["E_CRON_INVALID"]);
    expect(codesOf(team({ schedule: { type: "cron", cron: "0 9 * *" } }))).toEqual(["E_CRON_INVALID"]);
  });
  it("W_SCHEDULE_CONTINUOUS; event and condition are accepted (v1.1)", () => {
    expect(codesOf(team({ schedule: { type: "continuous" } }))).toEqual(["W_SCHEDULE_CONTINUOUS"]);
    expect(codesOf(team({ schedule: { type: "event", webhookSecret: "s" } }))).toEqual([]);
    expect(codesOf(team({ schedule: { type: "condition", conditionInterval: "6h", conditionPrompt: "Any new leads?" } }))).toEqual([]);
  });
  it("E_PRICING_AMOUNT_MISSING (a registry warning when validating for an export) and W_PRICING_INTERVAL_MISSING", () => {
    expect(codesOf(team({ pricing: { model: "per_run", amount: 0.1 } }))).toEqual([]);
    expect(codesOf(team({ pricing: { model: "per_k_tokens" } }))).toEqual(["E_PRICING_AMOUNT_MISSING"]);
    const forExport = validate(JSON.stringify(team({ pricing: { model: "per_run" } })), { forExport: true });
    expect(forExport.valid).toBe(true);
    expect(forExport.diagnostics).toMatchObject([{ code: "W_REGISTRY_FIELD", severity: "warning", pointer: "/pricing/model", message: expect.stringContaining("(E_PRICING_AMOUNT_MISSING; registry-only") }]);
    expect(codesOf(team({ pricing: { model: "subscription" } }))).toEqual(["W_PRICING_INTERVAL_MISSING"]);
  });
  it("W_PRICING_CURRENCY_CASE: \"usd\" (the schema's documented default) is read as USD", () => {
    expect(codesOf(team({ pricing: { model: "per_run", amount: 0.1, currency: "USD" } }))).toEqual([]);
    const r = validate(JSON.stringify(team({ pricing: { model: "per_run", amount: 0.1, currency: "usd" } })));
    expect(r.valid).toBe(true);
    expect(r.diagnostics).toMatchObject([{ code: "W_PRICING_CURRENCY_CASE", severity: "warning", pointer: "/pricing/currency" }]);
    expect(modelFromDocument(r.document!).registry.pricing?.currency).toBe("USD");
    // Not three letters: still reported, but as a registry warning.
    expect(codesOf(team({ pricing: { model: "free", currency: "US dollars" } }))).toEqual(["W_REGISTRY_FIELD"]);
  });
});

describe("registry-only fields never block a definition", () => {
  it.each([
    ["pricing", { pricing: { model: "gratis", amount: -1, trialDays: 1.5, extra: true } }],
    ["pricing not an object", { pricing: "free" }],
    ["visibility", { visibility: "everyone" }],
    ["visibility missing", { visibility: undefined }],
    ["tags", { tags: ["x".repeat(51), 3] }],
    ["tags not an array", { tags: "a,b" }],
    ["category", { category: "Accounting" }],
    ["icon", { icon: "icon.png" }],
    ["forkable", { forkable: "yes" }],
    ["forkedFrom", { forkedFrom: { ownerSlug: 1 } }],
    ["changelog", { changelog: 7 }],
    ["metadata", { metadata: { generatedBy: 3 } }],
    ["metadata not an object", { metadata: [] }],
    ["agent metadata", { agents: [agent("lead", { role: "manager", metadata: "x" })] }],
  ])("%s: warnings only (W_REGISTRY_FIELD), errors under strict", (_, extra) => {
    const def = team(extra as Record<string, unknown>);
    const r = validate(JSON.stringify(def));
    expect(r.diagnostics.length).toBeGreaterThan(0);
    expect(r.diagnostics.every((d) => d.code === "W_REGISTRY_FIELD" && d.severity === "warning"), JSON.stringify(r.diagnostics)).toBe(true);
    expect(r.valid).toBe(true);
    expect(r.diagnostics[0]!.message).toMatch(/\((E_[A-Z_]+); registry-only/);
    for (const target of [TARGETS.crewai!, TARGETS.langgraph!]) expect(exportDefinition(JSON.stringify(def), target).ok).toBe(true);
    expect(validate(JSON.stringify(def), { strict: true }).valid).toBe(false);
  });
});

describe("workspace (v1.2)", () => {
  const doc = (extra: Record<string, unknown> = {}) => ({
    name: "leads",
    columns: [
      { name: "email", owner: "human", id: true, pii: true },
      { name: "status", owner: "agent" },
    ],
    statusValues: ["new", "contacted"],
    triggers: [{ column: "status", status: "new" }],
    ...extra,
  });
  it("accepts a well-formed document", () => {
    expect(codesOf(team({ workspace: [doc()] }))).toEqual([]);
  });
  it("E_WORKSPACE_MULTIPLE_ID", () => {
    expect(codesOf(team({ workspace: [doc({ columns: [{ name: "a", owner: "agent", id: true }, { name: "status", owner: "agent", id: true }] })] }))).toEqual(["E_WORKSPACE_MULTIPLE_ID"]);
  });
  it("E_WORKSPACE_TRIGGER_COLUMN and E_WORKSPACE_TRIGGER_STATUS", () => {
    expect(codesOf(team({ workspace: [doc({ triggers: [{ column: "stage", status: "new" }] })] }))).toEqual(["E_WORKSPACE_TRIGGER_COLUMN"]);
    expect(codesOf(team({ workspace: [doc({ triggers: [{ column: "status", status: "won" }] })] }))).toEqual(["E_WORKSPACE_TRIGGER_STATUS"]);
  });
  it("E_DUPLICATE_WORKSPACE_NAME and E_WORKSPACE_DUPLICATE_COLUMN", () => {
    expect(codesOf(team({ workspace: [doc(), doc()] }))).toEqual(["E_DUPLICATE_WORKSPACE_NAME"]);
    expect(codesOf(team({ workspace: [doc({ columns: [{ name: "status", owner: "agent" }, { name: "status", owner: "human" }] })] }))).toEqual(["E_WORKSPACE_DUPLICATE_COLUMN"]);
  });
});

describe("schema diagnostics", () => {
  it("suggests the right name for an unknown property", () => {
    const d = diagnosticsOf(team({ agents: [agent("a", { systemPrompt: "x" })] }));
    expect(d).toMatchObject([{ code: "E_UNKNOWN_PROPERTY", pointer: "/agents/0/systemPrompt", hint: "did you mean `prompt`?" }]);
  });
  it("a swapped pair of letters is one typo: `agnets` suggests `agents`", () => {
    expect(suggestName("agnets", ["agents", "inputs", "outputs"])).toBe("agents");
    expect(suggestName("pipleine", ["pipeline", "agents"])).toBe("pipeline");
    expect(editDistance("agnets", "agents")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(suggestName("zzzzzz", ["agents"])).toBeUndefined();
  });
  it("lists allowed values for an enum mismatch", () => {
    expect(diagnosticsOf(team({ schedule: { type: "weekly" } }))).toMatchObject([{ code: "E_ENUM", hint: expect.stringContaining('"manual", "cron"') }]);
    // A registry field keeps the words and hint, as a warning.
    expect(diagnosticsOf(team({ visibility: "secret" }))).toMatchObject([{ code: "W_REGISTRY_FIELD", message: expect.stringContaining("(E_ENUM;"), hint: 'allowed: "public", "team", "private"' }]);
  });
  it("shows the right $schema URL", () => {
    expect(diagnosticsOf(team({ $schema: "https://example.com/x.json" }))).toMatchObject([{ code: "E_SCHEMA_URL", hint: expect.stringContaining("https://schema.openenvelope.org/team/v1.json") }]);
  });
  it("accepts a valid icon URI and warns about a non-URI (registry-only)", () => {
    expect(codesOf(team({ icon: "https://example.com/icon.png" }))).toEqual([]);
    expect(diagnosticsOf(team({ icon: "not a uri" }))).toMatchObject([{ code: "W_REGISTRY_FIELD", message: expect.stringContaining("(E_FORMAT;") }]);
  });
  it("reports every problem in one run, ordered by position", () => {
    const d = diagnosticsOf(team({ slug: "Bad Slug", version: "1", agents: [agent("a", { reportsToKey: "zz" })] }));
    expect(d.map((x) => x.code)).toEqual(["E_PATTERN", "E_PATTERN", "E_REPORTS_TO_UNKNOWN"]);
    expect(d.map((x) => x.line)).toEqual([...d.map((x) => x.line)].sort((a, b) => a - b));
  });
  it("--strict turns warnings into errors", () => {
    const def = team({ schedule: { type: "continuous" } });
    expect(diagnosticsOf(def, { strict: true })).toMatchObject([{ code: "W_SCHEDULE_CONTINUOUS", severity: "error" }]);
  });
});
