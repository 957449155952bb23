// One test per row of the CrewAI mapping: what each definition field becomes in the files.
// (The generated projects' own tests, run in test/e2e, prove the behaviour on CrewAI.)
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";
import { agent, team } from "./helpers/definitions.js";
import { exportFor } from "./helpers/export.js";

const exportOf = (source: string | object) => exportFor(source, "crewai");

const support = exportOf("examples/support-tier.envelope.json");
const panel = exportOf("test/fixtures/valid/investment-due-diligence-panel.envelope.json");
const studio = exportOf("test/fixtures/valid/content-studio.envelope.json");
const desk = exportOf("test/fixtures/valid/enterprise-support-desk.envelope.json");
const weekly = exportOf("test/fixtures/valid/weekly-pipeline-review.envelope.json");

describe("CrewAI mapping", () => {
  it("agent name/title/role/capabilities → role/goal; the prompt is the backstory byte for byte", () => {
    const agents = support.text("src/support_tier/config/agents.yaml");
    expect(agents).toContain('"billing_specialist":\n  role: "Billing Specialist"\n  goal: "Billing Support Agent (specialist). Capabilities: billing, subscriptions, refunds."\n  backstory: "You are the Billing Specialist');
    const def = JSON.parse(readFileSync(ROOT + "examples/support-tier.envelope.json", "utf8"));
    const lead = /"support_lead":\n(?:  .*\n)*?  backstory: (".*")\n/.exec(agents)?.[1];
    expect(JSON.parse(lead!)).toBe(def.agents[0].prompt);
    expect(support.files.paths().filter((p) => p.includes("/prompts/"))).toEqual([]);
    expect(support.files.paths().filter((p) => support.text(p).includes("[[envelope-"))).toEqual([]);
  });

  it("model / modelConfig → crewai.LLM ids, parameters and exactly the needed extras", () => {
    const models = panel.text("src/investment_due_diligence_panel/models.py");
    expect(models).toMatch(/"lead-analyst": ModelSpec\(\s*model="anthropic\/claude-opus-4-5", timeout_ms=/);
    expect(models).toMatch(/"product-analyst": ModelSpec\(\s*model="gemini\/gemini-2.5-pro"/);
    expect(models).toMatch(/"legal-analyst": ModelSpec\(\s*model="mistral\/mistral-large-latest"/);
    expect(models).toMatch(/"team-analyst": ModelSpec\(\s*model="openrouter\/meta-llama\/llama-3.3-70b-instruct"/);
    expect(models).toMatch(/"financial-analyst": ModelSpec\(\s*model="openai\/o3", max_tokens=16000, timeout_ms=600000\s*\)/);
    expect(models).toMatch(/"red-team-analyst": ModelSpec\(\s*model="anthropic\/claude-sonnet-4-5", temperature=1, max_tokens=6000, timeout_ms=300000\s*\)/);
    expect(panel.text("pyproject.toml")).toContain('"crewai[anthropic,google-genai,litellm]>=1.15.30,<2.0.0"');
    expect(support.text("pyproject.toml")).toContain('"crewai[anthropic]>=1.15.30,<2.0.0"');
    const env = panel.text(".env.example");
    for (const key of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY"]) expect(env).toContain(`\n${key}=`);
  });

  it("an agent without a model uses MODEL, documented and required", () => {
    const x = exportOf(team({ agents: [agent("lead")] }));
    expect(x.text("src/test_team/models.py")).toContain('"lead": ModelSpec(model=None, timeout_ms=30000)');
    expect(x.text(".env.example")).toContain("\nMODEL=");
    expect(x.text("README.md")).toContain("use the `MODEL`");
  });

  it("an unknown provider (even one named like an Object member) goes through LiteLLM, reported", () => {
    const x = exportOf(team({ agents: [agent("lead", { model: "__proto__:m" })] }));
    expect(x.text("src/test_team/models.py")).toContain('model="__proto__/m"');
    expect(x.text("pyproject.toml")).toContain('"crewai[litellm]>=1.15.30,<2.0.0"');
    expect(x.loss.find((e) => e.field === "agents[0].model")).toMatchObject({ status: "approximated" });
  });

  it("*_local adapters are approximated by the vendor's API and reported", () => {
    const x = exportOf(team({ agents: [agent("lead", { adapterType: "claude_local" })] }));
    expect(x.loss.find((e) => e.field === "agents[0].adapterType")).toMatchObject({ status: "approximated" });
  });

  it("hierarchy: a hierarchical crew; a 3-level tree keeps every reporting line", () => {
    expect(support.text("src/support_tier/crew.py")).toContain("def handle_request(self) -> Task:");
    expect(support.text("pyproject.toml")).toContain('type = "crew"');
    const team = desk.text("src/enterprise_support_desk/team.py");
    expect(team).toContain('"refunds-specialist": AgentSpec(method="refunds_specialist", reports_to="billing-lead")');
    expect(team).toContain('"billing-lead": AgentSpec(method="billing_lead", reports_to="head-of-support")');
    expect(desk.model.hierarchy.maxDepth).toBe(2);
  });

  it("several roots: the first manages, the others are reported as its coworkers", () => {
    const x = exportOf(team({ agents: [agent("a"), agent("b")] }));
    expect(x.loss.find((e) => e.field === "agents[1].key")).toMatchObject({ status: "approximated", detail: expect.stringContaining("(a)") });
  });

  it("pipeline + dependsOn → a Flow with joins waiting for all dependencies", () => {
    const flow = studio.text("src/content_studio/flow.py");
    expect(studio.text("pyproject.toml")).toContain('type = "flow"');
    expect(flow).toMatch(/@start\(\)\n\s+def step_research\(self\)/);
    expect(flow).toMatch(/@listen\(step_research\)\n\s+def step_keyword_brief/);
    expect(flow).toMatch(/@listen\(step_research\)\n\s+def step_audience_questions/);
    expect(flow).toMatch(/@listen\(and_\(step_keyword_brief, step_audience_questions\)\)\n\s+def step_draft_article/);
    // The gate: CrewAI's human feedback after the step, a router with static labels, and the
    // released records the next step waits for.
    expect(flow).toMatch(/@listen\(or_\(step_final_edit, "editorial-approval:again"\)\)\n\s+@human_feedback\(/);
    expect(flow).toContain('provider=GateReview(),\n        metadata={"gate": "editorial-approval"},\n    )\n    def review_editorial_approval(self) -> list[dict[str, Any]]:\n        return self.review("editorial-approval")');
    expect(flow).toMatch(/@router\(\s*review_editorial_approval,\s*emit=\[\s*"editorial-approval:released",\s*"editorial-approval:again",\s*"editorial-approval:halted",?\s*\],?\s*\)\n\s+def gate_editorial_approval\(self, review: HumanFeedbackResult\) -> str:\n\s+return self.decide\("editorial-approval", review\)/);
    expect(flow).toMatch(/@listen\("editorial-approval:released"\)\n\s+def released_editorial_approval/);
    // publish-draft has no dependsOn: after the previous step, final-edit, which is gated.
    expect(flow).toMatch(/@listen\(released_editorial_approval\)\n\s+def step_publish_draft/);
    expect(studio.text("src/content_studio/crew.py")).not.toMatch(/^\s+@crew$/m);
  });

  it("gates → team.GATES and a records model with the gate's fields", () => {
    const t = studio.text("src/content_studio/team.py");
    expect(t).toMatch(/"editorial-approval": GateSpec\(\n\s+name="editorial-approval",\n\s+type="content_generation",\n\s+after_step="final-edit",\n\s+triggers_step="publish-draft",/);
    expect(t).toContain('timeout_after="2d"');
    expect(t).toContain('timeout_behaviour="escalate"');
    expect(t).toMatch(/class FinalEditRecord\(BaseModel\):\n\s+title: str\n\s+meta_description: str\n\s+article_markdown: str\n\s+change_log: str\n/);
    expect(t).toContain('RECORD_MODELS: dict[str, type[BaseModel]] = {\n    "final-edit": FinalEditRecords,\n}');
    // The team's own tests name each gate, the step it reviews and its fields.
    expect(studio.text("tests/test_team.py")).toMatch(/"editorial-approval": \(\s*"final-edit",/);
    expect(support.text("tests/test_team.py")).not.toContain("GATES");
  });

  it("accessPolicy / allowedHosts → config/access_policies.yaml, escaped", () => {
    const p = support.text("src/support_tier/config/access_policies.yaml");
    expect(p).toContain('"billing-specialist":\n  accessPolicy:\n    defaultAction: "deny"\n    rules:\n      # rules[0]\n      - "host": "{{ZENDESK_SUBDOMAIN}}.zendesk.com"\n        "methods": ["GET", "POST", "PUT"]\n        "pathPrefix": "/api/v2/tickets"\n        "action": "allow"');
    expect(p).toContain('        "reason": "Ticket deletion is irreversible — disabled for all agents."');
    const x = exportOf(team({ agents: [agent("a", { allowedHosts: ["api.example.com", "*.x.org"] })] }));
    expect(x.text("src/test_team/config/access_policies.yaml")).toContain('"a":\n  allowedHosts: ["api.example.com", "*.x.org"]');
    expect(x.text("src/test_team/team.py")).toContain('EGRESS: tuple[str, ...] = ("a",)');
  });

  it("no accessPolicy / allowedHosts anywhere → no HTTP tool, no policies file", () => {
    const x = exportOf(team({ agents: [agent("a"), agent("b", { reportsToKey: "a" })] }));
    const http = ["config/access_policies.yaml"];
    for (const path of http) expect(x.files.paths(), path).not.toContain(`src/test_team/${path}`);
    expect(x.text("src/test_team/team.py")).toContain("EGRESS: tuple[str, ...] = ()");
    expect(x.text("README.md")).toContain("the team loads no HTTP tool code");
    // One agent with egress brings all of it back.
    const y = exportOf(team({ agents: [agent("a"), agent("b", { reportsToKey: "a", allowedHosts: ["h.example"] })] }));
    for (const path of http) expect(y.files.paths(), path).toContain(`src/test_team/${path}`);
  });

  it("secrets and variables → names only in .env.example", () => {
    const env = support.text(".env.example");
    expect(env).toContain("# requiredSecrets\nZENDESK_API_KEY=\nSLACK_BOT_TOKEN=\n");
    expect(env).toContain("# requiredVariables\nSUPPORT_EMAIL=\nCOMPANY_NAME=\nZENDESK_SUBDOMAIN=\n");
    // No values, except the commented examples of the "Any model endpoint" section.
    expect(env).not.toMatch(/^[^#\n][^=\n]*=[^\n]/m);
  });

  it("inputs → the TeamInputs model (and the runner's specs from it); outputs → the TeamResult model", () => {
    const t = support.text("src/support_tier/team.py");
    expect(t).toContain('model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)');
    expect(t).toMatch(/priority_override: Literal\["low", "normal", "high", "urgent"\] \| None = Field\(\s*default=None,/);
    expect(t).toContain('ticket_text: str = Field(description="The raw ticket content to be triaged.")');
    expect(t).toContain("INPUTS = input_specs(TeamInputs)");
    expect(t).toMatch(/escalated: bool \| None = Field\(\s*default=None,\s*description="Whether the ticket was escalated/);
  });

  it("the README names each input's flag exactly as the runner derives it", () => {
    const x = exportOf(team({ inputs: { ticket_text: { type: "string", required: true }, "Max Items": { type: "number", required: true } } }));
    const readme = x.text("README.md");
    // A required input whose flag is no plain shell word goes in --inputs, named below the command.
    expect(readme).toContain("uv run test_team --ticket-text VALUE --inputs @inputs.json\n");
    expect(readme).toContain("the required inputs that have no flag here:\n`Max Items`.\n");
    // `crewai run` passes no arguments: inputs.json, INPUT_<NAME> or the terminal.
    expect(readme).toContain("Without `--inputs`, the runner reads `inputs.json` (a JSON object) in the folder it runs in,");
    expect(readme).toContain("| `crewai run` | `uv run run_crew`: a run, as above |");
    const plain = exportOf(team({ inputs: { ticket_text: { type: "string", required: true }, limit: { type: "number", required: true, default: 3 } } })).text("README.md");
    expect(plain).toContain("uv run test_team --ticket-text VALUE --limit VALUE\n");
    expect(plain).not.toContain("--inputs @inputs.json");
    expect(plain).not.toContain("the required inputs that have no flag here");
    expect(readme).toContain("| `--ticket-text` | string | yes |");
    expect(readme).toContain("| `--Max Items` | number | yes |");
  });

  it("timeouts → run deadline and per-agent model timeouts", () => {
    expect(panel.text("src/investment_due_diligence_panel/team.py")).toMatch(/RUN_TIMEOUT_MS = \d+\nAGENT_TIMEOUT_MS = \d+/);
    expect(support.text("src/support_tier/team.py")).toContain("# timeout.runMs, timeout.agentMs (not set: the defaults)\nRUN_TIMEOUT_MS = 30000\nAGENT_TIMEOUT_MS = 30000");
  });

  it("schedule cron → a scheduled workflow with secrets from repository secrets, and words in the README", () => {
    const wf = weekly.text(".github/workflows/scheduled-run.yml");
    expect(wf).toContain('    - cron: "0 7 * * MON"');
    expect(wf).toContain("          HUBSPOT_PRIVATE_APP_TOKEN: ${{ secrets.HUBSPOT_PRIVATE_APP_TOKEN }}");
    expect(wf).toContain("          team_inputs: ${{ vars.TEAM_INPUTS }}");
    expect(weekly.text("README.md")).toContain("runs at 07:00 UTC on Monday");
    expect(support.files.get(".github/workflows/scheduled-run.yml")).toBeUndefined();
  });

  it("agents on MODEL: the scheduled workflow passes every provider key the runner knows", () => {
    // MODEL names its provider only at run time, so any of them may be the one.
    const byModel = exportOf(team({ schedule: { type: "cron", cron: "0 7 * * MON" } })).text(".github/workflows/scheduled-run.yml");
    for (const name of ["MODEL", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY"]) {
      expect(byModel).toContain(`          ${name}: \${{ secrets.${name} }}`);
    }
  });

  it("readme, description, version, name → README, TEAM.md and pyproject", () => {
    expect(support.text("pyproject.toml")).toMatch(/name = "support-tier"\nversion = "1.0.0"\ndescription = "A three-tier support team/);
    expect(support.text("README.md").startsWith("# Support Tier\n")).toBe(true);
    // TEAM.md keeps the author's Markdown; only HTML-significant characters are escaped.
    expect(support.text("TEAM.md")).toContain("| `ZENDESK_API_KEY` | Zendesk Admin → Apps &amp; Integrations → API |");
  });

  it("the generated test takes each step's context from the real flow (PipelineFlow.answers), after a gate as gates.receives says", () => {
    // Fed by hand, the test could not see the flow give a step after a gate the answer the gate reviews.
    const tests = studio.text("tests/test_team.py");
    expect(tests).toContain("crews.step_crew(key, \"\", run.answers(key))");
    expect(tests).toContain("tuple(receives(key, deps, team.GATES)[0])");
    expect(tests).not.toContain("dict.fromkeys(deps");
  });
});
