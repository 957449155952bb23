// The langgraph-js README promises only what the export does: an agent's tools as the runtime
// gives them (ask_<report> only in a hierarchy: a pipeline step's agent works alone), and the
// runner's exit codes; the loss report says carried only what the runtime reads.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exportDefinition } from "../src/export/export.js";
import { TARGETS } from "../src/targets/index.js";
import { ROOT } from "./helpers/cli.js";

function readme(path: string, name = "README.md", target = "langgraph-js"): string {
  const file = join(ROOT, path);
  const r = exportDefinition(readFileSync(file), TARGETS[target]!, { file });
  if (!r.ok || !r.files) throw new Error(`export failed: ${r.failure ?? JSON.stringify(r.diagnostics)}`);
  return r.files.text(name)!;
}

const row = (text: string, key: string) => text.split("\n").find((l) => l.includes(`| \`${key}\` |`));

describe("langgraph-js README", () => {
  it("a pipeline's manager has no ask_ tools (the runtime gives none outside a hierarchy)", () => {
    const text = readme("test/fixtures/valid/parallel-gates.envelope.json");
    expect(row(text, "procurement-lead")).toBe("| Priya | `procurement-lead` | Procurement Lead (manager): vendor-management, negotiation | `anthropic:claude-sonnet-4-5` | none |");
    expect(text).not.toContain("ask_");
    expect(text).toContain("3 waiting for review, 4 halted, 124 the team's run timeout");
    expect(text).toContain("`npm start -- sweep` (from cron, say)\nresumes every thread with a gate past its deadline");
  });

  it("a hierarchy's manager lists its ask_<report> tools by name; no doubled backticks", () => {
    const text = readme("examples/support-tier.envelope.json");
    expect(row(text, "support-lead")).toBe("| Support Lead | `support-lead` | Head of Support (manager): triage, escalation, delegation | `anthropic:claude-opus-4-5` | `http_request` (its access policy), `ask_billing_specialist`, `ask_technical_specialist` |");
    expect(text).toContain("the run's context (`model` or the agent's field");
    expect(text).not.toContain("3 waiting for review");
    // LangGraph.js 1.x is documented at docs.langchain.com, no longer langchain-ai.github.io/langgraphjs.
    expect(text).toContain("[LangGraph.js](https://docs.langchain.com/oss/javascript/langgraph/overview)");
  });

  it("the graph's rows name the nodes the mode has: a hierarchy has no steps or gates", () => {
    const hierarchy = readme("examples/support-tier.envelope.json");
    expect(hierarchy).toContain("| team, agents, inputs, policies | `src/team.ts`");
    expect(hierarchy).toContain("`new StateGraph(...)`, an `addNode` each for `prepare`, `team` and `finalize`, `addEdge`s from `START` through them to `END` (what Studio draws)");
    const pipeline = readme("test/fixtures/valid/parallel-gates.envelope.json");
    expect(pipeline).toContain("| team, agents, steps, gates, inputs, policies | `src/team.ts`");
    expect(pipeline).toContain("an `addNode` for `prepare`, `finalize`, each step and each gate with its release (and its escalation, when it escalates), one `addEdge` per dependency");
  });

  it("states the run budget and where it comes from, as the CrewAI and LangGraph READMEs do", () => {
    // support-tier sets no timeout (the schema's default runMs, 30000); incident-response-crew sets 900000.
    const said = "30000 ms\n(`timeout.runMs`: the default, as the definition sets none)";
    expect(readme("examples/support-tier.envelope.json")).toContain(`bounded by ${said}`);
    expect(readme("examples/support-tier.envelope.json", "README.md", "crewai")).toContain("bounded by 30000 ms of work\n(`timeout.runMs`: the default, as the definition sets none)");
    expect(readme("examples/support-tier.envelope.json", "README.md", "langgraph")).toContain("bounded by 30000 ms of work (`timeout.runMs`: the default, as the definition sets none)");
    const set = readme("test/fixtures/valid/incident-response-crew.envelope.json");
    expect(set).toContain("bounded by 900000 ms\n(`timeout.runMs`)\n");
    expect(set).not.toContain("the definition sets none");
  });

  it("the loss report: title, role and capabilities are carried to the README's agents table, and it says where no model reads them", () => {
    const pipeline = readme("test/fixtures/valid/parallel-gates.envelope.json", "ENVELOPE_EXPORT.md");
    for (const field of ["title", "role", "capabilities"]) expect(pipeline).toContain(`| \`agents[1].${field}\` | the README's agents table (a pipeline's agents get no ask\\_ tools, the one place a model would read it) |`);
    const hierarchy = readme("examples/support-tier.envelope.json", "ENVELOPE_EXPORT.md");
    expect(hierarchy).toContain("| `agents[1].capabilities` | the README's agents table and TEAM.agents: its manager's ask\\_ tool description |");
    expect(hierarchy).toContain("| `agents[0].capabilities` | the README's agents table (the entry agent is nobody's report");
  });

  it(".env.example names the keys of the providers the agents use, not every provider's", () => {
    const env = readme("test/fixtures/valid/parallel-gates.envelope.json", ".env.example");
    expect(env.split("\n").filter((l) => /^[A-Z_]+_API_KEY=$/.test(l))).toEqual(["ANTHROPIC_API_KEY=", "OPENAI_API_KEY="]);
  });

  it("the team's own test of a run without inputs asks for each required input by name, not any error", () => {
    const test = readme("test/fixtures/valid/parallel-gates.envelope.json", "tests/team.test.ts");
    expect(test).not.toContain(".rejects.toThrow();");
    expect(test).toContain("for (const key of Object.keys(INPUTS)) expect(String(refusal)).toContain(key);");
  });
});
