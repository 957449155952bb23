// `langgraph dev` serving an export's own langgraph.json, as its README serves it, for the
// realpath tests: the export's src and vendored library on the path (langgraph dev installs
// nothing), offline (no version check, no analytics, no LangSmith tracing), in its own process
// group so that `stop()` ends it and its workers.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PythonEnv } from "../e2e/python-env.js";
import { freePort } from "../helpers/free-port.js";

export interface DevServer {
  url: string;
  /** What it printed so far. */
  log: () => string;
  stop: () => void;
}

export async function startLanggraphDev(env: PythonEnv, dir: string, extraEnv: Record<string, string>): Promise<DevServer> {
  const port = await freePort();
  const home = join(dir, ".home");
  mkdirSync(home, { recursive: true });
  let log = "";
  const dev: ChildProcess = spawn(join(env.bin, "langgraph"), ["dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", String(port)], {
    cwd: dir,
    env: { PATH: `${env.bin}:${process.env.PATH}`, HOME: home, PYTHONPATH: [join(dir, "src"), join(dir, "vendor", "envelope-runtime", "src")].join(":"), PYTHONDONTWRITEBYTECODE: "1", LANGGRAPH_NO_VERSION_CHECK: "true", LANGGRAPH_CLI_NO_ANALYTICS: "1", LANGSMITH_TRACING: "false", LANGCHAIN_TRACING_V2: "false", ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  dev.stdout!.on("data", (d: Buffer) => (log += d.toString()));
  dev.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  const stop = () => {
    if (dev.pid !== undefined && dev.exitCode === null) process.kill(-dev.pid, "SIGKILL");
  };
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  while (!(await fetch(`${url}/ok`).then((r) => r.ok, () => false))) {
    if (Date.now() - started > 180_000 || dev.exitCode !== null) {
      stop();
      throw new Error(`langgraph dev did not start:\n${log.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { url, log: () => log, stop };
}
