// `envelope inspect` for people: how the team is shaped and how it will run.
import type { AgentModel, TeamModel } from "../model/types.js";

export function describeModel(m: TeamModel): string {
  const out: string[] = [];
  out.push(`${m.team.name} (${m.team.slug} ${m.team.version}) — Envelope v${m.source.specVersion} features, model v${m.modelVersion}`);
  out.push(`Python package: ${m.names.package}  class: ${m.names.className}`);
  out.push("");
  out.push("Agents (hierarchy):");
  const byKey = new Map(m.agents.map((a) => [a.key, a]));
  const walk = (a: AgentModel, indent: string) => {
    out.push(`${indent}- ${a.key} [${a.ident}] ${a.title} · ${modelLabel(a)} · egress: ${egressLabel(a)}`);
    for (const c of a.children) walk(byKey.get(c)!, indent + "  ");
  };
  for (const r of m.hierarchy.roots) walk(byKey.get(r)!, "  ");
  out.push("");
  if (m.execution.mode === "pipeline") {
    out.push("Pipeline (run order):");
    for (const s of m.execution.steps) {
      const deps = s.dependsOn.length ? ` after ${s.dependsOn.join(", ")}${s.dependsOnImplicit ? " (implicit)" : ""}` : " (start)";
      const gates = s.gatesBefore.length ? ` · released by gate ${s.gatesBefore.join(", ")}` : "";
      out.push(`  ${s.level}. ${s.key} → ${s.agentKey}${deps}${gates}`);
    }
  } else {
    out.push(`Runs as a hierarchy: the task goes to ${m.execution.entryAgent}` + (m.execution.otherRoots.length ? `; other top-level agents: ${m.execution.otherRoots.join(", ")}` : ""));
  }
  for (const g of m.gates) {
    const rule = g.trigger === "threshold" ? `threshold ${g.thresholdCount}` : g.trigger;
    out.push(`  gate ${g.name}: after ${g.afterStep} → ${g.triggersStep} · fields ${g.fields.map((f) => f.name).join(", ")} · ${rule} · on reject ${g.onReject}${g.timeout ? ` · ${g.timeout.behaviour} after ${g.timeout.after}` : ""}`);
  }
  out.push("");
  const io = (label: string, list: TeamModel["inputs"]) => {
    if (list.length) out.push(`${label}: ${list.map((f) => `${f.key}: ${f.type}${f.required ? " (required)" : ""}${f.enum ? ` ∈ {${f.enum.join(", ")}}` : ""}`).join("; ")}`);
  };
  io("Inputs", m.inputs);
  io("Outputs", m.outputs);
  if (m.secrets.length) out.push(`Secrets: ${m.secrets.map((s) => s.name).join(", ")}`);
  if (m.variables.length) out.push(`Variables: ${m.variables.map((s) => s.name).join(", ")}`);
  const sched = m.schedule.type === "cron" ? `cron "${m.schedule.cron}"` : m.schedule.type;
  out.push(`Schedule: ${sched}${"label" in m.schedule && m.schedule.label ? ` (${m.schedule.label})` : ""}`);
  out.push(`Timeouts: run ${m.timeouts.runMs} ms (${m.timeouts.runMsSource}), agent ${m.timeouts.agentMs} ms (${m.timeouts.agentMsSource})`);
  if (m.workspace.length) out.push(`Workspace: ${m.workspace.map((w) => w.name).join(", ")}`);
  return out.join("\n") + "\n";
}

function modelLabel(a: AgentModel): string {
  if (!a.llm) return a.adapter.apiProvider ? `default model (${a.adapter.apiProvider})` : "default model";
  return `${a.llm.provider}:${a.llm.model}`;
}

function egressLabel(a: AgentModel): string {
  if (a.egress.source === "none") return "none";
  if (!a.egress.allowsAny) return "none (all denied)";
  return `${a.egress.rules.length} rule${a.egress.rules.length === 1 ? "" : "s"}, default ${a.egress.defaultAction}`;
}
