// The fixed-seed property run: a few hundred generated hostile definitions per target, each
// exported, written through both sinks and checked by the real parsers (check_project.py,
// one Python process for the whole run). A failure shows the seed, the replay path and the
// shrunk counterexample. HOSTILE_SEED / HOSTILE_RUNS override the defaults; the 10,000
// definition run is bench/hostile.bench.ts.
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { targetNames } from "../../src/targets/index.js";
import { definitionText, hostileDefinition } from "./arbitrary.js";
import { Checker, checkDefinitions, checkerGate } from "./harness.js";

export const SEED = Number(process.env.HOSTILE_SEED ?? 20261130);
const RUNS = Number(process.env.HOSTILE_RUNS ?? 300);

const gate = checkerGate();

describe.runIf(gate.run)(`hostile definitions (seed ${SEED}, ${RUNS} runs per target)`, () => {
  let checker: Checker;
  const work = mkdtempSync(join(tmpdir(), "envelope-hostile-property-"));
  beforeAll(() => {
    checker = new Checker(gate.python!, gate.ruff);
  });
  afterAll(() => {
    checker.close();
    rmSync(work, { recursive: true, force: true });
  });

  it.each(targetNames())("%s: every string stays data, every name valid, nothing escapes the output", async (target) => {
    let run = 0;
    const property = fc.asyncProperty(hostileDefinition, async (definition) => {
      const dir = join(work, `${target}-${run++}`);
      try {
        const { problems } = await checkDefinitions(checker, [{ id: "definition", text: definitionText(definition) }], dir, [target]);
        if (problems.length) throw new Error(problems.slice(0, 8).join("\n"));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
    // Shrinking a failure re-exports and re-checks each candidate: bounded, so a broken
    // target reports its (partly shrunk) counterexample instead of running for hours.
    await fc.assert(property, { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: 240_000, markInterruptAsFailure: true });
  }, 300_000);
});
