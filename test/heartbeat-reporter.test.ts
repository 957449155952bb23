// The heartbeat reporter (vitest.config.ts): after a minute with nothing printed, it names
// the files still running; a finished file (which vitest prints) resets the quiet.
import { describe, expect, it } from "vitest";
import type { TestCase, TestModule, Vitest } from "vitest/node";
import HeartbeatReporter from "./helpers/heartbeat-reporter.js";

describe("heartbeat reporter", () => {
  it("names the running files, tests done and time after a quiet minute, and only then", () => {
    let now = 0;
    const lines: string[] = [];
    const r = new HeartbeatReporter({ enabled: false, now: () => now });
    r.onInit({ config: { root: "/repo" }, logger: { log: (t: string) => lines.push(t) } } as unknown as Vitest);
    r.onTestRunStart();
    const e2e = { moduleId: "/repo/test/e2e/crewai.test.ts" } as TestModule;
    const quick = { moduleId: "/repo/test/cli.test.ts" } as TestModule;
    r.onTestModuleStart(e2e);
    r.onTestModuleStart(quick);
    r.onTestCaseResult({ module: e2e } as TestCase);
    now = 30_000;
    r.tick();
    expect(lines).toEqual([]);
    now = 40_000;
    r.onTestModuleEnd(quick); // printed by vitest: the quiet starts again
    now = 90_000;
    r.tick();
    expect(lines).toEqual([]);
    now = 100_000;
    r.tick();
    expect(lines).toEqual(["… still running: test/e2e/crewai.test.ts (1 test done, 1 min 40 s)"]);
    now = 130_000;
    r.tick();
    expect(lines).toHaveLength(1);
    r.onTestRunEnd();
  });
});
