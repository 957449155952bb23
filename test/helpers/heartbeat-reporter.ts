// A vitest reporter that breaks long silences where nobody watches a terminal (CI logs, a pipe):
// there vitest prints a file only once it has finished, and the end-to-end files run for
// minutes. After `quietMs` without output it names each file still running, with its tests
// done so far and how long it has run. On a terminal vitest's own live summary shows that.
import { relative } from "node:path";
import type { Reporter, TestCase, TestModule, Vitest } from "vitest/node";

interface Running {
  started: number;
  done: number;
}

export default class HeartbeatReporter implements Reporter {
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | undefined;
  private lastOutput = Date.now();
  private root = process.cwd();
  private write: (text: string) => void = (text) => void process.stdout.write(text);

  constructor(
    private readonly options: { quietMs?: number; tickMs?: number; enabled?: boolean; now?: () => number } = {},
  ) {}

  private get now(): number {
    return (this.options.now ?? Date.now)();
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.write = (text) => vitest.logger.log(text.replace(/\n$/, ""));
  }

  onTestRunStart(): void {
    this.lastOutput = this.now;
    const enabled = this.options.enabled ?? (!process.stdout.isTTY || process.env.CI === "true");
    if (enabled) this.timer = setInterval(() => this.tick(), this.options.tickMs ?? 10_000).unref();
  }

  onTestModuleStart(module: TestModule): void {
    this.running.set(module.moduleId, { started: this.now, done: 0 });
  }

  onTestCaseResult(test: TestCase): void {
    const entry = this.running.get(test.module.moduleId);
    if (entry) entry.done++;
  }

  onTestModuleEnd(module: TestModule): void {
    this.running.delete(module.moduleId);
    this.lastOutput = this.now; // vitest prints the finished file
  }

  onTestRunEnd(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One line when `quietMs` have passed with nothing printed; the line counts as output. */
  tick(): void {
    if (this.running.size === 0 || this.now - this.lastOutput < (this.options.quietMs ?? 60_000)) return;
    const files = [...this.running].map(([id, r]) => `${relative(this.root, id)} (${r.done} test${r.done === 1 ? "" : "s"} done, ${minutes(this.now - r.started)})`);
    this.write(`… still running: ${files.join(", ")}\n`);
    this.lastOutput = this.now;
  }
}

function minutes(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
