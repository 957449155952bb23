// The loss report of a gate that escalates (onReject or timeout.behaviour `escalate`) says to
// whom, in every target: the gated step agent's reportsToKey, else the first root; and when
// that is the step's own agent, that the gate halts the run instead (the runtimes' rule).
import { describe, expect, it } from "vitest";
import { exportFor } from "./helpers/export.js";

describe.each(["crewai", "langgraph", "langgraph-js"])("the %s loss report of an escalating gate", (target) => {
  it("names the manager the escalation goes to", () => {
    const { loss } = exportFor("test/fixtures/valid/parallel-gates.envelope.json", target);
    const detail = (field: string) => loss.find((e) => e.field === field)?.detail;
    expect(detail("gates[0].timeout")).toContain("; escalates to procurement-lead (the step agent's reportsToKey, else the first root)");
    expect(detail("gates[1].onReject")).toContain("; escalates to procurement-lead (");
    // Neither escalates: no such words.
    expect(detail("gates[0].onReject")).not.toContain("escalat");
    expect(detail("gates[1].timeout")).not.toContain("escalat");
  });

  it("says a gate after the first root's own step halts the run instead", () => {
    const { loss } = exportFor("test/fixtures/valid/content-studio.envelope.json", target);
    const entry = loss.find((e) => e.field === "gates[0].timeout");
    expect(entry).toMatchObject({ status: "carried" });
    expect(entry!.detail).toContain(
      "; its escalation would go to step final-edit's own agent, managing-editor (it reports to nobody and is the first root): nobody else can decide, so the gate halts the run instead (no agent approves its own work)",
    );
  });
});
