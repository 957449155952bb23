// The support code's own tests (issue 14 for CrewAI, issue 15 for LangGraph): an export ships
// only the tests about its team, and the tests of the runtime library (envelope-runtime) live
// with it, in python/envelope-runtime/tests/<target>/, run against exported projects by the end-to-end suites
// (`ENVELOPE_PACKAGE` names its package): each kind of team once (supportSuiteDefinitions).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TeamModel } from "../../src/model/types.js";

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

/** The pytest run of the support code's tests against an exported project, if the target has one. */
export function supportSuite(target: string, pkg: string): { args: string[]; env: Record<string, string> } | undefined {
  const paths = SUITES[target];
  return paths && { args: ["-m", "pytest", "-q", "-p", "no:cacheprovider", ...paths], env: { ENVELOPE_PACKAGE: pkg } };
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
