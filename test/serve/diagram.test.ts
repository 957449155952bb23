// The team diagram's layout: what it shows, that boxes never overlap, and that labels are
// cut without losing the full text.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { normalize } from "../../src/model/index.js";
import type { TeamModel } from "../../src/model/types.js";
import { cut, MAX_DIAGRAM_NODES, teamDiagram, type Diagram } from "../../src/serve/diagram.js";
import { validDefinitions } from "../helpers/export.js";
import { bigTeam, EXAMPLE } from "./helpers.js";

function modelOf(bytes: Uint8Array | string): TeamModel {
  const { model } = normalize(bytes);
  if (!model) throw new Error("invalid definition");
  return model;
}

function overlaps(d: Diagram): string[] {
  const found: string[] = [];
  for (const a of d.nodes) {
    for (const b of d.nodes) {
      if (a.id >= b.id) continue;
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      if (!apart) found.push(`${a.id} overlaps ${b.id}`);
    }
  }
  return found;
}

describe("teamDiagram", () => {
  it("support-tier: three agents, the lead above its two reports", () => {
    const d = teamDiagram(modelOf(EXAMPLE));
    expect(d.nodes.map((n) => n.title)).toEqual(["Support Lead", "Billing Specialist", "Technical Specialist"]);
    expect(d.edges.map((e) => `${e.kind} ${e.from} ${e.to}`)).toEqual(["manages agent:0 agent:1", "manages agent:0 agent:2"]);
    const [lead, billing] = d.nodes;
    expect(lead!.y).toBeLessThan(billing!.y);
    expect(d.summary).toContain("3 agents");
    for (const n of d.nodes) {
      expect(n.x + n.width).toBeLessThanOrEqual(d.width);
      expect(n.y + n.height).toBeLessThanOrEqual(d.height);
    }
  });
  it("pipelines: steps in dependency order with their gates between, agents beside", () => {
    for (const def of validDefinitions()) {
      const model = modelOf(readFileSync(def.path));
      const d = teamDiagram(model);
      expect(overlaps(d), def.name).toEqual([]);
      if (model.execution.mode !== "pipeline") continue;
      const y = new Map(d.nodes.map((n) => [n.id, n.y]));
      for (const e of d.edges.filter((e) => e.kind !== "manages")) expect(y.get(e.from)!, `${def.name}: ${e.from} → ${e.to}`).toBeLessThan(y.get(e.to)!);
      expect(d.nodes.filter((n) => n.kind === "step")).toHaveLength(model.execution.steps.length);
      expect(d.nodes.filter((n) => n.kind === "gate")).toHaveLength(model.gates.filter((g) => g.attachesTo === "steps").length);
      expect(d.labels.map((l) => l.text)).toEqual(["Pipeline", "Agents"]);
    }
  });
  it("cuts long or hostile labels for the box and keeps the full text for the tooltip", () => {
    const def = JSON.parse(EXAMPLE.toString());
    def.agents[0].name = '<img src=x onerror="alert(1)"> A long agent name, longer than any box';
    const d = teamDiagram(modelOf(JSON.stringify(def)));
    expect(d.nodes[0]!.title).toBe('<img src=x onerror="alert(1…');
    expect(Array.from(d.nodes[0]!.title)).toHaveLength(28);
    expect(d.nodes[0]!.tooltip).toContain(def.agents[0].name);
    expect(cut("😀".repeat(40))).toBe("😀".repeat(27) + "…");
    expect(cut("line\nbreak\u2028and\ttab")).toBe("line break and tab");
  });
  it("a team too large to draw says so instead", () => {
    const d = teamDiagram(modelOf(bigTeam(MAX_DIAGRAM_NODES + 1)));
    expect(d.tooLarge).toBe(true);
    expect(d.nodes).toEqual([]);
    expect(d.summary).toContain("too many to draw");
    const fits = teamDiagram(modelOf(bigTeam(120)));
    expect(overlaps(fits)).toEqual([]);
  });
});
