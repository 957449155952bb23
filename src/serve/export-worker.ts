// A worker thread of the pool (pool.ts): warms up (schema, templates, the Python formatter)
// by exporting a tiny team once per target, says it is ready, then answers jobs one by one.
import { parentPort } from "node:worker_threads";
import { TARGETS } from "../targets/index.js";
import { runJob, type Job } from "./jobs.js";

const port = parentPort;
if (!port) throw new Error("export-worker.ts runs only as a worker thread");

const WARM_UP = JSON.stringify({
  $schema: "https://schema.openenvelope.org/team/v1.json",
  name: "Warm-up",
  slug: "warm-up",
  version: "1.0.0",
  description: "Loads the exporter before the first request.",
  visibility: "private",
  agents: [{ key: "lead", name: "Lead", title: "Lead", role: "manager", prompt: "Lead." }],
});

async function warmUp(): Promise<void> {
  const body = new TextEncoder().encode(WARM_UP);
  for (const target of Object.keys(TARGETS)) await runJob({ kind: "export", body, target, strict: false, format: "zip" });
}

port.on("message", (msg: { type: "run"; job: Job }) => {
  runJob(msg.job).then(
    (answer) => port.postMessage({ type: "done", answer }),
    (e: unknown) => port.postMessage({ type: "failed", message: e instanceof Error ? e.message : String(e) }),
  );
});

warmUp().then(
  () => port.postMessage({ type: "ready" }),
  (e: unknown) => {
    throw e;
  },
);
