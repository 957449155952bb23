// Preloaded into every vitest worker (vitest.config.ts, poolOptions.forks.execArgv): see
// worker-rpc-hooks.mjs.
import { register } from "node:module";

register("./worker-rpc-hooks.mjs", import.meta.url);
