// A CrewAI developer extends an export the CrewAI way (issue 14): a tool added to an agent
// in crew.py, and `llm:` set for another agent in config/agents.yaml. Both must take
// effect on the wire: the tool is offered to that agent's model, and the other agent's
// requests name the model its YAML entry gives.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Exchange, expectedPrompt, exportedProject, runArgs, runTeam, runValues, scriptedReply, systemText } from "./harness.js";
import { startModelServer } from "./model-server.js";

const FIXTURE = join(ROOT, "examples/support-tier.envelope.json");
const gate = e2eGate();

describe.runIf(gate.run)("a CrewAI export extended the CrewAI way", () => {
  let env: PythonEnv;
  const closers: Array<() => unknown> = [];
  beforeAll(() => {
    env = ensureEnv("crewai", gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it("a tool added in crew.py and an llm: in agents.yaml both take effect", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "envelope-realpath-extend-")), "support-tier");
    const { def, readme, pkg } = await exportedProject(FIXTURE, "crewai", dir);
    const crewPy = join(dir, "src", pkg, "crew.py");
    const source = readFileSync(crewPy, "utf8");
    // The tool a developer writes, appended to the billing specialist's tools=[...].
    const probe = [
      "",
      "from crewai.tools import BaseTool",
      "",
      "",
      "class LedgerLookup(BaseTool):",
      '    name: str = "ledger_lookup"',
      '    description: str = "Look up a customer\'s ledger."',
      "",
      "    def _run(self, customer: str) -> str:",
      '        return f"ledger of {customer}"',
      "",
    ].join("\n");
    const withTool = source.replace('tools=self.tools_of("billing-specialist")', 'tools=[*self.tools_of("billing-specialist"), LedgerLookup()]');
    expect(withTool, "crew.py passes the billing specialist's tools as documented").not.toBe(source);
    writeFileSync(crewPy, withTool.replace("\n\n@CrewBase", `${probe}\n\n@CrewBase`));
    const agentsYaml = join(dir, "src", pkg, "config", "agents.yaml");
    const yaml = readFileSync(agentsYaml, "utf8");
    const withLlm = yaml.replace('"technical_specialist":\n', '"technical_specialist":\n  llm: "openai/yaml-chosen-model"\n');
    expect(withLlm).not.toBe(yaml);
    writeFileSync(agentsYaml, withLlm);

    const exchanges: Exchange[] = [];
    const server = await startModelServer((request) => {
      const n = exchanges.length + 1;
      const reply = scriptedReply(request, n, 2);
      exchanges.push({ n, request, reply });
      return reply;
    });
    closers.push(() => server.close());
    const { env: values, inputs } = runValues(def);
    const run = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), {
      ...values,
      MODEL_OVERRIDE: "openai:realpath-model",
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_API_KEY: "dummy",
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);

    const promptOf = (key: string) => expectedPrompt(def.agents.find((a) => a.key === key)!.prompt!, def, values, inputs);
    const of = (key: string) => exchanges.filter((e) => systemText(e.request).includes(promptOf(key)));
    const billing = of("billing-specialist");
    expect(billing.length, "the billing specialist was reached").toBeGreaterThan(0);
    const offered = billing.flatMap((e) => ((e.request as { tools?: Array<{ function?: { name?: string } }> }).tools ?? []).map((t) => t.function?.name));
    expect(offered).toContain("ledger_lookup");
    const technical = of("technical-specialist");
    expect(technical.length, "the technical specialist was reached").toBeGreaterThan(0);
    expect(new Set(technical.map((e) => e.request.model))).toEqual(new Set(["yaml-chosen-model"]));
    // Everyone else still follows MODEL_OVERRIDE.
    expect(new Set(exchanges.filter((e) => !technical.includes(e)).map((e) => e.request.model))).toEqual(new Set(["realpath-model"]));
  }, 300_000);
});
