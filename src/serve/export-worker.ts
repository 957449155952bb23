// A worker thread of the pool (pool.ts): warms up (schema, templates, the Python formatter)
// by exporting a tiny team once per target, says it is ready, then answers jobs one by one.
// A streamed zip goes out as `head`, then `chunk` messages of up to CHUNK bytes, then `done`.
import { parentPort } from "node:worker_threads";
import { TARGETS } from "../targets/index.js";
import { runJob, type Job, type ZipStream } from "./jobs.js";

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

// The zip sink writes headers, names and data as separate small pieces: batched, so a
// 64 kB archive crosses to the HTTP thread in one message, not a hundred.
const CHUNK = 64 * 1024;

function zipStream(to: NonNullable<typeof port>): ZipStream & { flush(): void } {
  let pending: Uint8Array[] = [];
  let size = 0;
  const flush = () => {
    if (size === 0) return;
    // Its own ArrayBuffer (Buffer.concat may slice Node's shared pool), so it can be transferred.
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const piece of pending) {
      bytes.set(piece, at);
      at += piece.length;
    }
    pending = [];
    size = 0;
    to.postMessage({ type: "chunk", bytes }, [bytes.buffer]);
  };
  return {
    head: (head) => to.postMessage({ type: "head", head }),
    chunk(bytes) {
      pending.push(bytes);
      size += bytes.length;
      if (size >= CHUNK) flush();
    },
    flush,
  };
}

port.on("message", (msg: { type: "run"; job: Job; stream: boolean }) => {
  const stream = msg.stream ? zipStream(port) : undefined;
  runJob(msg.job, stream).then(
    (answer) => {
      stream?.flush();
      port.postMessage({ type: "done", answer });
    },
    (e: unknown) => port.postMessage({ type: "failed", message: e instanceof Error ? e.message : String(e) }),
  );
});

warmUp().then(
  () => port.postMessage({ type: "ready" }),
  (e: unknown) => {
    throw e;
  },
);
