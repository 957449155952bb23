// Each target reserves the names its own generated code gives the things an agent, step or
// gate sits beside (ExportTarget.reservedMembers), and only those: an agent keyed `package` or
// `embedder` would replace a member of CrewAI's crew class (b7a4594), but in LangGraph and
// LangGraph.js it is a node and a context field, and keeps its key as its name. LangGraph
// reserves its team graph's nodes (`team`: an agent's graph is drawn inside that node).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeDirectory } from "../src/export/sinks/directory.js";
import { runPython } from "./e2e/projects.js";
import { e2eGate, ensureEnv, installProject } from "./e2e/python-env.js";
import { exportFor } from "./helpers/export.js";
import { agent, team } from "./helpers/definitions.js";

const definition = team({
  slug: "member-names",
  agents: [
    agent("lead", { role: "manager", prompt: "Lead." }),
    ...["package", "embedder", "inputs_text", "team", "model"].map((key) => agent(key, { reportsToKey: "lead", prompt: `Work as ${key}.` })),
  ],
});

const identsOf = (target: string) => Object.fromEntries(exportFor(definition, target).model.agents.map((a) => [a.key, a.ident]));

describe("member names are reserved per target", () => {
  it("crewai: the crew class's members get a `_` (its methods are the agents)", () => {
    const { text, model } = exportFor(definition, "crewai");
    expect(Object.fromEntries(model.agents.map((a) => [a.key, a.ident]))).toEqual({ lead: "lead", package: "package_", embedder: "embedder_", inputs_text: "inputs_text_", team: "team_", model: "model" });
    const crew = text("src/member_names/crew.py");
    expect(crew).toMatch(/def package_\(self\) -> Agent:/);
    expect(crew).toMatch(/def embedder_\(self\) -> Agent:/);
    expect(crew).not.toMatch(/def (package|embedder|inputs_text)\(/);
  });

  it("langgraph: agents keep their keys, but for the team graph's node names", () => {
    expect(identsOf("langgraph")).toEqual({ lead: "lead", package: "package", embedder: "embedder", inputs_text: "inputs_text", team: "team_", model: "model" });
    const context = exportFor(definition, "langgraph").text("src/member_names/context.py");
    expect(context).toContain('"package": "package",');
    expect(context).toMatch(/^ {4}package: str \| None = dataclasses\.field\($/m);
    // the agent `model` has the field `model`; every agent's field is numbered
    expect(context).toContain('ALL_AGENTS_FIELD = "model_2"');
  });

  it("langgraph-js: an agent's name is only its context field, so every key stays (`model` is every agent's)", () => {
    expect(identsOf("langgraph-js")).toEqual({ lead: "lead", package: "package", embedder: "embedder", inputs_text: "inputs_text", team: "team", model: "model" });
    const spec = exportFor(definition, "langgraph-js").text("src/team.ts");
    for (const field of ["package", "embedder", "inputs_text", "team", "model_2"]) expect(spec).toContain(`contextField: "${field}"`);
  });
});

const gate = e2eGate();

describe.runIf(gate.run)("member names CrewAI reserves, on real LangGraph", () => {
  it("agents keyed package, embedder, inputs_text and model: the graph is drawn (xray) with each agent's node, and the project's tests pass", async () => {
    const env = ensureEnv("langgraph", gate.python!);
    const root = mkdtempSync(join(tmpdir(), "envelope-member-names-"));
    try {
      const dir = join(root, "member-names");
      await writeDirectory(exportFor(definition, "langgraph").files, dir);
      installProject(env, dir);
      const probe = [
        "from member_names import context, graph",
        "drawn = graph.build_graph().get_graph(xray=True).draw_mermaid()",
        // Mermaid writes the ':' of a node's path as \3a: each agent's own node is a path step.
        "for ident in ('package', 'embedder', 'inputs_text', 'model'): assert f'\\\\3a{ident}\\\\3a' in drawn, ident",
        "assert context.Context(package='openai:x', model_2='openai:y').package == 'openai:x'",
      ].join("\n");
      const drawn = runPython(env, dir, ["-c", probe]);
      expect(drawn.code, drawn.output).toBe(0);
      const tests = runPython(env, dir, ["-m", "pytest", "-q", "-p", "no:cacheprovider"]);
      expect(tests.code, tests.output).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 600_000);
});
