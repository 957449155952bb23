// The team diagram the handoff page draws: a small layered layout computed here, from the
// normalized model, so the page only draws rectangles, diamonds, text and curves (with DOM
// calls, never markup). It shows what the generated README's Mermaid chart shows: agents and
// who manages whom; for a pipeline, the steps in order with the agent each runs on and the
// review gates between them. Labels are cut to a fixed length; the full text is in `tooltip`.
import type { TeamModel } from "../model/types.js";

export interface DiagramNode {
  id: string;
  kind: "agent" | "step" | "gate";
  x: number;
  y: number;
  width: number;
  height: number;
  title: string;
  subtitle?: string;
  /** The full, uncut text (the page shows it as the node's <title>). */
  tooltip: string;
}

export interface DiagramEdge {
  kind: "manages" | "then" | "gate";
  from: string;
  to: string;
  /** Start and end, in the diagram's coordinates. */
  points: Array<[number, number]>;
}

export interface DiagramLabel {
  x: number;
  y: number;
  text: string;
}

export interface Diagram {
  width: number;
  height: number;
  nodes: DiagramNode[];
  edges: DiagramEdge[];
  /** Panel headings ("Pipeline", "Agents"). */
  labels: DiagramLabel[];
  /** One sentence for screen readers, and the reason when the team is too large to draw. */
  summary: string;
  /** True when the team has more nodes than a diagram can usefully show: nothing is drawn. */
  tooLarge: boolean;
}

/** Beyond this many nodes a drawing is no help; the page says so instead. */
export const MAX_DIAGRAM_NODES = 400;
const MAX_LABEL = 28;
const CHAR_WIDTH = 7.2;
const NODE_HEIGHT = 46;
const GATE_HEIGHT = 54;
const H_GAP = 28;
const V_GAP = 46;
const MARGIN = 16;
const HEADING = 26;
const PANEL_GAP = 56;

interface LayoutNode {
  id: string;
  kind: DiagramNode["kind"];
  title: string;
  subtitle?: string;
  tooltip: string;
  order: number;
}

interface LayoutEdge {
  kind: DiagramEdge["kind"];
  from: string;
  to: string;
}

/** Cuts text to `max` characters (by code point, never in the middle of a surrogate pair). */
export function cut(text: string, max = MAX_LABEL): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : chars.slice(0, max - 1).join("") + "…";
}

