// Runs the CLI in-process with captured streams, or as a real process through bin/.
import { spawnSync } from "node:child_process";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { main } from "../../src/cli/main.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

class Capture extends Writable {
  text = "";
  isTTY = false;
  override _write(chunk: Buffer, _enc: string, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(args, { stdout, stderr, env });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

export function runBin(args: string[], input?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [ROOT + "bin/envelope.js", ...args], { input, encoding: "utf8", cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
