// The parts of a template view every Python target renders the same way: inputs, outputs,
// gates and their record models, the final step, the loss summary. Each target's own view
// adds what is specific to its framework.
import type { LossEntry } from "../../export/loss-report.js";
import { lossCounts } from "../../export/loss-report.js";
import { fieldNamespace, toPascal } from "../../model/namer.js";
import type { GateModel, IOFieldModel, TeamModel } from "../../model/types.js";
import type { ModelEnvView } from "./model-env-view.js";
import { pathLabel } from "../../read/json-pointer.js";

export interface InputView extends IOFieldModel {
  /** The runner's flag: "--" + the key with "_" as "-" (main.py does the same). */
  flag: string;
  /** Whether the flag can be shown in a shell command line as is. */
  flagSafe: boolean;
  defaultJson: string;
  pointerLabel: string;
}

export interface FlaggedInputView extends InputView {
  /** Whether the input has a runner flag (else it is set through --inputs JSON only). */
  hasFlag: boolean;
}

export interface OutputView extends IOFieldModel {
  pointerLabel: string;
  aliased: boolean;
}

export interface GateView extends GateModel {
  ref: string;
  fieldNames: string[];
  /** The steps that wait for the gate and receive its approved records, in pipeline order. */
  releasesTo: string[];
}

export interface RecordStepView {
  stepKey: string;
  recordClass: string;
  recordsClass: string;
  gateRefs: string;
  aliased: boolean;
  fields: Array<{ name: string; ident: string; aliased: boolean }>;
}

export interface LossSummary {
  counts: ReturnType<typeof lossCounts>;
  notCarried: LossEntry[];
}

function inputsView(model: TeamModel): InputView[] {
  return model.inputs.map((f) => {
    const flag = `--${f.key.replace(/_/g, "-")}`;
    return { ...f, flag, flagSafe: /^--[a-z][a-z0-9-]*$/.test(flag), defaultJson: f.hasDefault ? JSON.stringify(f.default) : "", pointerLabel: pathLabel(f.pointer) };
  });
}

/** The runner's own options (main.py): no input takes one of them as its flag (envelope-runtime's inputs.RUNNER_FLAGS: the same). */
export const RUNNER_FLAGS = ["--help", "--inputs", "--env-file", "--state-dir", "--interactive", "--no-interactive", "--verbose", "--trace"];

/**
 * Each input's runner flag (team.INPUTS[…].flag): `--` + the key with `_` as `-`, unless a
 * runner option or an earlier input already has that flag (`a-b` and `a_b` would both be
 * `--a-b`) or the key is empty (`--` ends the options); such an input is set in `--inputs`.
 */
export function inputFlags(keys: readonly string[]): Array<string | undefined> {
  const taken = new Set(RUNNER_FLAGS);
  return keys.map((key) => {
    const flag = `--${key.replace(/_/g, "-")}`;
    if (key === "" || taken.has(flag)) return undefined;
    taken.add(flag);
    return flag;
  });
}

/** Inputs with their runner flags (see inputFlags). */
export function flaggedInputsView(model: TeamModel): FlaggedInputView[] {
  const flags = inputFlags(model.inputs.map((i) => i.key));
  return inputsView(model).map((input, i) => ({ ...input, flag: flags[i] ?? "", hasFlag: flags[i] !== undefined, flagSafe: flags[i] !== undefined && input.flagSafe }));
}

/** Where `watch` posts each `notify` trigger that fires (envelope-runtime's workspace.WEBHOOK_ENV). */
export const WORKSPACE_WEBHOOK_ENV = "ENVELOPE_WORKSPACE_WEBHOOK_URL";

/**
 * The names the scheduled workflow passes from repository secrets: requiredSecrets,
 * requiredVariables, the declared models' keys, and for agents on MODEL, MODEL with every
 * key the target knows (MODEL names its provider only at run time); with a `notify` trigger,
 * the webhook `watch --once` posts it to (.env.example lists it).
 */
export function workflowEnvNames(model: TeamModel, declaredKeys: readonly string[], everyKey: readonly string[], modelEnv: ModelEnvView): string[] {
  const onModel = model.agents.some((a) => !a.llm);
  // MODEL_OVERRIDE / MODEL_<AGENT> may send any agent to any provider: every key and base
  // URL goes along (an unset repository secret arrives empty, which the runner ignores).
  const models = ["MODEL_OVERRIDE", ...modelEnv.agentModelEnvs.map((a) => a.env), ...modelEnv.baseUrls.map((b) => b.baseUrlEnv)];
  const notifies = model.workspace.some((d) => d.triggers.some((t) => t.action === "notify"));
  const webhook = notifies ? [WORKSPACE_WEBHOOK_ENV] : [];
  return [...new Set([...model.secrets.map((s) => s.name), ...model.variables.map((v) => v.name), ...declaredKeys, ...(onModel ? ["MODEL"] : []), ...everyKey, ...models, ...webhook])];
}

/** Review rounds per gate: `MAX_ROUNDS` of templates/python-common/static/src/PKG/gates.py (a test keeps them equal). */
export const MAX_REVIEW_ROUNDS = 3;

