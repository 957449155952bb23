// `envelope serve` as a real process: it prints its URL, and on SIGTERM stops taking
// connections, finishes the request in flight, and exits 0.
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { EXAMPLE } from "./helpers.js";

/** Resolves with the first match of `re` in what the stream has written so far or writes next. */
function waitFor(stream: NodeJS.ReadableStream, re: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const on = (d: Buffer) => {
      seen += d.toString();
      const m = re.exec(seen);
      if (m) {
        stream.off("data", on);
        resolve(m);
      }
    };
    stream.on("data", on);
    stream.once("end", () => reject(new Error(`stream ended without ${re}: ${seen}`)));
  });
}

describe("envelope serve (a process)", () => {
  it("SIGTERM: no new connections, the request in flight is answered, exit 0", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/run.ts", "serve", "--port", "0", "--workers", "1"], {
      cwd: ROOT,
      env: { ...process.env, ENVELOPE_LOG_LEVEL: "debug", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    try {
      const [, url] = await waitFor(child.stdout, /serving on (http:\/\/127\.0\.0\.1:\d+\/)/);
      const { port } = new URL(url!);
      const incoming = waitFor(child.stderr, /"msg":"incoming"/);
      // A request whose body is still arriving when the signal comes.
      const sock = connect(Number(port), "127.0.0.1");
      const answer = new Promise<string>((resolve) => {
        let data = "";
        sock.on("data", (d) => (data += d.toString()));
        sock.on("close", () => resolve(data));
      });
      await new Promise<void>((r) => sock.once("connect", () => r()));
      const half = Math.floor(EXAMPLE.length / 2);
      sock.write(`POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${EXAMPLE.length}\r\nConnection: close\r\n\r\n`);
      sock.write(EXAMPLE.subarray(0, half));
      await incoming;
      const shuttingDown = waitFor(child.stderr, /shutting down/);
      child.kill("SIGTERM");
      await shuttingDown;
      // No new connections once shutting down.
      const refused = await fetch(`${url}healthz`).then(
        (r) => r.status,
        () => "refused",
      );
      expect(refused).not.toBe(200);
      sock.write(EXAMPLE.subarray(half));
      const response = await answer;
      expect(response, stderr).toMatch(/^HTTP\/1\.1 200/);
      expect(response).toContain('"valid":true');
      expect(await exited).toBe(0);
      expect(stderr).not.toContain("internal error");
    } finally {
      child.kill("SIGKILL");
    }
  }, 30_000);

  it("refuses bad settings with exit 2 and a reason", async () => {
    const { runCli } = await import("../helpers/cli.js");
    const bad = await runCli(["serve", "--port", "http"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--port must be a whole number");
    expect((await runCli(["serve", "--workers", "-1"])).code).toBe(2);
    expect((await runCli(["serve", "file.json"])).code).toBe(2);
    expect((await runCli(["serve", "--target", "crewai"])).code).toBe(2);
    expect((await runCli(["validate", "x.json", "--port", "1"])).stderr).toContain("--port goes with serve");
    const env = await runCli(["serve"], { ENVELOPE_LOG_LEVEL: "loud" });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain("ENVELOPE_LOG_LEVEL");
    const api = await runCli(["serve", "--port", "0"], { GITHUB_API_URL: "http://github.example.com" });
    expect(api.code).toBe(2);
    expect(api.stderr).toContain("GITHUB_API_URL");
  });
});
