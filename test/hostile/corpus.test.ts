// The checked-in corpus of hostile names and strings (test/fixtures/hostile/corpus.json):
// every entry is a valid definition and exports for every target into a project whose
// files all parse and give every carried string back exactly (see expectations.ts).
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { targetNames } from "../../src/targets/index.js";
import { validate } from "../../src/validate/validate.js";
import { definitionText } from "./arbitrary.js";
import { corpusDefinitions, corpusSize } from "./corpus.js";
import { Checker, checkDefinitions, checkerGate } from "./harness.js";

const definitions = corpusDefinitions().map((d) => ({ ...d, text: definitionText(d.definition) }));

describe("hostile corpus", () => {
  it("holds at least 50 hostile names and strings, each a valid definition", () => {
    expect(corpusSize()).toBeGreaterThanOrEqual(50);
    const invalid = definitions
      .map((d) => ({ id: d.id, errors: validate(d.text).diagnostics.filter((x) => x.severity === "error").map((x) => `${x.code} ${x.pointer}`) }))
      .filter((d) => d.errors.length > 0);
    expect(invalid).toEqual([]);
  });
});

const gate = checkerGate();

describe.runIf(gate.run)("hostile corpus exported", () => {
  let checker: Checker;
  const work = mkdtempSync(join(tmpdir(), "envelope-hostile-corpus-"));
  beforeAll(() => {
    checker = new Checker(gate.python!, gate.ruff);
  });
  // Some 240 projects and their ZIPs: deleting them takes longer than the default hook
  // timeout on a loaded machine.
  afterAll(async () => {
    checker.close();
    await rm(work, { recursive: true, force: true });
  }, 120_000);

  it.each(targetNames())("%s: every entry exports, parses and round-trips", async (target) => {
    const { problems } = await checkDefinitions(checker, definitions, join(work, target), [target]);
    expect(problems).toEqual([]);
  }, 300_000);
});
