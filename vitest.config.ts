import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The end-to-end suites install Python projects; they set their own longer timeouts.
    testTimeout: 20_000,
  },
});
