// src/cli/update-lazy.ts stands in for update.ts and apply.ts in `export --out`, loading them
// only for a directory that holds an earlier export: it must answer as they do.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as lazy from "../src/cli/update-lazy.js";
import { writeDirectory } from "../src/export/sinks/directory.js";
import { InterruptedError } from "../src/update/apply.js";
import { readRecord } from "../src/update/update.js";
import { ROOT } from "./helpers/cli.js";
import { exportFile } from "./helpers/export.js";

const scratch = mkdtempSync(join(tmpdir(), "update-lazy-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("update-lazy", () => {
  it("finds no record where update.ts finds none, and the same record where there is one", async () => {
    for (const dir of [join(scratch, "missing"), scratch]) expect(await lazy.readRecord(dir)).toBe(await readRecord(dir));
    const project = join(scratch, "project");
    await writeDirectory(exportFile(join(ROOT, "examples/support-tier.envelope.json"), "crewai"), project);
    // Compared as text: a deep equality of the base's byte arrays (the vendored library and
    // uv.lock, megabytes) takes vitest tens of seconds on a loaded machine.
    const record = async (read: typeof readRecord) => {
      const r = (await read(project))!;
      return { ledger: r.ledger, base: r.base.entries().map(([path, f]) => [path, f.mode, Buffer.from(f.bytes).toString("base64")]) };
    };
    expect(await record(lazy.readRecord)).toEqual(await record(readRecord));
  });

  it("InterruptedError matches apply.ts's errors, and nothing else", async () => {
    await lazy.readRecord(join(scratch, "project")); // loads the modules, as updateProject() does
    expect(new InterruptedError("stopped") instanceof lazy.InterruptedError).toBe(true);
    expect(new Error("other") instanceof lazy.InterruptedError).toBe(false);
  });
});
