// One test per row of the LangGraph mapping: what each definition field becomes in the files.
// (The generated projects' own tests, run in test/e2e, prove the behaviour on LangGraph.)
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { UNMAPPED } from "../src/export/loss-report.js";
import { ROOT } from "./helpers/cli.js";
import { agent, team } from "./helpers/definitions.js";
import { exportFor, validDefinitions } from "./helpers/export.js";
import { contextAllField, inputChannels, STATE_CHANNELS } from "../src/targets/langgraph/view.js";

const exportOf = (source: string | object) => exportFor(source, "langgraph");

const support = exportOf("examples/support-tier.envelope.json");
const panel = exportOf("test/fixtures/valid/investment-due-diligence-panel.envelope.json");
const studio = exportOf("test/fixtures/valid/content-studio.envelope.json");
const hiring = exportOf("test/fixtures/valid/engineering-hiring-loop.envelope.json");
const desk = exportOf("test/fixtures/valid/enterprise-support-desk.envelope.json");
const weekly = exportOf("test/fixtures/valid/weekly-pipeline-review.envelope.json");

describe("LangGraph mapping", () => {
  it("every field of every valid definition has a rule (nothing silently dropped)", () => {
    for (const { path } of validDefinitions()) {
      const x = exportOf(path.slice(ROOT.length));
      expect(x.loss.filter((e) => e.detail === UNMAPPED).map((e) => e.field), path).toEqual([]);
    }
  });

  it("an export ships only the tests about its team (envelope-export tests the support code): its graph, and its whole run offline", () => {
    for (const { path } of validDefinitions()) {
      const x = exportOf(path.slice(ROOT.length));
      const tests = x.files.paths().filter((p) => p.startsWith("tests/") && p !== "tests/conftest.py");
      expect(tests, path).toEqual(["tests/test_team_graph.py", "tests/test_team_run.py"]);
    }
  });

  it("agents → team.AGENTS (identifier, description, manager); the prompt file is the prompt byte for byte", () => {
    const t = support.text("src/support_tier/team.py");
    expect(t).toMatch(/"billing-specialist": AgentSpec\(\n\s+name="billing_specialist",\n\s+description=\(\n\s+"Billing Specialist: Billing Support Agent \(specialist\)\. Capabilities: "\n\s+"billing, subscriptions, refunds\."\n\s+\),\n\s+reports_to="support-lead",/);
    const def = JSON.parse(readFileSync(ROOT + "examples/support-tier.envelope.json", "utf8"));
    expect(support.text("src/support_tier/prompts/support-lead.txt")).toBe(def.agents[0].prompt);
  });

  it("model / modelConfig → init_chat_model ids with LangChain's provider prefixes, parameters, and exactly the needed packages", () => {
    const models = panel.text("src/investment_due_diligence_panel/models.py");
    expect(models).toMatch(/"lead-analyst": ModelSpec\(\s*model="anthropic:claude-opus-4-5", timeout_s=/);
    expect(models).toMatch(/"product-analyst": ModelSpec\(\s*model="google_genai:gemini-2.5-pro"/);
    expect(models).toMatch(/"legal-analyst": ModelSpec\(\s*model="mistralai:mistral-large-latest"/);
    expect(models).toMatch(/"team-analyst": ModelSpec\(\s*model="openrouter:meta-llama\/llama-3.3-70b-instruct"/);
    expect(models).toMatch(/"financial-analyst": ModelSpec\(\s*model="openai:o3", max_tokens=16000, timeout_s=600\s*\)/);
    expect(models).toMatch(/"red-team-analyst": ModelSpec\(\s*model="anthropic:claude-sonnet-4-5", temperature=1, max_tokens=6000, timeout_s=300\s*\)/);
    const deps = panel.text("pyproject.toml");
    for (const p of ["langchain-anthropic", "langchain-google-genai", "langchain-mistralai", "langchain-openai", "langchain-openrouter"]) expect(deps).toContain(`"${p}>=`);
    const supportDeps = support.text("pyproject.toml");
    expect(supportDeps).toContain('"langchain-anthropic>=');
    // The dependencies proper; the others are optional extras (README: Any model endpoint).
    expect(supportDeps.slice(0, supportDeps.indexOf("[project.optional-dependencies]"))).not.toMatch(/langchain-(openai|google-genai|mistralai|openrouter)/);
    const env = panel.text(".env.example");
    for (const key of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GOOGLE_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY"]) expect(env).toContain(`\n${key}=`);
  });

  it("an agent without a model uses MODEL, else the documented default (whose package and key are included)", () => {
    const x = exportOf(team({ agents: [agent("lead")] }));
    expect(x.text("src/test_team/models.py")).toContain('"lead": ModelSpec(model=None, timeout_s=30)');
    expect(x.text(".env.example")).toContain("\n# MODEL=");
    expect(x.text(".env.example")).toContain("\nOPENAI_API_KEY=");
    expect(x.text("pyproject.toml")).toContain('"langchain-openai>=');
    expect(x.text("README.md")).toContain("use the `MODEL`");
  });

  it("an unknown provider (even one named like an Object member) is passed as written, reported", () => {
    const x = exportOf(team({ agents: [agent("lead", { model: "__proto__:m" })] }));
    expect(x.text("src/test_team/models.py")).toContain('model="__proto__:m"');
    expect(x.loss.find((e) => e.field === "agents[0].model")).toMatchObject({ status: "approximated" });
  });

  it("hierarchy: the entry agent runs the team; reports_to keeps every line of a 3-level tree", () => {
    // No retry policy: the team node holds every agent's completed calls (a model call retries itself).
    expect(support.text("src/support_tier/graph.py")).toContain('builder.add_node("team", nodes.team(), timeout=nodes.team_timeout())');
    const t = desk.text("src/enterprise_support_desk/team.py");
    expect(t).toMatch(/"refunds-specialist": AgentSpec\([\s\S]*?reports_to="billing-lead",/);
    expect(t).toMatch(/"billing-lead": AgentSpec\([\s\S]*?reports_to="head-of-support",/);
    expect(desk.model.hierarchy.maxDepth).toBe(2);
    // The team's own test names each agent's node path in the graph and its tools (agents.py).
    expect(desk.text("tests/test_team_graph.py")).toContain('"billing-lead": ("team", "ask-billing_lead", "billing_lead"),');
    expect(desk.text("tests/test_team_graph.py")).toMatch(/"refunds-specialist": \(\s*"team",\s*"ask-billing_lead",\s*"ask-refunds_specialist",\s*"refunds_specialist",\s*\)/);
    expect(desk.text("tests/test_team_graph.py")).toContain('"billing-lead": ("http_request", "ask_refunds_specialist", "ask_invoicing_specialist"),');
  });

  it("several roots: the others report to the first, reported as approximated", () => {
    const x = exportOf(team({ agents: [agent("a"), agent("b")] }));
    expect(x.text("src/test_team/team.py")).toMatch(/"b": AgentSpec\([\s\S]*?reports_to="a",/);
    expect(x.loss.find((e) => e.field === "agents[1].key")).toMatchObject({ status: "approximated", detail: expect.stringContaining(", a,") });
  });

  it("pipeline + dependsOn → a node per step; joins are list edges; sinks join into finalize", () => {
    const g = studio.text("src/content_studio/graph.py");
    expect(g).toMatch(/builder\.add_node\(\s*"step_research",\s+nodes\.step\("research"\),\s+timeout=nodes\.step_timeout\("research"\),?\s*\)/);
    expect(g).not.toContain("retry_policy");
    expect(g).toContain('builder.add_edge("prepare", "step_research")');
    expect(g).toContain('builder.add_edge("step_research", "step_keyword-brief")');
    expect(g).toContain('builder.add_edge(["step_keyword-brief", "step_audience-questions"], "step_draft-article")');
    expect(g).toMatch(/builder\.add_edge\(\s*\["step_draft-article", "step_social-posts", "step_newsletter"\], "step_final-edit"\s*\)/);
    expect(g).toContain('builder.add_edge("step_publish-draft", "finalize")');
  });

  it("gates → a gate node after the step (routed by Command), a released node before the triggered step", () => {
    const g = studio.text("src/content_studio/graph.py");
    expect(g).toMatch(/"step_final-edit",\s+nodes\.step\("final-edit"\),\s+timeout=nodes\.step_timeout\("final-edit"\),\s+destinations=\("gate_editorial-approval",\)/);
    // rerun: back to the step; escalate (timeout.behaviour): the escalation node; halt: END
    expect(g).toMatch(/"gate_editorial-approval",\s+nodes\.gate\("editorial-approval"\),\s+destinations=\(\s*"gate_editorial-approval",\s+"released_editorial-approval",\s+"step_final-edit",\s+"escalate_editorial-approval",\s+END,\s+\),/);
    expect(g).toMatch(/"escalate_editorial-approval",\s+nodes\.escalate\("editorial-approval"\),\s+timeout=nodes\.escalation_timeout\("editorial-approval"\),\s+destinations=\("gate_editorial-approval", END\),/);
    expect(g).toContain('builder.add_edge("released_editorial-approval", "step_publish-draft")');
    expect(g).not.toMatch(/add_edge\("step_final-edit"/);
    const t = studio.text("src/content_studio/team.py");
    expect(t).toMatch(/"editorial-approval": GateSpec\(\n\s+name="editorial-approval",\n\s+type="content_generation",\n\s+after_step="final-edit",\n\s+triggers_step="publish-draft",/);
    expect(studio.text("src/content_studio/state.py")).toMatch(/class FinalEditRecord\(BaseModel\):\n\s+"""One record a reviewer decides on."""\n\n\s+title: str\n\s+meta_description: str\n\s+article_markdown: str\n\s+change_log: str\n/);
    expect(hiring.text("src/engineering_hiring_loop/team.py")).toContain("threshold_count=");
    // The team's own test names each step's node and each gate's nodes.
    const own = studio.text("tests/test_team_graph.py");
    expect(own).toContain('"final-edit": "step_final-edit",');
    expect(own).toMatch(/"editorial-approval": \(\s*"gate_editorial-approval",\s*"released_editorial-approval",\s*"escalate_editorial-approval",?\s*\)/);
    expect(support.text("tests/test_team_graph.py")).not.toContain("GATE_NODES");
  });

  it("gates in a team without a pipeline are reported as not carried", () => {
    // A hierarchy ships no gate rules: GATES is empty and typed without them.
    expect(desk.text("src/enterprise_support_desk/team.py")).toContain("GATES: dict[str, object] = {}");
    expect(desk.text("src/enterprise_support_desk/team.py")).not.toContain("GateSpec");
    const gateFields = desk.loss.filter((e) => e.field.startsWith("gates["));
    expect(gateFields.length).toBeGreaterThan(0);
    expect(gateFields.filter((e) => e.status !== "dropped")).toEqual([]);
  });

  it("accessPolicy / allowedHosts → team.POLICIES, escaped", () => {
    const t = support.text("src/support_tier/team.py");
    expect(t).toMatch(/"billing-specialist": AccessPolicy\(\n\s+default_action="deny",\n\s+rules=\(\n\s+# rules\[0\]\n\s+PolicyRule\(\n\s+host="\{\{ZENDESK_SUBDOMAIN\}\}\.zendesk\.com",\n\s+methods=\("GET", "POST", "PUT"\),\n\s+path_prefix="\/api\/v2\/tickets",\n\s+action="allow",/);
    const x = exportOf(team({ agents: [agent("a", { allowedHosts: ["api.example.com", "*.x.org"] })] }));
    expect(x.text("src/test_team/team.py")).toContain('"a": AccessPolicy.from_allowed_hosts(("api.example.com", "*.x.org"))');
    const none = exportOf(team()).text("src/test_team/team.py");
    expect(none).toContain("POLICIES: dict[str, object] = {}");
    expect(none).not.toContain("AccessPolicy");
  });

  it("the team's package holds only its rendered files; the graph wires its mode's nodes from envelope-runtime, which is vendored whole", () => {
    const rendered = (x: ReturnType<typeof exportOf>, pkg: string) =>
      x.files.paths().filter((p) => p.startsWith(`src/${pkg}/`) && !p.startsWith(`src/${pkg}/prompts/`)).map((p) => p.slice(`src/${pkg}/`.length)).sort();
    const always = ["__init__.py", "context.py", "envelope.json", "graph.py", "main.py", "models.py", "state.py", "team.py"];
    // A hierarchy without gates or workspace: no server module (langgraph.json has no store, no http.app).
    expect(rendered(desk, "enterprise_support_desk")).toEqual(always);
    const deskGraph = desk.text("src/enterprise_support_desk/graph.py");
    expect(deskGraph).toContain("from envelope_runtime.langgraph.hierarchy import HierarchyNodes\nfrom envelope_runtime.langgraph.llms import ModelFactory\nfrom envelope_runtime.team_package import TeamPackage\n");
    expect(deskGraph).toContain('TEAM = TeamPackage("enterprise_support_desk")\n');
    expect(deskGraph).not.toContain("PipelineNodes");
    // A gated pipeline: its server module (the resume redaction as http.app).
    expect(rendered(studio, "content_studio")).toEqual([...always, "server.py"].sort());
    const studioGraph = studio.text("src/content_studio/graph.py");
    expect(studioGraph).toContain("from envelope_runtime.langgraph.llms import ModelFactory\nfrom envelope_runtime.langgraph.pipeline import PipelineNodes\nfrom envelope_runtime.team_package import TeamPackage\n");
    expect(studioGraph).not.toContain("HierarchyNodes");
    expect(rendered(exportOf(team()), "test_team")).toEqual(always);
    // The library is whole in every export (what a team does not use, it does not import).
    const vendored = (x: ReturnType<typeof exportOf>) =>
      x.files.paths().filter((p) => p.startsWith("vendor/envelope-runtime/src/envelope_runtime/langgraph/")).sort();
    expect(vendored(exportOf(team()))).toEqual(vendored(studio));
    expect(vendored(studio)).toEqual(expect.arrayContaining(["pipeline.py", "hierarchy.py", "review.py", "tools.py", "server_app.py"].map((m) => `vendor/envelope-runtime/src/envelope_runtime/langgraph/${m}`)));
    for (const x of [desk, studio]) expect(x.files.paths().filter((p) => p.includes("envelope_support"))).toEqual([]);
    // The package's __init__.py names its team and carries the definition's version.
    expect(exportOf(team()).text("src/test_team/__init__.py")).toMatch(/^__version__ = "\d+\.\d+\.\d+[^"]*"$/m);
  });
  it("an accessPolicy without rules (the schema allows it) denies by default and imports no unused PolicyRule", () => {
    const t = exportOf(team({ agents: [agent("a", { accessPolicy: { accessPolicyVersion: "1", defaultAction: "deny" } })] })).text("src/test_team/team.py");
    expect(t).toContain("from envelope_runtime.policy import AccessPolicy\n");
    expect(t).toMatch(/"a": AccessPolicy\(\n\s+default_action="deny",\n\s+rules=\(\),?\n/);
    expect(support.text("src/support_tier/team.py")).toContain("from envelope_runtime.policy import AccessPolicy, PolicyRule\n");
  });

  it(".env.example keeps `langgraph dev` offline, with a comment saying so", () => {
    expect(support.text(".env.example")).toMatch(/\n# Keeps `langgraph dev` offline[^\n]*\nLANGGRAPH_NO_VERSION_CHECK=true\n/);
  });
  it("secrets and variables → names only in .env.example", () => {
    const env = support.text(".env.example");
    expect(env).toContain("# requiredSecrets\nZENDESK_API_KEY=\nSLACK_BOT_TOKEN=\n");
    expect(env).toContain("# requiredVariables\nSUPPORT_EMAIL=\nCOMPANY_NAME=\nZENDESK_SUBDOMAIN=\n");
    // No values, except LANGGRAPH_NO_VERSION_CHECK and the commented examples of the "Any
    // model endpoint" section.
    expect(env.replace("\nLANGGRAPH_NO_VERSION_CHECK=true\n", "\n")).not.toMatch(/^[^#\n][^=\n]*=[^\n]/m);
  });

  it("inputs → typed TeamInputs and runner specs; outputs → the TeamResult model", () => {
    const s = support.text("src/support_tier/state.py");
    // A generated pydantic class (LangGraph validates a run's inputs, Studio and the server
    // show them, an editor sees its fields): type, required or default, description.
    expect(s).toContain('class TeamInputs(BaseModel):\n    """The team\'s inputs."""\n\n    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)\n');
    expect(s).not.toContain("create_model");
    expect(s).toMatch(/    ticket_text: Annotated\[str, EphemeralValue\] = Field\(\s*description="The raw ticket content to be triaged\."\s*\)/);
    expect(s).toMatch(/    priority_override: Annotated\[\s*Literal\["low", "normal", "high", "urgent"\] \| None, EphemeralValue\s*\] = Field\(\s*default=None,\s*description=\(\s*"Optional manual priority/);
    expect(s).toMatch(/escalated: bool \| None = Field\(\s*default=None,\s*description="Whether the ticket was escalated/);
    // the runner's specs (flags, defaults, checks) are read from the schema, not rendered twice
    const t = support.text("src/support_tier/team.py");
    expect(t).toContain("\nfrom .state import INPUT_CHANNELS, TeamInputs\n");
    expect(t).toContain("\nINPUTS = input_specs(TeamInputs, INPUT_CHANNELS)\n");
    expect(t).not.toContain("InputSpec");
  });

  it("timeouts → run limit, step-node timeouts, model timeouts, an explicit recursion limit", () => {
    expect(support.text("src/support_tier/team.py")).toContain("# timeout.runMs, timeout.agentMs (not set: the defaults)\nRUN_TIMEOUT_MS = 30000\nAGENT_TIMEOUT_MS = 30000");
    expect(support.text("src/support_tier/team.py")).toMatch(/\nRECURSION_LIMIT = \d+\n/);
    expect(studio.text("src/content_studio/models.py")).toMatch(/"writer": ModelSpec\(\s*model="anthropic:claude-opus-4-5", temperature=0\.7, max_tokens=8000, timeout_s=180\s*\)/);
    expect(studio.text("src/content_studio/graph.py")).toMatch(/nodes\.step\("draft-article"\),\s+timeout=nodes\.step_timeout\("draft-article"\)/);
  });

  it("langgraph.json serves the module-level graph; the README documents run, resume and test", () => {
    expect(JSON.parse(support.text("langgraph.json"))).toEqual({
      dependencies: ["./vendor/envelope-runtime", "."],
      graphs: { support_tier: "./src/support_tier/graph.py:graph" },
      env: ".env",
      python_version: "3.11",
      // The Agent Server image: test/e2e/langgraph-deploy.test.ts reads what they build.
      api_version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      dockerfile_lines: expect.any(Array),
    });
    expect(support.text("src/support_tier/graph.py")).toContain("\ngraph = build_graph()\n");
    // A team with gates: the server's resume redaction (issue 34) is mounted as its http.app.
    expect(JSON.parse(studio.text("langgraph.json")).http).toEqual({ app: "content_studio.server:app" });
    expect(studio.text("src/content_studio/server.py")).toContain("\napp = build_app(TEAM)\n");
    expect(support.files.get("src/support_tier/server.py")).toBeUndefined();
    const readme = studio.text("README.md");
    expect(readme).toContain("```sh\nuv sync\n```");
    expect(readme).toContain("uv run pytest");
    expect(readme).toContain("uv run content_studio resume THREAD_ID --decisions .langgraph_runs/THREAD_ID.decisions.json");
  });

  it("schedule cron → a scheduled workflow with secrets from repository secrets, and words in the README", () => {
    const wf = weekly.text(".github/workflows/scheduled-run.yml");
    expect(wf).toContain('    - cron: "0 7 * * MON"');
    expect(wf).toContain("          HUBSPOT_PRIVATE_APP_TOKEN: ${{ secrets.HUBSPOT_PRIVATE_APP_TOKEN }}");
    expect(weekly.text("README.md")).toContain("runs at 07:00 UTC on Monday");
    expect(support.files.get(".github/workflows/scheduled-run.yml")).toBeUndefined();
  });

  it("name, slug, version, description, readme → pyproject, README, TEAM.md", () => {
    expect(support.text("pyproject.toml")).toMatch(/name = "support-tier"\nversion = "1.0.0"\ndescription = "A three-tier support team/);
    expect(support.text("pyproject.toml")).toContain('requires-python = ">=3.11"');
    expect(support.text("README.md").startsWith("# Support Tier\n")).toBe(true);
    expect(support.files.get("TEAM.md")).toBeDefined();
  });
});

describe("LangGraph graph schemas: flat input, status output, models per run (issue 15)", () => {
  it("graph.py declares Context, TeamInputs and TeamOutput as the graph's context, input and output", () => {
    const g = support.text("src/support_tier/graph.py");
    expect(g).toMatch(/StateGraph\(\s*TeamState, context_schema=Context, input_schema=TeamInputs, output_schema=TeamOutput\s*\)/);
    expect(g).toContain("-> CompiledStateGraph[TeamState, Context, TeamInputs, TeamOutput]:");
    const s = support.text("src/support_tier/state.py");
    expect(s).toContain('class TeamOutput(TypedDict):\n    """What a run ends with (the graph\'s output schema)');
    // The same keys for every run (a run on a thread that ran before too): None when not applicable.
    expect(s).toMatch(/\n    status: Literal\["done", "halted", "waiting"\] \| None\n    halted: str \| None\n    result: TeamResult \| None\n/);
    expect(s).toContain("INPUT_CHANNELS: dict[str, str] = {}");
    expect(s).not.toContain("class TeamInput(");
  });

  it("view.STATE_CHANNELS are exactly the keys of TeamState and TeamOutput (so no input can write into them)", () => {
    const s = support.text("src/support_tier/state.py");
    const keysOf = (cls: string) => [...(s.split(`class ${cls}(`)[1]!.split(/\n\n\n/)[0]!.matchAll(/^    ([a-z_]+): /gm))].map((m) => m[1]!);
    expect(new Set([...keysOf("TeamState"), ...keysOf("TeamOutput")])).toEqual(new Set(STATE_CHANNELS));
  });

  it("an input named like a state key or a LangGraph channel gets another key in the graph's input, never a collision", () => {
    const inputs = { answers: { type: "string", required: true }, input_answers: { type: "string" }, __start__: { type: "number" }, "branch:to:prepare": { type: "string" }, topic: { type: "string" }, json: { type: "boolean", default: true }, _x: { type: "array" } };
    const x = exportOf(team({ inputs }));
    const s = x.text("src/test_team/state.py");
    const field = (name: string, type: string, field: string) => `    ${name}: Annotated[${type}, EphemeralValue] = ${field}\n`;
    expect(s).toContain("class TeamInputs(BaseModel):");
    expect(s).toContain(field("input_answers_2", "str", "Field()"));
    expect(s).toContain(field("input_answers", "str | None", "Field(default=None)"));
    expect(s).toContain(field("input_start", "int | float | None", "Field(default=None)"));
    expect(s).toContain(field("input_branch_to_prepare", "str | None", "Field(default=None)"));
    expect(s).toContain(field("topic", "str | None", "Field(default=None)"));
    // Names pydantic's BaseModel has, or refuses (a leading _), are renamed too.
    expect(s).toContain(field("input_json", "bool", "Field(default=True)"));
    expect(s).toContain(field("input_x", "list[Any] | None", "Field(default=None)"));
    expect(s).toMatch(/INPUT_CHANNELS: dict\[str, str\] = \{\n    # inputs\.answers\n    "answers": "input_answers_2",\n    # inputs\.__start__\n    "__start__": "input_start",\n/);
    expect(x.loss.find((e) => e.field === "inputs.answers")?.detail).toContain('state.TeamInputs as "input_answers_2"');
    expect(x.text("README.md")).toContain("`answers` as `input_answers_2`");
    // Deterministic, definition order decides.
    expect(inputChannels([{ key: "status" }, { key: "input_status" }]).map((i) => i.channel)).toEqual(["input_status_2", "input_status"]);
  });

  it("an input named like a channel LangGraph reserves, or no Python identifier, is renamed too", () => {
    const keys = ["configurable", "thread_id", "checkpoint_id", "checkpoint_ns", "checkpoint_map", "langsmith:hidden", "join:a:b", "start:x", "ticket-text", "class", "str", "Field"];
    expect(inputChannels(keys.map((key) => ({ key }))).map((i) => i.channel)).toEqual(["input_configurable", "input_thread_id", "input_checkpoint_id", "input_checkpoint_ns", "input_checkpoint_map", "input_langsmith_hidden", "input_join_a_b", "input_start_x", "input_ticket_text", "input_class", "input_str", "input_field"]);
    // `|` and `:` have no letters: numbered apart.
    expect(inputChannels([{ key: "|" }, { key: ":" }]).map((i) => i.channel)).toEqual(["input_value", "input_value_2"]);
    // Near misses keep their names: LangGraph refuses only the exact names.
    expect(inputChannels([{ key: "configurable_x" }, { key: "Topic" }]).map((i) => i.renamed)).toEqual([false, false]);
  });

  it("context.Context: one field per agent, named by the namer's identifier, and one for every agent", () => {
    const c = support.text("src/support_tier/context.py");
    expect(c).toContain('@dataclasses.dataclass(kw_only=True)\nclass Context:');
    // No bare `field`/`dataclass` in the class body: an agent's identifier may be `field`.
    expect(c).toContain("\nimport dataclasses\n");
    expect(c).not.toMatch(/from dataclasses import/);
    expect(c).toContain('# agents[1] billing-specialist\n    "billing-specialist": "billing_specialist",');
    expect(c).toContain('ALL_AGENTS_FIELD = "model"');
    expect(c).toMatch(/\n    model: str \| None = dataclasses\.field\(\n\s+default=None, metadata=\{"description": "The model of every agent without its own\."\}\n\s+\)/);
    expect(c).toMatch(/\n    # agents\[1\] billing-specialist\n    billing_specialist: str \| None = dataclasses\.field\(\n\s+default=None, metadata=\{"description": "The model of agent billing-specialist\."\}/);
    const fields = [...c.matchAll(/^    ([a-z_0-9]+): str \| None = dataclasses\.field\(/gm)].map((m) => m[1]);
    expect(fields).toEqual(["model", ...support.model.agents.map((a) => a.ident)]);
  });

  it("agent keys reach Context only through the namer and the escaping helpers; `model` stays free", () => {
    const keys = ["model", "class", "a-b", "a_b", "print"];
    const x = exportOf(team({ agents: keys.map((k, i) => agent(k, i === 0 ? { role: "manager" } : { reportsToKey: "model" })) }));
    const c = x.text("src/test_team/context.py");
    const idents = x.model.agents.map((a) => a.ident);
    expect(idents).toEqual(["model", "class_", "a_b", "a_b_agent", "print_"]);
    expect(c).toContain('ALL_AGENTS_FIELD = "model_2"');
    for (const [i, key] of keys.entries()) expect(c).toContain(`    ${JSON.stringify(key)}: ${JSON.stringify(idents[i])},`);
    const fields = [...c.matchAll(/^    ([a-z_0-9]+): str \| None = dataclasses\.field\(/gm)].map((m) => m[1]);
    expect(fields).toEqual(["model_2", ...idents]);
    expect(contextAllField([{ ident: "model" }, { ident: "model_2" }])).toBe("model_3");
    // The README's example names a real field.
    expect(x.text("README.md")).toContain('context={"model": "openai:gpt-4.1"}');
  });
});