export function teamDiagram(model: TeamModel): Diagram {
  const agentNode = new Map(model.agents.map((a) => [a.key, `agent:${a.index}`]));
  const agents: LayoutNode[] = model.agents.map((a) => ({
    id: `agent:${a.index}`,
    kind: "agent",
    title: cut(a.name || a.key),
    subtitle: cut(a.title),
    tooltip: `${a.name} (${a.key})${a.title ? ` — ${a.title}` : ""}`,
    order: a.index,
  }));
  const manages: LayoutEdge[] = [];
  for (const a of model.agents) {
    const parent = a.parent !== undefined ? agentNode.get(a.parent) : undefined;
    if (parent) manages.push({ kind: "manages", from: parent, to: `agent:${a.index}` });
  }
  const steps: LayoutNode[] = [];
  const flow: LayoutEdge[] = [];
  if (model.execution.mode === "pipeline") {
    const byKey = new Map(model.execution.steps.map((s) => [s.key, s]));
    const agentName = new Map(model.agents.map((a) => [a.key, a.name || a.key]));
    for (const s of model.execution.steps) {
      const label = s.label ?? s.key;
      steps.push({ id: `step:${s.index}`, kind: "step", title: cut(label), subtitle: cut(`agent: ${agentName.get(s.agentKey) ?? s.agentKey}`), tooltip: `step ${s.key}${s.label ? ` (${s.label})` : ""}, run by ${s.agentKey}`, order: s.index });
    }
    const gated = new Set<string>();
    for (const g of model.gates) {
      if (g.attachesTo !== "steps") continue;
      const after = byKey.get(g.afterStep);
      const triggers = byKey.get(g.triggersStep);
      if (!after || !triggers) continue;
      const id = `gate:${g.index}`;
      steps.push({ id, kind: "gate", title: cut(g.name, 18), tooltip: `review gate ${g.name}: ${g.afterStep} → ${g.triggersStep}`, order: model.execution.steps.length + g.index });
      flow.push({ kind: "gate", from: `step:${after.index}`, to: id }, { kind: "gate", from: id, to: `step:${triggers.index}` });
      gated.add(`${g.afterStep}\u0000${g.triggersStep}`);
    }
    for (const s of model.execution.steps) {
      for (const dep of s.dependsOn) {
        const d = byKey.get(dep);
        if (d && !gated.has(`${dep}\u0000${s.key}`)) flow.push({ kind: "then", from: `step:${d.index}`, to: `step:${s.index}` });
      }
    }
  }
  const total = agents.length + steps.length;
  const what = `${plural(model.agents.length, "agent")}${steps.length ? `, ${plural(steps.filter((n) => n.kind === "step").length, "pipeline step")} and ${plural(steps.filter((n) => n.kind === "gate").length, "review gate")}` : ""}`;
  if (total > MAX_DIAGRAM_NODES) {
    return { width: 0, height: 0, nodes: [], edges: [], labels: [], tooLarge: true, summary: `${what}: too many to draw (more than ${MAX_DIAGRAM_NODES} boxes).` };
  }
  const panels = [...(steps.length ? [{ heading: "Pipeline", nodes: steps, edges: flow }] : []), { heading: steps.length ? "Agents" : "Team", nodes: agents, edges: manages }];
  const out: Diagram = { width: 0, height: 0, nodes: [], edges: [], labels: [], tooLarge: false, summary: "" };
  let left = MARGIN;
  for (const panel of panels) {
    const placed = layered(panel.nodes, panel.edges, left, MARGIN + HEADING);
    out.labels.push({ x: left, y: MARGIN + 14, text: panel.heading });
    out.nodes.push(...placed.nodes);
    out.edges.push(...placed.edges);
    left = placed.right + PANEL_GAP;
    out.height = Math.max(out.height, placed.bottom + MARGIN);
  }
  out.width = Math.round(left - PANEL_GAP + MARGIN);
  out.height = Math.round(out.height);
  const mode = model.execution.mode === "pipeline" ? "runs as a pipeline" : `runs as a hierarchy led by ${model.execution.entryAgent}`;
  out.summary = `${model.team.name}: ${what}; the team ${mode}.`;
  return out;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function sizeOf(n: LayoutNode): { width: number; height: number } {
  if (n.kind === "gate") return { width: Math.max(110, Array.from(n.title).length * CHAR_WIDTH + 56), height: GATE_HEIGHT };
  const chars = Math.max(Array.from(n.title).length, Array.from(n.subtitle ?? "").length);
  return { width: Math.min(230, Math.max(120, chars * CHAR_WIDTH + 24)), height: NODE_HEIGHT };
}

/**
 * Longest-path layering (cycle-safe: a valid definition has none, but the layout must not
 * hang on one), two barycenter sweeps to reduce crossings, then each row placed under the
 * centre of its parents and pushed apart where boxes would overlap.
 */
function layered(nodes: LayoutNode[], edges: LayoutEdge[], left: number, top: number): { nodes: DiagramNode[]; edges: DiagramEdge[]; right: number; bottom: number } {
  const ids = new Set(nodes.map((n) => n.id));
  const live = edges.filter((e) => ids.has(e.from) && ids.has(e.to) && e.from !== e.to);
  const parents = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  const children = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  for (const e of live) {
    parents.get(e.to)!.push(e.from);
    children.get(e.from)!.push(e.to);
  }
  const layer = new Map<string, number>(nodes.map((n) => [n.id, 0]));
  // Bellman-Ford style relaxation, at most |nodes| rounds: enough for any DAG, bounded on a cycle.
  for (let round = 0; round < nodes.length; round++) {
    let changed = false;
    for (const e of live) {
      const want = layer.get(e.from)! + 1;
      if (want > layer.get(e.to)! && want < nodes.length) {
        layer.set(e.to, want);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const rows: LayoutNode[][] = [];
  for (const n of [...nodes].sort((a, b) => a.order - b.order)) {
    const l = layer.get(n.id)!;
    (rows[l] ??= []).push(n);
  }
  const dense = rows.filter((r): r is LayoutNode[] => r !== undefined);
  const size = new Map(nodes.map((n) => [n.id, sizeOf(n)]));
  const index = new Map<string, number>();
  const reindex = () => dense.forEach((row) => row.forEach((n, i) => index.set(n.id, i)));
  reindex();
  const sweep = (rowsInOrder: LayoutNode[][], neighbours: Map<string, string[]>) => {
    for (const row of rowsInOrder) {
      const key = new Map(row.map((n, i) => {
        const ns = neighbours.get(n.id)!.map((m) => index.get(m)!).filter((v) => v !== undefined);
        return [n.id, ns.length ? ns.reduce((a, b) => a + b, 0) / ns.length : i];
      }));
      row.sort((a, b) => key.get(a.id)! - key.get(b.id)! || a.order - b.order);
      row.forEach((n, i) => index.set(n.id, i));
    }
  };
  sweep(dense.slice(1), parents);
  sweep(dense.slice(0, -1).reverse(), children);
  const x = new Map<string, number>();
  let rowTop = top;
  const out: DiagramNode[] = [];
  const rowY = new Map<string, number>();
  for (const row of dense) {
    // Where each box would like to be: centred under its parents (or left to right).
    let cursor = left;
    const wanted = row.map((n) => {
      const ps = parents.get(n.id)!.filter((p) => x.has(p));
      const w = size.get(n.id)!.width;
      const centre = ps.length ? ps.reduce((a, p) => a + x.get(p)! + size.get(p)!.width / 2, 0) / ps.length : cursor + w / 2;
      cursor += w + H_GAP;
      return { n, left: centre - w / 2 };
    });
    let min = left;
    for (const want of wanted) {
      const at = Math.max(want.left, min);
      x.set(want.n.id, at);
      min = at + size.get(want.n.id)!.width + H_GAP;
    }
    const height = Math.max(...row.map((n) => size.get(n.id)!.height));
    for (const n of row) rowY.set(n.id, rowTop + (height - size.get(n.id)!.height) / 2);
    rowTop += height + V_GAP;
  }
  // Then each parent over the middle of its children (bottom up), so a manager heads its
  // reports instead of standing at the left of a wide row; order within a row is kept.
  for (let r = dense.length - 2; r >= 0; r--) {
    let min = -Infinity;
    for (const n of dense[r]!) {
      const w = size.get(n.id)!.width;
      const cs = children.get(n.id)!.filter((c) => x.has(c));
      const want = cs.length ? cs.reduce((a, c) => a + x.get(c)! + size.get(c)!.width / 2, 0) / cs.length - w / 2 : x.get(n.id)!;
      const at = Math.max(want, min);
      x.set(n.id, at);
      min = at + w + H_GAP;
    }
  }
  const shift = nodes.length ? left - Math.min(...nodes.map((n) => x.get(n.id)!)) : 0;
  for (const n of nodes) x.set(n.id, x.get(n.id)! + shift);
  let right = left;
  for (const n of nodes) {
    const s = size.get(n.id)!;
    const node: DiagramNode = { id: n.id, kind: n.kind, x: round(x.get(n.id)!), y: round(rowY.get(n.id)!), width: round(s.width), height: s.height, title: n.title, tooltip: n.tooltip };
    if (n.subtitle) node.subtitle = n.subtitle;
    out.push(node);
    right = Math.max(right, node.x + node.width);
  }
  const at = new Map(out.map((n) => [n.id, n]));
  const drawn: DiagramEdge[] = live.map((e) => {
    const a = at.get(e.from)!;
    const b = at.get(e.to)!;
    const down = b.y > a.y;
    const start: [number, number] = down ? [round(a.x + a.width / 2), a.y + a.height] : [round(a.x + a.width / 2), a.y];
    const end: [number, number] = down ? [round(b.x + b.width / 2), b.y] : [round(b.x + b.width / 2), b.y + b.height];
    return { kind: e.kind, from: e.from, to: e.to, points: [start, end] };
  });
  return { nodes: out, edges: drawn, right, bottom: nodes.length ? rowTop - V_GAP : top };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
