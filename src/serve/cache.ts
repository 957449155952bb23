// Answers by content: the same bytes, target and options always give the same export, so an
// answer can be reused for a repeated request (the page previews on every keystroke pause;
// CI systems export the same file many times). Bounded by bytes, least recently used first
// out; identical requests that arrive together share one computation. This is no session
// state: any instance computes the same answer, so instances can scale out freely.
import { createHash } from "node:crypto";
import type { Job, JobAnswer } from "./jobs.js";

export function jobKey(job: Job): string {
  const h = createHash("sha256");
  h.update(job.kind === "validate" ? `validate\0${job.strict}\0` : `export\0${job.target}\0${job.strict}\0${job.format}\0`);
  // Each part with its length, so no two different requests hash alike.
  h.update(`${job.body.length}\0`);
  h.update(job.body);
  if (job.connections) {
    const part = (bytes: Uint8Array | string) => {
      const b = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
      h.update(`\0${b.length}\0`);
      h.update(b);
    };
    part(`connections ${job.connections.files.length} ${job.connections.explicit.length}`);
    for (const f of job.connections.files) {
      part(f.path);
      part(f.bytes);
    }
    for (const e of job.connections.explicit) part(`${e.agent}=${e.provider}`);
  }
  return h.digest("base64url");
}

function sizeOf(answer: JobAnswer): number {
  if (answer.kind === "export" && answer.ok) {
    if (answer.format === "zip") return (answer.zip?.length ?? 0) + 1024;
    if (answer.format === "json") return answer.json.length * 2 + 1024;
    return answer.files.reduce((n, f) => n + f.bytes.length + f.path.length * 2 + 64, 1024);
  }
  return JSON.stringify(answer).length * 2;
}

export class AnswerCache {
  private readonly entries = new Map<string, { answer: JobAnswer; size: number }>();
  private readonly inflight = new Map<string, Promise<JobAnswer>>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  /** False when the cache is off (size 0): answers are neither kept nor shared. */
  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** The cached answer, or `compute()`'s (shared with identical requests in flight). */
  async get(job: Job, compute: () => Promise<JobAnswer>): Promise<{ answer: JobAnswer; hit: boolean }> {
    if (!this.enabled) return { answer: await compute(), hit: false };
    const key = jobKey(job);
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key); // re-insert: Map order is the recency order
      this.entries.set(key, found);
      this.hits++;
      return { answer: found.answer, hit: true };
    }
    const running = this.inflight.get(key);
    if (running) {
      this.hits++;
      return { answer: await running, hit: true };
    }
    this.misses++;
    const promise = compute();
    this.inflight.set(key, promise);
    try {
      const answer = await promise;
      this.store(key, answer);
      return { answer, hit: false };
    } finally {
      this.inflight.delete(key);
    }
  }

  private store(key: string, answer: JobAnswer): void {
    const size = sizeOf(answer);
    if (size > this.maxBytes / 4) return;
    this.entries.set(key, { answer, size });
    this.bytes += size;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.size;
    }
  }

  stats() {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }
}
