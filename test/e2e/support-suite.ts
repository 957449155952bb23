// The support code's own tests (issue 14 for CrewAI, issue 15 for LangGraph): an export ships
// only the tests about its team, and the tests of envelope_support/ live here, in
// test/<target>-support/, run against every exported project by the end-to-end suites
// (`ENVELOPE_PACKAGE` names its package).
import { fileURLToPath } from "node:url";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
// The tests of python-common's modules (checks, gates, model_env, placeholders, policy,
// redaction), run with each target's suite. One pytest run takes both folders, in the default
// (prepend) import mode: their module names differ (common_project.py, not project.py).
const PYTHON_COMMON = here("../python-common-support");

const SUITES: Record<string, string[]> = {
  crewai: [here("../crewai-support"), PYTHON_COMMON],
  langgraph: [here("../langgraph-support"), PYTHON_COMMON],
};

/** The pytest run of the support code's tests against an exported project, if the target has one. */
export function supportSuite(target: string, pkg: string): { args: string[]; env: Record<string, string> } | undefined {
  const paths = SUITES[target];
  return paths && { args: ["-m", "pytest", "-q", "-p", "no:cacheprovider", ...paths], env: { ENVELOPE_PACKAGE: pkg } };
}
