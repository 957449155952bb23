// The order test files start in. On a clean clone vitest has no durations cached and starts
// the larger files first, but the longest suites are small files (test/e2e/crewai.test.ts
// calls a shared describe), so one of them used to start last and run alone for minutes:
// CI went past its 30 minutes. The longest files, as measured on CI (2 cores), start first,
// longest first; the rest keep vitest's order (durations when cached, else size).
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Longest first (CI, 2026-12-03: 500, 375, 370, 260, 175, 160, 145, 115, 100 s). */
const LONGEST = [
  "test/e2e/crewai.test.ts",
  "test/e2e/langgraph.test.ts",
  // 13 langgraph-js exports' tsc, prettier and vitest (380 s on a loaded 2-core machine, 12-06), after one npm ci.
  "test/e2e/langgraph-js.test.ts",
  "test/hostile/install.test.ts",
  "test/realpath/crewai.test.ts",
  "test/realpath/crewai-cli.test.ts",
  "test/realpath/crewai-visible.test.ts",
  "test/realpath/runtime-index.test.ts",
  "test/realpath/workspace.test.ts",
  "test/realpath/langgraph.test.ts",
  "test/hostile/property.test.ts",
  // 75 s of two vitest processes waiting on a blocked worker (no CPU): started early, it
  // overlaps the heavy files instead of holding a worker near the end.
  "test/worker-rpc.test.ts",
];

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => LONGEST.findIndex((path) => f.moduleId.replaceAll("\\", "/").endsWith(path));
    const longest = files.filter((f) => rank(f) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...longest, ...(await super.sort(files.filter((f) => rank(f) < 0)))];
  }
}
