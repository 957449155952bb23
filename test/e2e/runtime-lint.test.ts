// The runtime library is code every export ships (vendored, or from an index) and its tests are
// what a contributor runs: both are held to the ruff the exports pin, under the library's own
// pyproject.toml rules, as an export's own code is by its tests. Nothing else lints them (an
// export's ruff run leaves vendor/ alone).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { e2eGate, ruffBinary, RUNTIME_LIBRARY } from "./python-env.js";

const gate = e2eGate();

describe.runIf(gate.run)("the runtime library, its sources and tests", () => {
  it.each([
    ["ruff check", ["check", "--no-cache", "--output-format", "concise", "."]],
    ["ruff format --check", ["format", "--no-cache", "--check", "."]],
  ])("%s is clean", (_name, args) => {
    const r = spawnSync(ruffBinary(gate.python!), args, { cwd: RUNTIME_LIBRARY, encoding: "utf8", timeout: 300_000 });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  }, 600_000);
});
