// Runs jobs (jobs.ts) on a fixed number of worker threads, so exports use every core and the
// event loop stays free for HTTP. Bounded: at most `size` jobs run and `maxQueue` wait;
// beyond that `run` refuses at once (the API answers 503). Each job has a deadline counted
// from when it was submitted: a job still queued at its deadline is dropped, and a job still
// running has its worker terminated and replaced, so no definition can hold a core.
// With size 0 the jobs run inline on the calling thread (no deadline can stop them there).
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { runJob, type Job, type JobAnswer, type ZipHead, type ZipStream } from "./jobs.js";

export class OverloadedError extends Error {
  constructor() {
    super("too many requests are being served; try again shortly");
    this.name = "OverloadedError";
  }
}

export class JobTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`the request took longer than the server's ${ms} ms limit`);
    this.name = "JobTimeoutError";
  }
}

export interface JobRunner {
  /** With a stream, a zip export's archive goes there as it is written (see jobs.ts). */
  run(job: Job, timeoutMs: number, stream?: ZipStream): Promise<JobAnswer>;
  /** Resolves when every worker has loaded the exporter (templates, schema, formatter). */
  ready(): Promise<void>;
  close(): Promise<void>;
  stats(): { size: number; busy: number; queued: number; restarts: number };
}

interface Pending {
  job: Job;
  stream?: ZipStream;
  timeoutMs: number;
  resolve: (a: JobAnswer) => void;
  reject: (e: Error) => void;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  current?: Pending;
  ready: Promise<void>;
}

/** How a worker thread starts: the compiled .js, or the .ts source through tsx (tests, bench). */
function spawnWorker(): Worker {
  const self = fileURLToPath(import.meta.url);
  if (self.endsWith(".js")) return new Worker(new URL("./export-worker.js", import.meta.url));
  const entry = new URL("./export-worker.ts", import.meta.url).href;
  // The package's import entry (require.resolve would give the CommonJS one).
  const api = createRequire(import.meta.url).resolve("tsx/esm/api").replace(/index\.cjs$/, "index.mjs");
  const tsx = pathToFileURL(api).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => { (m.register ?? m.default.register)(); return import(${JSON.stringify(entry)}); });`, { eval: true });
}

export class WorkerPool implements JobRunner {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private closed = false;
  private restarts = 0;

  constructor(
    size: number,
    private readonly maxQueue: number,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.startSlot());
  }

  private startSlot(): Slot {
    const worker = spawnWorker();
    worker.unref();
    let markReady: () => void = () => {};
    let failReady: (e: Error) => void = () => {};
    const ready = new Promise<void>((res, rej) => {
      markReady = res;
      failReady = rej;
    });
    ready.catch(() => {}); // observed by ready(); never an unhandled rejection
    const slot: Slot = { worker, ready };
    type Message = { type: "ready" } | { type: "head"; head: ZipHead } | { type: "chunk"; bytes: Uint8Array } | { type: "done"; answer: JobAnswer } | { type: "failed"; message: string };
    worker.on("message", (msg: Message) => {
      if (msg.type === "ready") return markReady();
      const job = slot.current;
      if (!job) return;
      if (msg.type === "head") return job.stream?.head(msg.head);
      if (msg.type === "chunk") return job.stream?.chunk(msg.bytes);
      this.finish(slot, job);
      if (msg.type === "done") job.resolve(msg.answer);
      else job.reject(new Error(msg.message));
      this.pump();
    });
    worker.on("error", (e) => {
      failReady(e);
      const job = slot.current;
      if (job) {
        this.finish(slot, job);
        job.reject(e);
      }
      this.replace(slot);
    });
    worker.on("exit", () => {
      if (!this.closed && this.slots.includes(slot) && slot.worker === worker) this.replace(slot);
    });
    return slot;
  }

  private finish(slot: Slot, job: Pending): void {
    if (job.timer) clearTimeout(job.timer);
    slot.current = undefined;
  }

  private replace(old: Slot): void {
    if (this.closed) return;
    const i = this.slots.indexOf(old);
    if (i < 0) return;
    void old.worker.terminate();
    this.restarts++;
    this.slots[i] = this.startSlot();
    this.pump();
  }

  ready(): Promise<void> {
    return Promise.all(this.slots.map((s) => s.ready)).then(() => undefined);
  }

  run(job: Job, timeoutMs: number, stream?: ZipStream): Promise<JobAnswer> {
    if (this.closed) return Promise.reject(new OverloadedError());
    const busy = this.slots.filter((s) => s.current).length;
    if (busy === this.slots.length && this.queue.length >= this.maxQueue) return Promise.reject(new OverloadedError());
    return new Promise<JobAnswer>((resolve, reject) => {
      const pending: Pending = { job, ...(stream ? { stream } : {}), timeoutMs, resolve, reject };
      pending.timer = setTimeout(() => this.expire(pending), timeoutMs);
      this.queue.push(pending);
      this.pump();
    });
  }

  private expire(job: Pending): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      job.reject(new JobTimeoutError(job.timeoutMs));
      return;
    }
    const slot = this.slots.find((s) => s.current === job);
    if (!slot) return;
    slot.current = undefined;
    job.reject(new JobTimeoutError(job.timeoutMs));
    this.replace(slot); // the only way to stop synchronous work: end the thread
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.current) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.current = job;
      slot.worker.postMessage({ type: "run", job: job.job, stream: job.stream !== undefined });
    }
  }

  stats() {
    return { size: this.slots.length, busy: this.slots.filter((s) => s.current).length, queued: this.queue.length, restarts: this.restarts };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      if (job.timer) clearTimeout(job.timer);
      job.reject(new OverloadedError());
    }
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}

/** Runs jobs on the calling thread (size 0: debugging, tiny hosts); each export is synchronous work, so they take turns. */
export class InlineRunner implements JobRunner {
  private running = 0;
  constructor(private readonly maxQueue: number) {}
  async run(job: Job, timeoutMs: number, stream?: ZipStream): Promise<JobAnswer> {
    if (this.running > this.maxQueue) throw new OverloadedError();
    this.running++;
    const started = Date.now();
    try {
      const answer = await runJob(job, stream);
      // Inline work cannot be interrupted; an answer past the deadline is still refused.
      if (Date.now() - started > timeoutMs) throw new JobTimeoutError(timeoutMs);
      return answer;
    } finally {
      this.running--;
    }
  }
  async ready(): Promise<void> {}
  async close(): Promise<void> {}
  stats() {
    return { size: 0, busy: this.running, queued: 0, restarts: 0 };
  }
}
