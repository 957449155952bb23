// Issue 36: the vendored runtime library is part of the export like any generated file. A
// developer's edit of it is kept (merged when the new export changes the same file), and the
// update says that it is the library itself that was edited; switching the runtime mode on a
// re-export swaps the pin and the vendored copy together.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { vendoredEdits } from "../../src/cli/update-report.js";
import type { PlanEntry } from "../../src/update/plan.js";
import { ROOT, runCli } from "../helpers/cli.js";

const EXAMPLE = join(ROOT, "examples", "support-tier.envelope.json");
const REDACTION = "vendor/envelope-runtime/src/envelope_runtime/redaction.py";

describe.each(["crewai", "langgraph"])("re-export of a %s project with an edited vendored runtime", (target) => {
  const work = mkdtempSync(join(tmpdir(), `envelope-vendored-${target}-`));
  const dir = join(work, "project");
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("keeps the developer's edit of the library and says the library was edited", async () => {
    expect((await runCli(["export", EXAMPLE, "--target", target, "--out", dir])).code).toBe(0);
    const file = join(dir, REDACTION);
    const mine = readFileSync(file, "utf8") + "\n# a local patch of the runtime\n";
    writeFileSync(file, mine);

    const again = await runCli(["export", EXAMPLE, "--target", target, "--out", dir]);
    expect(again.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(mine);
    expect(again.stdout).toContain(`keep      ${REDACTION}`);
    expect(again.stdout).toMatch(/envelope-runtime, the runtime library vendored in vendor\/envelope-runtime\/, was itself edited in this project \(1 file\)/);

    const json = await runCli(["export", EXAMPLE, "--target", target, "--out", dir, "--plan", "--json"]);
    expect((JSON.parse(json.stdout) as { update: { vendoredLibrariesEdited: unknown } }).update.vendoredLibrariesEdited).toEqual({ "envelope-runtime": [REDACTION] });
  });

  it("a re-export with --runtime index drops the vendored copy it never saw edited, keeps the edited file, and moves the pin to the index", async () => {
    const r = await runCli(["export", EXAMPLE, "--target", target, "--out", dir, "--runtime", "index"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, "vendor/envelope-runtime/src/envelope_runtime/checks.py"))).toBe(false);
    // the edited file is the developer's: kept for them to remove, and said
    expect(existsSync(join(dir, REDACTION))).toBe(true);
    expect(r.stdout).toContain(`keep      ${REDACTION}`);
    expect(r.stdout).toMatch(/was itself edited in this project/);
    const pyproject = readFileSync(join(dir, "pyproject.toml"), "utf8");
    expect(pyproject).toMatch(new RegExp(`"envelope-runtime\\[${target}\\]==\\d+\\.\\d+\\.\\d+"`));
    expect(pyproject).not.toContain("[tool.uv.sources]");
  });
});

describe("vendoredEdits", () => {
  const entry = (path: string, action: PlanEntry["action"]): PlanEntry => ({ path, action, reason: "" });
  it("names each vendored library with the files the developer changed, and nothing else", () => {
    const plan = [
      entry("vendor/envelope-runtime/src/envelope_runtime/gates.py", "merge"),
      entry("vendor/envelope-runtime/src/envelope_runtime/policy.py", "conflict"),
      entry("vendor/envelope-runtime/src/envelope_runtime/checks.py", "update"),
      entry("vendor/envelope-runtime/README.md", "unchanged"),
      entry("vendor/other-lib/x.py", "keep"),
      entry("src/team/crew.py", "merge"),
    ];
    expect(Object.fromEntries(vendoredEdits(plan))).toEqual({
      "envelope-runtime": ["vendor/envelope-runtime/src/envelope_runtime/gates.py", "vendor/envelope-runtime/src/envelope_runtime/policy.py"],
      "other-lib": ["vendor/other-lib/x.py"],
    });
  });
});
