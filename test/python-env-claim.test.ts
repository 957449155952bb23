// The cached Python environments hold an editable envelope-runtime of one checkout: a test
// run of a second checkout must refuse them while the first runs, not re-point them.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claimEnvironment } from "./e2e/python-env.js";

const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
afterAll(() => sleeper.kill());

describe("a cached Python environment and the checkouts using it", () => {
  it("is refused while a live process of another checkout uses it, naming that checkout", () => {
    const root = mkdtempSync(join(tmpdir(), "envelope-env-"));
    claimEnvironment(root, "/checkouts/a");
    writeFileSync(join(root, ".envelope-users", String(sleeper.pid)), "/checkouts/b");
    expect(() => claimEnvironment(root, "/checkouts/a")).toThrow(/in use by a test run of another checkout: \/checkouts\/b \(process \d+\)/);
  });

  it("is taken when the other checkout's process is gone, its mark removed", () => {
    const root = mkdtempSync(join(tmpdir(), "envelope-env-"));
    claimEnvironment(root, "/checkouts/a");
    const gone = join(root, ".envelope-users", "2147483646");
    writeFileSync(gone, "/checkouts/b");
    expect(() => claimEnvironment(root, "/checkouts/a")).not.toThrow();
    expect(existsSync(gone)).toBe(false);
  });

  it("is shared by the processes of one checkout", () => {
    const root = mkdtempSync(join(tmpdir(), "envelope-env-"));
    claimEnvironment(root, "/checkouts/a");
    writeFileSync(join(root, ".envelope-users", String(sleeper.pid)), "/checkouts/a");
    expect(() => claimEnvironment(root, "/checkouts/a")).not.toThrow();
    expect(readdirSync(join(root, ".envelope-users")).sort()).toEqual([String(process.pid), String(sleeper.pid)].sort());
  });
});