/**
 * What the README's run command needs: the required inputs without a default that it
 * cannot pass as a flag (they go in `--inputs @inputs.json`), and whether any input must be
 * given at all (then a run without arguments, like `crewai run`, stops at them).
 */
export function runCommandView(inputs: FlaggedInputView[]): { inputsOutsideCommand: string[]; needsInputs: boolean } {
  const needed = inputs.filter((i) => i.required && !i.hasDefault);
  return { inputsOutsideCommand: needed.filter((i) => !i.flagSafe).map((i) => i.key), needsInputs: needed.length > 0 };
}

/** What a declared schedule other than cron means for an exported project, in words. */
export function scheduleWords(schedule: TeamModel["schedule"]): string {
  switch (schedule.type) {
    case "manual":
      return schedule.declared ? "runs when you start it (schedule: manual)." : "";
    case "event":
      return "in Envelope it starts on an event (a webhook); this project has no webhook receiver, so start each run yourself, e.g. from your own webhook handler.";
    case "condition":
      return `in Envelope it runs every ${schedule.interval} when its condition holds; this project has no scheduler, so start each run yourself.`;
    case "continuous":
      return "continuous schedules have no behaviour yet in Envelope: the team runs when you start it.";
    case "cron":
      return "";
  }
}

export function outputsView(model: TeamModel): OutputView[] {
  return model.outputs.map((f) => ({ ...f, pointerLabel: pathLabel(f.pointer), aliased: f.ident !== f.key }));
}

export function gatesView(model: TeamModel): GateView[] {
  const steps = model.execution.mode === "pipeline" ? model.execution.steps : [];
  return model.gates.map((g) => ({
    ...g,
    ref: `gates[${g.index}] ${g.name}`,
    fieldNames: g.fields.map((f) => f.name),
    releasesTo: steps.filter((s) => s.gatesBefore.includes(g.name)).map((s) => s.key),
  }));
}

/** The step whose answer is the team's result: the last step (topological order) that nothing depends on and no gate follows. */
export function finalStepOf(model: TeamModel): string {
  if (model.execution.mode !== "pipeline") return "";
  return [...model.execution.steps].reverse().find((s) => s.dependents.length === 0 && s.gatesAfter.length === 0)?.key ?? "";
}

/** One records model per gated step: the union of its gates' fields, class names kept distinct. */
export function recordStepsOf(model: TeamModel): RecordStepView[] {
  if (model.execution.mode !== "pipeline") return [];
  const taken = new Set<string>();
  return model.execution.steps.flatMap((step) => {
    const gates = model.gates.filter((g) => g.afterStep === step.key);
    if (gates.length === 0) return [];
    const names = [...new Set(gates.flatMap((g) => g.fields.map((f) => f.name)))];
    const ns = fieldNamespace();
    let base = toPascal(step.ident);
    for (let n = 2; taken.has(base); n++) base = `${toPascal(step.ident)}${n}`;
    taken.add(base);
    const fields = names.map((name) => {
      const ident = ns.claim(name);
      return { name, ident, aliased: ident !== name };
    });
    return [{
      stepKey: step.key,
      recordClass: `${base}Record`,
      recordsClass: `${base}Records`,
      gateRefs: gates.map((g) => `gates[${g.index}] ${g.name}`).join(", "),
      fields,
      aliased: fields.some((f) => f.aliased),
    }];
  });
}

/** What the team's final answer must look like, in words (task descriptions, README). */
export function outputsExpectation(model: TeamModel): string {
  if (model.outputs.length === 0) return 'A JSON object {"answer": "<the team\'s final answer>"}.';
  const lines = model.outputs.map((o) => {
    const details = [o.type, ...(o.required ? ["required"] : []), ...(o.enum ? [`one of ${o.enum.join(", ")}`] : [])].join(", ");
    return `- ${o.key} (${details})${o.description ? `: ${o.description}` : ""}`;
  });
  return ["A JSON object with these fields:", ...lines].join("\n");
}

export function lossSummary(loss: LossEntry[]): LossSummary {
  return { counts: lossCounts(loss), notCarried: loss.filter((e) => e.status !== "carried") };
}

/** `agents[1] researcher: modelConfig google gemini-2.5-flash` style source of an agent's model. */
export function modelSourceOf(a: TeamModel["agents"][number]): string {
  if (!a.llm) return "no model";
  return a.llm.source === "model" ? `model ${a.llm.provider}:${a.llm.model}` : `modelConfig ${a.llm.provider} ${a.llm.model}`;
}

/** The scheduled workflow's job limit: the run's own limit plus time to install. */
export function workflowTimeoutMinutes(model: TeamModel): number {
  return Math.ceil(model.timeouts.runMs / 60_000) + 10;
}

/** team.py's comment on a pipeline step: the step, and how its dependencies were given. */
export function specCommentOf(s: { index: number; key: string; dependsOn: readonly string[]; dependsOnImplicit?: boolean }): string {
  return `pipeline[${s.index}] ${s.key}${s.dependsOnImplicit && s.dependsOn.length ? " (no dependsOn: after the previous step)" : ""}`;
}
