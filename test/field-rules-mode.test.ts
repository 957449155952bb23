// The loss report's details for description and reportsToKey depend on how the team runs: a
// pipeline has no team task and never delegates, so it must not be told it does (ENVELOPE_EXPORT.md).
import { describe, expect, it } from "vitest";
import { exportFor } from "./helpers/export.js";

const PIPELINE = "test/fixtures/valid/content-studio.envelope.json";
const HIERARCHY = "examples/support-tier.envelope.json";
const detail = (x: ReturnType<typeof exportFor>, field: string) => x.loss.find((e) => e.field === field)?.detail ?? `no loss entry ${field}`;
// An agent with reportsToKey: content-studio's researcher (agents[1]), support-tier's billing specialist (agents[1]).
const REPORTS = "agents[1].reportsToKey";

describe.each(["crewai", "langgraph", "langgraph-js"])("%s field rules by execution mode", (target) => {
  const pipeline = exportFor(PIPELINE, target);
  const hierarchy = exportFor(HIERARCHY, target);

  it("a pipeline's reportsToKey picks who a gate's escalation goes to; only a hierarchy delegates", () => {
    expect(detail(pipeline, REPORTS)).toContain("who a gate's escalation goes to");
    expect(detail(pipeline, REPORTS)).not.toMatch(/delegates to|ask_/);
    expect(detail(hierarchy, REPORTS)).toMatch(/delegates|ask_<report>/);
    expect(detail(hierarchy, REPORTS)).not.toContain("escalation");
  });

  it("a pipeline's description is not called the team task", () => {
    expect(detail(pipeline, "description")).not.toContain("team task");
    expect(detail(hierarchy, "description")).toContain("team task");
  });
});
