// A new run on a thread that ran before, and the run's checks of its inputs: the optional
// inputs it does not give are their defaults again, not the last run's values.
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { buildTeamGraph, resolveInputs, RunProblems } from "../src/graph.js";
import type { TeamSpec } from "../src/spec.js";
import { z } from "zod";
import { pipeline, schemas as demoSchemas } from "./demo-team.js";

const team: TeamSpec = {
  ...pipeline,
  mode: "hierarchy",
  steps: [],
  gates: [],
  finalStep: null,
  inputs: [...pipeline.inputs, { key: "data_classes", channel: "data_classes", type: "array", required: false, enum: null, hasDefault: true, default: ["customer PII"], description: null }],
};

// As an export's schemas.ts: an optional input is optional in the graph's input schema.
const schemas = { ...demoSchemas, input: z.object({ topic: z.string(), data_classes: z.array(z.string()).optional() }) };

describe("a new run on a thread that ran before", () => {
  it("gets the defaults of the optional inputs it does not give, not the last run's values", async () => {
    const modelFor = () => new FakeListChatModel({ responses: ['{"summary": "ok"}'] });
    const graph = buildTeamGraph(team, schemas, { modelFor, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ topic: "one", data_classes: ["health"] }, config);
    expect((await graph.getState(config)).values.inputs).toEqual({ topic: "one", data_classes: ["health"] });
    expect(await graph.invoke({ topic: "two" }, config)).toMatchObject({ status: "done" });
    expect((await graph.getState(config)).values.inputs).toEqual({ topic: "two", data_classes: ["customer PII"] });
  });

  it("is refused without a required input the last run gave", async () => {
    const modelFor = () => new FakeListChatModel({ responses: ['{"summary": "ok"}'] });
    const graph = buildTeamGraph(team, schemas, { modelFor, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ topic: "one" }, config);
    await expect(graph.invoke({ data_classes: ["health"] }, config)).rejects.toThrow(/topic/);
  });
});

describe("an input of the wrong type", () => {
  it("is quoted once in the problem", () => {
    const problems = (given: Record<string, unknown>) => {
      try {
        resolveInputs(team, given);
      } catch (error) {
        return (error as RunProblems).problems;
      }
      return [];
    };
    expect(problems({ topic: "a", data_classes: "notalist" })).toEqual(['input data_classes: expected array, got "notalist"']);
    expect(problems({ topic: { a: 1 }, data_classes: 3 })).toEqual(['input topic: expected string, got {"a":1}', "input data_classes: expected array, got 3"]);
  });
});
