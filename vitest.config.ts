import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import HeavyFirstSequencer from "./test/helpers/heavy-first-sequencer.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The end-to-end suites install Python projects; they set their own longer timeouts.
    testTimeout: 20_000,
    // Hooks set up and delete whole exported projects; vitest's 10 s default is too short on a
    // loaded 2-core machine (a corpus's afterAll rm took longer). Long hooks set their own.
    hookTimeout: 60_000,
    // expect.poll waits for a page or a server to reach a state; vitest's 1 s default failed a
    // page test whose check answered later on a loaded machine (CI, 2026-12-07: "Checking…").
    // A state that never comes still fails, after 10 s.
    expect: { poll: { timeout: 10_000 } },
    // Two files at a time on the 2-core CI machine (vitest's default is one fewer than the
    // cores): most files spend their time waiting on a Python process or a browser, so two
    // overlap well, and CI stays within its 30 minutes.
    maxWorkers: 2,
    minWorkers: 1,
    // A worker blocked for a minute (a synchronous install or test-suite run, on a loaded
    // machine) must not fail the run on vitest's own 60 s RPC timeout: the hook turns that
    // timeout off, as vitest 4 does (test/helpers/worker-rpc-hooks.mjs says how and why).
    poolOptions: { forks: { execArgv: ["--import", fileURLToPath(new URL("./test/helpers/worker-rpc.mjs", import.meta.url))] } },
    // The longest files start first, so none is left to run alone at the end (see there).
    sequence: { sequencer: HeavyFirstSequencer },
    // Off a terminal (CI, a pipe) vitest prints a file only when it ends; the heartbeat names
    // the files still running after a minute of quiet, so a long suite is never silent.
    reporters: ["default", "./test/helpers/heartbeat-reporter.ts"],
  },
});
