// Cold CLI, langgraph-js (issue 40): `envelope export` of the support-tier example with
// `--target langgraph-js --out DIR` as a ratio to `node -e 0` in the same round (goal ≤ 3×),
// beside the other targets' export and the two loads this target alone pays for, each in a
// bare process: ts-morph (the TypeScript compiler inside it) and prettier's first TypeScript
// format (its parser and printer plugins). Rounds interleave the commands, so load that comes
// and goes hits them all alike; figures are medians over rounds. Runs the built CLI.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./stats.js";
import { machineLine, writeSection } from "./results-file.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const ROUNDS = Number(process.env.BENCH_LGJS_ROUNDS ?? 9);
const EXAMPLE = join(ROOT, "examples/support-tier.envelope.json");
const BIN = join(ROOT, "bin/envelope.js");
const scratch = mkdtempSync(join(tmpdir(), "lgjs-bench-"));
const node = process.execPath;
const inRoot = (code: string) => [node, "--input-type=module", "-e", `import { createRequire } from "node:module"; const require = createRequire(${JSON.stringify(join(ROOT, "package.json"))}); ${code}`];

interface Command {
  label: string;
  argv: (r: number) => string[];
  goal?: number;
  env?: Record<string, string>;
}
const COMMANDS: Command[] = [
  { label: "`node -e 0`", argv: () => [node, "-e", "0"] },
  { label: "`envelope export` example `--target langgraph-js --out DIR`", argv: (r) => [node, BIN, "export", EXAMPLE, "--target", "langgraph-js", "--out", join(scratch, `lgjs-${r}`)], goal: 3 },
  { label: "the same without ts-morph's code cache (`ENVELOPE_TS_MORPH_CACHE=off`)", argv: (r) => [node, BIN, "export", EXAMPLE, "--target", "langgraph-js", "--out", join(scratch, `lgjs-nocache-${r}`)], env: { ENVELOPE_TS_MORPH_CACHE: "off" } },
  { label: "`envelope export` example `--target langgraph --out DIR` (for scale)", argv: (r) => [node, BIN, "export", EXAMPLE, "--target", "langgraph", "--out", join(scratch, `lg-${r}`)] },
  { label: "a bare process: `require(\"ts-morph\")`", argv: () => inRoot(`require("ts-morph");`) },
  { label: "a bare process: prettier's first TypeScript format", argv: () => inRoot(`await require("prettier").format("const x = 1", { parser: "typescript" });`) },
];

function run(c: Command, r: number): number {
  const [file, ...args] = c.argv(r);
  const start = process.hrtime.bigint();
  const result = spawnSync(file!, args, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...c.env } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${c.label} exited ${result.status}: ${result.stderr}`);
  return ms;
}

const loadBefore = loadavg()[0]!.toFixed(2);
for (const c of COMMANDS) run(c, -1); // warm-up: the file cache, not the processes
const times = COMMANDS.map(() => [] as number[]);
const ratios = COMMANDS.map(() => [] as number[]);
for (let r = 0; r < ROUNDS; r++) {
  const round = COMMANDS.map((c) => run(c, r));
  round.forEach((ms, i) => {
    times[i]!.push(ms);
    ratios[i]!.push(ms / round[0]!);
  });
  console.log(`round ${r + 1}/${ROUNDS}: ${round.map((ms) => ms.toFixed(0)).join(" / ")} ms`);
}
const loadAfter = loadavg()[0]!.toFixed(2);
const rows = COMMANDS.map((c, i) => {
  const ratio = median(ratios[i]!);
  const verdict = c.goal === undefined ? "" : ratio <= c.goal ? `≤ ${c.goal}×: met` : `≤ ${c.goal}×: **not met**`;
  return `| ${c.label} | ${median(times[i]!).toFixed(0)} ms | ${Math.min(...times[i]!).toFixed(0)} ms | ${ratio.toFixed(2)}× | ${verdict} |`;
});

writeSection(
  "langgraph-js",
  `## Cold CLI, langgraph-js (issue 40)

Machine: ${machineLine()}; load average ${loadBefore} when the bench started and ${loadAfter} when it ended.

${ROUNDS} rounds, each command once per round in this order, each a new process (spawn to
exit); the ratio is to \`node -e 0\` in the same round; medians over rounds.

| command | median | fastest | ratio to \`node -e 0\` | goal |
|---|---:|---:|---:|---|
${rows.join("\n")}`,
);
rmSync(scratch, { recursive: true, force: true });
