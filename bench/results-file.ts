// Each benchmark owns one section of bench/RESULTS.md, delimited by markers, and rewrites
// only that section — so benches can run separately and the file keeps all results.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";

const FILE = new URL("./RESULTS.md", import.meta.url);

export function machineLine(): string {
  const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
  return `${cpu}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

/** Another checkout (a before/after run) as a reader can find it again: its commit, when it is a git work tree. */
export function checkoutName(dir: string): string {
  const head = spawnSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" });
  return head.status === 0 ? `a build of commit ${head.stdout.trim()}` : dir;
}

export function writeSection(name: string, body: string): void {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  let text = existsSync(FILE) ? readFileSync(FILE, "utf8") : "# Benchmark results\n\nWritten by `npm run bench`; each section names the machine and date it was measured on.\n";
  const re = new RegExp(`${start}[\\s\\S]*?${end}`);
  text = re.test(text) ? text.replace(re, () => section) : `${text.trimEnd()}\n\n${section}\n`; // a function: a `$&` in a section is text
  writeFileSync(FILE, text);
}
