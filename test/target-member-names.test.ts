// Each target reserves the names its own generated code gives the things an agent, step or
// gate sits beside (ExportTarget.reservedMembers), and only those: an agent keyed `package` or
// `embedder` would replace a member of CrewAI's crew class (b7a4594), but in LangGraph and
// LangGraph.js it is a node and a context field, and keeps its key as its name. LangGraph
// reserves its team graph's nodes (`team`: an agent's graph is drawn inside that node). On real
// LangGraph: test/e2e/langgraph.test.ts's "reserved names" project has these agents too.
import { describe, expect, it } from "vitest";
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
