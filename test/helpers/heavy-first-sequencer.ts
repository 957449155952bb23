// The order test files start in. On a clean clone vitest has no durations cached and starts
// the larger files first, but the longest suites are small files (test/e2e/crewai.test.ts
// calls a shared describe), so one of them used to start last and run alone for minutes:
// CI went past its 30 minutes. The longest files, as measured on CI (2 cores), start first,
// longest first; the rest keep vitest's order (durations when cached, else size).
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Longest first, as measured on CI (2 cores, 2026-12-07: the seconds after each).
 * Every file over about a minute is here: one left to vitest's order (by size, when nothing
 * is cached) can start late and hold one worker alone at the end, as the 357 s uv-lock e2e
 * and the 104 s hostile corpus did. The rest, all shorter, then fill both workers evenly.
 */
const LONGEST = [
  "test/e2e/crewai.test.ts", // 552
  "test/hostile/property.test.ts", // 371
  "test/e2e/uv-lock.test.ts", // 357
  "test/hostile/install.test.ts", // 352
  "test/e2e/langgraph.test.ts", // 289
  "test/realpath/workspace.test.ts", // 286
  "test/realpath/crewai.test.ts", // 260
  "test/realpath/schedules.test.ts", // 149
  "test/realpath/crewai-cli.test.ts", // 145
  "test/realpath/crewai-visible.test.ts", // 136
  "test/realpath/langgraph.test.ts", // 124
  "test/hostile/corpus.test.ts", // 104
  "test/realpath/crewai-postgres.test.ts", // 84
  // 13 langgraph-js exports' tsc, prettier and vitest after one npm ci (81 s; 380 s on a loaded machine, 12-06).
  "test/e2e/langgraph-js.test.ts", // 81
  "test/realpath/runtime-index.test.ts", // 79
  // Two vitest processes waiting on a blocked worker (no CPU): among the heavy files, it
  // overlaps them instead of holding a worker near the end.
  "test/worker-rpc.test.ts", // 67
  "test/realpath/transient.test.ts", // 63
  "test/realpath/langgraph-crons.test.ts", // 55
  "test/serve/page.test.ts", // 54
  "test/realpath/connections.test.ts", // 53
  "test/realpath/langgraph-dev.test.ts", // 50
];

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => LONGEST.findIndex((path) => f.moduleId.replaceAll("\\", "/").endsWith(path));
    const longest = files.filter((f) => rank(f) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...longest, ...(await super.sort(files.filter((f) => rank(f) < 0)))];
  }
}
