import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The end-to-end suites install Python projects; they set their own longer timeouts.
    testTimeout: 20_000,
    // Off a terminal (CI, a pipe) vitest prints a file only when it ends; the heartbeat names
    // the files still running after a minute of quiet, so a long suite is never silent.
    reporters: ["default", "./test/helpers/heartbeat-reporter.ts"],
  },
});
