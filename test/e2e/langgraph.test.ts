// Every valid definition exported to LangGraph runs its own tests on LangGraph and LangChain
// (python/langgraph.lock), and `langgraph dev` serves an exported project as it is.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeDirectory } from "../../src/export/sinks/directory.js";
import { exportFile } from "../helpers/export.js";
import { ROOT } from "../helpers/cli.js";
import { describeProjectsOnFramework } from "./projects.js";
import { e2eGate, ensureEnv, installProject } from "./python-env.js";

describeProjectsOnFramework("langgraph", "LangGraph");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const gate = e2eGate();

describe.runIf(gate.run)("langgraph dev", () => {
  it("loads the exported graph from langgraph.json (no checkpointer, no keys, no .env)", async () => {
    const env = ensureEnv("langgraph", gate.python!);
    const dir = join(mkdtempSync(join(tmpdir(), "envelope-e2e-lgdev-")), "support-tier");
    await writeDirectory(exportFile(join(ROOT, "examples/support-tier.envelope.json"), "langgraph"), dir);
    installProject(env, dir);
    const port = await freePort();
    const server = spawn(join(env.bin, "langgraph"), ["dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", String(port)], {
      cwd: dir,
      env: { PATH: `${env.bin}:${process.env.PATH}`, HOME: process.env.HOME, LANGSMITH_TRACING: "false", LANGGRAPH_CLI_NO_ANALYTICS: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    server.stdout.on("data", (c: Buffer) => (log += c.toString()));
    server.stderr.on("data", (c: Buffer) => (log += c.toString()));
    const base = `http://127.0.0.1:${port}`;
    try {
      let ready = false;
      for (let i = 0; i < 120 && !ready && server.exitCode === null; i++) {
        ready = await fetch(`${base}/ok`).then((r) => r.ok, () => false);
        if (!ready) await new Promise((r) => setTimeout(r, 500));
      }
      expect(ready, `langgraph dev did not come up:\n${log}`).toBe(true);
      const found = await fetch(`${base}/assistants/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ graph_id: "support_tier" }) });
      const assistants = (await found.json()) as Array<{ graph_id: string }>;
      expect(assistants.map((a) => a.graph_id), log).toContain("support_tier");
    } finally {
      server.kill("SIGTERM");
    }
  }, 300_000);
});
