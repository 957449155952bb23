// The support code's own tests (issue 14): CrewAI exports ship only the tests about their
// team, and the tests of envelope_support/ live here, in test/crewai-support/, run against
// every exported project by the end-to-end suites (`ENVELOPE_PACKAGE` names its package).
import { fileURLToPath } from "node:url";

const SUITES: Record<string, string[]> = {
  crewai: [
    fileURLToPath(new URL("../crewai-support", import.meta.url)),
    // Shared with LangGraph's exports, which ship it.
    fileURLToPath(new URL("../../templates/python-common/static/tests/test_redaction.py", import.meta.url)),
  ],
};

/** The pytest run of the support code's tests against an exported project, if the target has one. */
export function supportSuite(target: string, pkg: string): { args: string[]; env: Record<string, string> } | undefined {
  const paths = SUITES[target];
  return paths && { args: ["-m", "pytest", "-q", "-p", "no:cacheprovider", ...paths], env: { ENVELOPE_PACKAGE: pkg } };
}
