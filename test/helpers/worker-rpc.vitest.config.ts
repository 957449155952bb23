// The repository's vitest configuration, running only fixtures/blocked-worker.ts (for
// test/worker-rpc.test.ts); with ENVELOPE_WORKER_RPC_HOOK=off, without the workers' RPC
// hook (worker-rpc-hooks.mjs), to show the failure it prevents.
import { defineConfig } from "vitest/config";
import base from "../../vitest.config.js";

const hooked = process.env.ENVELOPE_WORKER_RPC_HOOK !== "off";

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["test/helpers/fixtures/blocked-worker.ts"],
    reporters: ["default"],
    poolOptions: hooked ? base.test?.poolOptions : {},
  },
});
