// The support code's own tests (issue 14 for CrewAI, issue 15 for LangGraph): an export ships
// only the tests about its team, and the tests of the runtime library (envelope-runtime) live
// with it, in python/envelope-runtime/tests/<target>/, run against exported projects by the end-to-end suites
// (`ENVELOPE_PACKAGE` names its package): each kind of team once (supportSuiteDefinitions).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { normalize } from "../../src/model/index.js";
import type { TeamModel } from "../../src/model/types.js";
import { validDefinitions } from "../helpers/export.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
// envelope-runtime's own test suite (python/envelope-runtime/tests/): the tests of its core
// (checks, gates, model_env, placeholders, policy, redaction, connections, trace), run with each
// target's suite. One pytest run takes both folders, in the default (prepend) import mode:
// their module names differ (common_project.py, not project.py).
const LIBRARY_TESTS = "../../python/envelope-runtime/tests/";
export const PYTHON_COMMON = here(`${LIBRARY_TESTS}common`);

const SUITES: Record<string, string[]> = {
  crewai: [here(`${LIBRARY_TESTS}crewai`), PYTHON_COMMON],
  langgraph: [here(`${LIBRARY_TESTS}langgraph`), PYTHON_COMMON],
};

/** The connection packs' tests (python-common's: connections.py, and each target's connection_tools.py's MCP tools). */
export const CONNECTION_TESTS = [join(PYTHON_COMMON, "test_connection_packs.py"), join(PYTHON_COMMON, "test_mcp_tools.py")];

/**
 * Library test files that depend on the team only through its execution mode (and, for a
 * pipeline, whether it has gates), and spend their time waiting on a clock:
 * test_kickoff_deadline.py (runMs on a kickoff without the runner, as CrewAI AMP does; every
 * fake model answer takes 1.2 s, about 4 s a run and no CPU). The end-to-end suites run them
 * against one hierarchy and one pipeline with gates (modeOnlyCoverage: the richest of each mode
 * among supportSuiteDefinitions'), not against every definition they choose; every other run of
 * the support suite (the connection packs' hierarchy, the hostile installs) keeps them.
 */
const MODE_ONLY: Record<string, string[]> = {
  crewai: [here(`${LIBRARY_TESTS}crewai/test_kickoff_deadline.py`)],
};

/** The pytest run of the support code's tests against an exported project, if the target has one. */
export function supportSuite(target: string, pkg: string): { args: string[]; env: Record<string, string> } | undefined {
  const paths = SUITES[target];
  const modeOnly = MODE_ONLY[target] ?? [];
  const skip = modeOnly.length && modeOnlyCoverage().without.has(pkg) ? modeOnly : [];
  return paths && { args: ["-m", "pytest", "-q", "-p", "no:cacheprovider", ...paths, ...skip.map((p) => `--ignore=${p}`)], env: { ENVELOPE_PACKAGE: pkg } };
}

let coverage: { with: Map<string, string>; without: Set<string> } | undefined;

/**
 * Which valid definitions' support suites run MODE_ONLY's files: `with` maps each execution
 * mode to the package of the first definition of that mode supportSuiteDefinitions chose (the
 * richest); `without` holds the packages of the rest it chose, whose runs skip those files.
 * Every mode is a feature there, so every mode has its definition, and the pipeline's has gates
 * (a paused flow's test skips without them): both checked, so a change of fixtures cannot
 * leave those tests running nowhere.
 */
export function modeOnlyCoverage(): { with: Map<string, string>; without: Set<string> } {
  if (coverage) return coverage;
  const models = validDefinitions().map(({ name, path }) => ({ name, model: normalize(readFileSync(path)).model! }));
  const byName = new Map(models.map((d) => [d.name, d.model]));
  const result = { with: new Map<string, string>(), without: new Set<string>() };
  let pipelineGates = 0;
  for (const name of supportSuiteDefinitions(models)) {
    const model = byName.get(name)!;
    if (result.with.has(model.execution.mode)) {
      result.without.add(model.names.package);
    } else {
      result.with.set(model.execution.mode, model.names.package);
      if (model.execution.mode === "pipeline") pipelineGates = model.gates.length;
    }
  }
  for (const mode of ["hierarchy", "pipeline"]) if (!result.with.has(mode)) throw new Error(`no ${mode} definition runs the support suite`);
  if (!pipelineGates) throw new Error(`${result.with.get("pipeline")}: the pipeline that runs ${MODE_ONLY.crewai} has no gates`);
  for (const pkg of result.with.values()) result.without.delete(pkg);
  return (coverage = result);
}

/**
 * The valid definitions the support suites run against, so that every kind of team the
 * support code handles is run through them once: the support code is the same file in every
 * export, and only the team it is run with varies. Greedy over what each definition brings
 * (execution mode, parallel steps and gates, hierarchy depth, gates in a hierarchy, each gate type, trigger, onReject
 * and timeout, each output type, each schedule type, workspace documents, agents with and
 * without egress), the richest first; a definition that brings nothing new is skipped (its
 * own generated tests still run). Issue 19's CI budget: running them against every export
 * took half of CI's time.
 */
export function supportSuiteDefinitions(definitions: ReadonlyArray<{ name: string; model: TeamModel }>): Set<string> {
  const withFeatures = definitions.map(({ name, model }) => ({ name, features: teamFeatures(model) }));
  withFeatures.sort((a, b) => b.features.size - a.features.size || a.name.localeCompare(b.name));
  const covered = new Set<string>();
  const chosen = new Set<string>();
  for (const { name, features } of withFeatures) {
    if ([...features].every((f) => covered.has(f))) continue;
    chosen.add(name);
    for (const f of features) covered.add(f);
  }
  return chosen;
}

function teamFeatures(m: TeamModel): Set<string> {
  const steps = m.execution.mode === "pipeline" ? m.execution.steps : [];
  const level = new Map(steps.map((s) => [s.key, s.level]));
  const sharedLevel = (keys: string[]) => new Set(keys.map((k) => level.get(k))).size < keys.length;
  return new Set([
    ...(sharedLevel(steps.map((s) => s.key)) ? ["parallel-steps"] : []),
    ...(sharedLevel(m.gates.filter((g) => level.has(g.afterStep)).map((g) => g.afterStep)) ? ["parallel-gates"] : []),
    `mode:${m.execution.mode}`,
    `depth:${Math.min(m.hierarchy.maxDepth, 2)}`,
    ...(m.execution.mode === "hierarchy" && m.gates.length ? ["hierarchy-gates"] : []),
    ...m.gates.flatMap((g) => [`gate:${g.type}`, `trigger:${g.trigger}`, `onReject:${g.onReject}`, ...(g.timeout ? [`timeout:${g.timeout.behaviour}`] : [])]),
    ...m.outputs.map((o) => `output:${o.type}`),
    `schedule:${m.schedule.type}`,
    ...(m.workspace.length ? ["workspace"] : []),
    ...(m.agents.some((a) => a.egress.allowsAny) ? ["egress"] : []),
    ...(m.agents.some((a) => !a.egress.allowsAny) ? ["no-egress"] : []),
  ]);
}
