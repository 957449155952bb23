// prettier for the langgraph-js target, synchronously: export targets generate synchronously,
// and prettier 3 formats asynchronously, so one worker thread formats every file of an export
// while this thread waits on a shared flag (Atomics.wait). prettier is loaded there alone, and
// only for this target.
import { createRequire } from "node:module";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";

export interface FormatJob {
  path: string;
  text: string;
  parser: "typescript" | "json" | "json-stringify";
}

/** The project's prettier options (its .prettierrc.json says the same). */
export const PRETTIER_OPTIONS = { printWidth: 100 } as const;

// One worker per process, started on the first export to this target and kept (unref'd, so
// it never holds the process open): prettier is loaded once, not at every export.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const prettier = require(workerData.prettier);
// Load the TypeScript parser and printer plugins now, while the exporting thread loads ts-morph.
const warm = prettier.format("", { parser: "typescript" }).catch(() => undefined);
parentPort.on("message", async ({ jobs, options, flag, port }) => {
  let out;
  try {
    await warm;
    out = { results: await Promise.all(jobs.map((j) => prettier.format(j.text, { ...options, parser: j.parser, filepath: j.path }))) };
  } catch (error) {
    out = { error: String((error && error.message) || error) };
  }
  port.postMessage(out);
  port.close();
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

let worker: Worker | undefined;

/** Starts the formatter's worker (prettier and its TypeScript plugins load there meanwhile); formatAll starts it too. */
export function startFormatter(): Worker {
  if (!worker) {
    worker = new Worker(WORKER, { eval: true, workerData: { prettier: createRequire(import.meta.url).resolve("prettier") } });
    worker.unref();
    worker.on("error", () => (worker = undefined));
  }
  return worker;
}

/** Each job's text formatted by prettier (throws with prettier's message, e.g. a syntax error). */
export function formatAll(jobs: readonly FormatJob[]): string[] {
  if (jobs.length === 0) return [];
  const worker = startFormatter();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ jobs, options: PRETTIER_OPTIONS, flag, port: port2 }, [port2]);
  try {
    if (Atomics.wait(flag, 0, 0, 120_000) === "timed-out") throw new Error("prettier did not answer within 120 s");
    const message = receiveMessageOnPort(port1)?.message as { results?: string[]; error?: string } | undefined;
    if (!message?.results) throw new Error(`prettier failed: ${message?.error ?? "no answer"}`);
    return message.results;
  } finally {
    port1.close();
  }
}
