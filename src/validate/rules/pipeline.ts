// Pipeline steps: unique keys, existing agents, and a dependency graph without dangling
// references or cycles (omitted `dependsOn` means "after the previous step", see
// model/step-dependencies.ts).
import { findCycle } from "../../model/graph.js";
import { effectiveDependencies } from "../../model/step-dependencies.js";
import { pointerOf } from "../../read/json-pointer.js";
import { objectItems, str, stringItems, type RuleContext } from "../rule-context.js";
import { knownList } from "./agents.js";

export function checkPipeline(ctx: RuleContext): void {
  const steps = objectItems(ctx.root.pipeline);
  if (steps.length === 0) return;
  const agentKeys = new Set(objectItems(ctx.root.agents).flatMap(([, a]) => (str(a.key) ? [str(a.key)!] : [])));
  const stepIndex = new Map<string, number>();
  for (const [i, step] of steps) {
    const key = str(step.key);
    if (key === undefined) continue;
    const first = stepIndex.get(key);
    if (first !== undefined) {
      ctx.report("E_DUPLICATE_STEP_KEY", pointerOf("pipeline", i, "key"), `step key "${key}" is already used by pipeline[${first}]`, {
        hint: "step keys must be unique within the pipeline",
      });
    } else stepIndex.set(key, i);
  }
  const declared: Array<{ key: string; dependsOn?: string[] }> = [];
  for (const [i, step] of steps) {
    const agentKey = str(step.agentKey);
    if (agentKey !== undefined && !agentKeys.has(agentKey)) {
      ctx.report("E_STEP_AGENT_UNKNOWN", pointerOf("pipeline", i, "agentKey"), `step agent "${agentKey}" is not an agent of this team`, {
        hint: knownList("agents", [...agentKeys]),
      });
    }
    const key = str(step.key);
    const known: string[] = [];
    for (const [j, dep] of stringItems(step.dependsOn)) {
      if (!stepIndex.has(dep)) {
        ctx.report("E_DEPENDS_ON_UNKNOWN", pointerOf("pipeline", i, "dependsOn", j), `\`dependsOn\` names "${dep}", which is not a step of this pipeline`, {
          hint: knownList("steps", [...stepIndex.keys()]),
        });
      } else known.push(dep);
    }
    if (key !== undefined) declared.push(Array.isArray(step.dependsOn) ? { key, dependsOn: known } : { key });
  }
  const deps = effectiveDependencies(declared);
  const cycle = findCycle([...deps.keys()], (k) => deps.get(k)?.deps ?? []);
  if (cycle) {
    const first = stepIndex.get(cycle[0]!)!;
    const implicit = cycle.slice(0, -1).filter((k) => deps.get(k)?.implicit);
    const at = deps.get(cycle[0]!)?.implicit ? pointerOf("pipeline", first) : pointerOf("pipeline", first, "dependsOn");
    ctx.report("E_DEPENDS_ON_CYCLE", at, `the pipeline's dependencies form a cycle: ${[...cycle].reverse().join(" → ")}`, {
      hint:
        implicit.length > 0
          ? `a step without \`dependsOn\` runs after the step before it (${implicit.map((k) => `"${k}"`).join(", ")}); give it an explicit \`dependsOn\``
          : "a step cannot (even indirectly) depend on itself",
    });
  }
}
