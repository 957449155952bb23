// The test runner's own RPC timeout on a blocked worker (test/helpers/worker-rpc-hooks.mjs):
// a test file that blocks its worker's event loop for 65 s passes under the repository's
// vitest configuration, where without the hook the same file fails the run with vitest 3's
// "Timeout calling onTaskUpdate" although its test passed. Two vitest processes of their
// own, side by side; the blocked workers wait without taking CPU.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";

function vitest(hook: "on" | "off"): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--config", "test/helpers/worker-rpc.vitest.config.ts"], {
      cwd: ROOT,
      env: { ...process.env, ENVELOPE_WORKER_RPC_HOOK: hook, NO_COLOR: "1", CI: "true" },
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, output }));
  });
}

describe("a worker blocked past vitest's 60 s RPC timeout", () => {
  it("passes with the hook; fails the run without it", async () => {
    const [hooked, bare] = await Promise.all([vitest("on"), vitest("off")]);
    expect(bare.output).toContain('Timeout calling "onTaskUpdate"');
    expect(bare.code).toBe(1);
    expect(hooked.output, hooked.output).not.toContain("Timeout calling");
    expect(hooked.output).toMatch(/Tests {2}2 passed \(2\)/);
    expect(hooked.code, hooked.output).toBe(0);
  }, 300_000);
});
