// Human gates: unique names, `afterStep`/`triggersStep` that exist (pipeline steps, or agent
// keys when the team has no pipeline — real files do that), a gate that goes forward, and a
// `thresholdCount` when the trigger needs one.
import { findCycle } from "../../model/graph.js";
import { effectiveDependencies } from "../../model/step-dependencies.js";
import { pointerOf } from "../../read/json-pointer.js";
import { objectItems, str, stringItems, type RuleContext } from "../rule-context.js";
import { knownList } from "./agents.js";

export function checkGates(ctx: RuleContext): void {
  const gates = objectItems(ctx.root.gates);
  if (gates.length === 0) return;
  const steps = objectItems(ctx.root.pipeline);
  const usesSteps = steps.length > 0;
  const targets = usesSteps
    ? steps.flatMap(([, s]) => (str(s.key) ? [str(s.key)!] : []))
    : objectItems(ctx.root.agents).flatMap(([, a]) => (str(a.key) ? [str(a.key)!] : []));
  const known = new Set(targets);
  const what = usesSteps ? "pipeline steps" : "agents";
  const firstIndex = new Map<string, number>();
  for (const [i, gate] of gates) {
    const name = str(gate.name);
    if (name !== undefined) {
      const first = firstIndex.get(name);
      if (first !== undefined) {
        ctx.report("E_DUPLICATE_GATE_NAME", pointerOf("gates", i, "name"), `gate name "${name}" is already used by gates[${first}]`, {
          hint: "gate names identify gates in audit logs and must be unique",
        });
      } else firstIndex.set(name, i);
    }
    for (const field of ["afterStep", "triggersStep"] as const) {
      const ref = str(gate[field]);
      if (ref !== undefined && !known.has(ref)) {
        ctx.report("E_GATE_STEP_UNKNOWN", pointerOf("gates", i, field), `\`${field}\` "${ref}" is not one of the team's ${what}`, {
          hint: `${usesSteps ? "with a pipeline, gates name pipeline step keys" : "without a pipeline, gates name agent keys"}; ${knownList(what, targets)}`,
        });
      }
    }
    if (str(gate.trigger) === "threshold" && gate.thresholdCount === undefined) {
      ctx.report("E_THRESHOLD_COUNT_MISSING", pointerOf("gates", i, "trigger"), "`trigger: \"threshold\"` needs `thresholdCount`, the number of approved records that releases the gate", {
        hint: "add e.g. \"thresholdCount\": 3",
      });
    }
  }
  checkGateDirection(ctx, gates, steps, known, usesSteps);
}

/** A gate holds `triggersStep` until `afterStep` is reviewed, so it adds that edge to the graph. */
function checkGateDirection(
  ctx: RuleContext,
  gates: Array<[number, Record<string, unknown>]>,
  steps: Array<[number, Record<string, unknown>]>,
  known: Set<string>,
  usesSteps: boolean,
): void {
  const declared = steps.flatMap(([, s]) => {
    const key = str(s.key);
    if (key === undefined) return [];
    return [Array.isArray(s.dependsOn) ? { key, dependsOn: stringItems(s.dependsOn).map(([, d]) => d).filter((d) => known.has(d)) } : { key }];
  });
  const deps = effectiveDependencies(declared);
  // A cycle in the pipeline itself is E_DEPENDS_ON_CYCLE's to report; don't blame the gates.
  const pipelineCycle = usesSteps && findCycle([...deps.keys()], (k) => deps.get(k)?.deps ?? []) !== undefined;
  for (const [i, gate] of gates) {
    const after = str(gate.afterStep);
    const triggers = str(gate.triggersStep);
    if (after === undefined || triggers === undefined || !known.has(after) || !known.has(triggers)) continue;
    if (after === triggers) {
      ctx.report("E_GATE_ORDER", pointerOf("gates", i, "triggersStep"), `the gate reviews "${after}" and then triggers the same ${usesSteps ? "step" : "agent"}`, {
        hint: "`triggersStep` is what runs after the review",
      });
      continue;
    }
    if (!usesSteps || pipelineCycle) continue;
    const cycle = findCycle([triggers], (k) => (k === triggers ? [...(deps.get(k)?.deps ?? []), after] : (deps.get(k)?.deps ?? [])));
    if (cycle?.includes(triggers)) {
      ctx.report("E_GATE_ORDER", pointerOf("gates", i, "triggersStep"), `step "${triggers}" runs before "${after}", so a gate after "${after}" cannot trigger it`, {
        hint: "a gate sits between a step and one that comes later in the pipeline",
      });
    }
  }
}
