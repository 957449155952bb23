// Cold CLI, langgraph-js (issue 40): `envelope export` of the support-tier example with
// `--target langgraph-js --out DIR` as a ratio to `node -e 0` in the same round (goal ≤ 3×),
// beside the other targets' export and the two loads this target alone pays for, each in a
// bare process: ts-morph (the TypeScript compiler inside it) and prettier's first TypeScript
// format (its parser and printer plugins), and the export's formatting alone: the files an
// export of the example hands prettier, through the export's own formatAll (its worker and
// code caches), in a process that does nothing else, the floor of any export that formats with
// prettier as this one does. Rounds interleave the commands, so load that comes and goes hits
// them all alike; figures are medians over rounds. Runs the built CLI. Each command's CPU time
// (user + system, every thread: GNU time's, when /usr/bin/time exists) gives a floor no
// scheduling can beat: on N cores a process that needs C seconds of CPU takes at least C / N;
// unlike wall time, it hardly moves with other processes' load.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median } from "./stats.js";
import { machineLine, writeSection } from "./results-file.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const ROUNDS = Number(process.env.BENCH_LGJS_ROUNDS ?? 9);
const EXAMPLE = join(ROOT, "examples/support-tier.envelope.json");
const BIN = join(ROOT, "bin/envelope.js");
const scratch = mkdtempSync(join(tmpdir(), "lgjs-bench-"));
const node = process.execPath;
const exportArgv = (target: string, out: string) => [node, BIN, "export", EXAMPLE, "--target", target, "--out", out];
const inRoot = (code: string) => [node, "--input-type=module", "-e", `import { createRequire } from "node:module"; const require = createRequire(${JSON.stringify(join(ROOT, "package.json"))}); ${code}`];

// What an export of the example formats with prettier (index.ts's jobs: the TypeScript files
// ts-morph builds, package.json and langgraph.json), taken from one export made here first;
// formatting the formatted text is the same parse and print.
const REFERENCE = join(scratch, "reference");
function formatJobs(): string {
  const ts = ["src", "tests"].flatMap((dir) => readdirSync(join(REFERENCE, dir)).filter((f) => f.endsWith(".ts")).map((f) => ({ path: `${dir}/${f}`, parser: "typescript" })));
  const jobs = [...ts, { path: "package.json", parser: "json-stringify" }, { path: "langgraph.json", parser: "json" }];
  return JSON.stringify(jobs.map((j) => ({ ...j, text: readFileSync(join(REFERENCE, j.path), "utf8") })));
}
const distUrl = (file: string) => JSON.stringify(pathToFileURL(join(ROOT, "dist", file)).href);
// The export's flags first (V8 takes the code caches only under them), as an export sets them.
// CommonJS -e: the worker takes its parent's execArgv, and `--input-type=module` would make its
// CommonJS source a module.
const formattingAlone = () => [
  node,
  "-e",
  `import(${distUrl("cli/commands.js")}).then((c) => { c.baselineWasmOnly(); return import(${distUrl("targets/langgraph-js/format.js")}); }).then((f) => f.formatAll(${formatJobs()}));`,
];

interface Command {
  label: string;
  argv: (r: number) => string[];
  goal?: number;
  env?: Record<string, string>;
}
const COMMANDS: Command[] = [
  { label: "`node -e 0`", argv: () => [node, "-e", "0"] },
  { label: "`envelope export` example `--target langgraph-js --out DIR`", argv: (r) => exportArgv("langgraph-js", join(scratch, `lgjs-${r}`)), goal: 3 },
  { label: "the same without ts-morph's code cache (`ENVELOPE_TS_MORPH_CACHE=off`)", argv: (r) => exportArgv("langgraph-js", join(scratch, `lgjs-nocache-${r}`)), env: { ENVELOPE_TS_MORPH_CACHE: "off" } },
  { label: "`envelope export` example `--target langgraph --out DIR` (for scale)", argv: (r) => exportArgv("langgraph", join(scratch, `lg-${r}`)) },
  { label: "a bare process: `require(\"ts-morph\")`", argv: () => inRoot(`require("ts-morph");`) },
  { label: "a bare process: prettier's first TypeScript format", argv: () => inRoot(`await require("prettier").format("const x = 1", { parser: "typescript" });`) },
  { label: "a bare process: the export's formatting alone (the example's TypeScript and JSON files through `formatAll`)", argv: formattingAlone },
];

const TIME = "/usr/bin/time";
const timed = existsSync(TIME);
const cpuFile = join(scratch, "cpu.txt");
const cores = availableParallelism();

/** Wall milliseconds, and CPU milliseconds (user + system) when GNU time is there (else NaN). */
function run(c: Command, r: number): { ms: number; cpu: number } {
  const argv = c.argv(r);
  const [file, ...args] = timed ? [TIME, "-f", "%U %S", "-o", cpuFile, ...argv] : argv;
  const start = process.hrtime.bigint();
  const result = spawnSync(file!, args, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...c.env } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${c.label} exited ${result.status}: ${result.stderr}`);
  const cpu = timed ? readFileSync(cpuFile, "utf8").trim().split(/\s+/).reduce((a, t) => a + Number(t) * 1000, 0) : NaN;
  return { ms, cpu };
}

run({ label: "the reference export", argv: () => exportArgv("langgraph-js", REFERENCE) }, -1);
const loadBefore = loadavg()[0]!.toFixed(2);
for (const c of COMMANDS) run(c, -1); // warm-up: the file cache, not the processes
const times = COMMANDS.map(() => [] as number[]);
const ratios = COMMANDS.map(() => [] as number[]);
const cpus = COMMANDS.map(() => [] as number[]);
const floors = COMMANDS.map(() => [] as number[]);
for (let r = 0; r < ROUNDS; r++) {
  const round = COMMANDS.map((c) => run(c, r));
  round.forEach(({ ms, cpu }, i) => {
    times[i]!.push(ms);
    ratios[i]!.push(ms / round[0]!.ms);
    cpus[i]!.push(cpu);
    floors[i]!.push(cpu / cores / round[0]!.cpu);
  });
  console.log(`round ${r + 1}/${ROUNDS}: ${round.map(({ ms }) => ms.toFixed(0)).join(" / ")} ms`);
}
const loadAfter = loadavg()[0]!.toFixed(2);
const rows = COMMANDS.map((c, i) => {
  const ratio = median(ratios[i]!);
  const verdict = c.goal === undefined ? "" : ratio <= c.goal ? `≤ ${c.goal}×: met` : `≤ ${c.goal}×: **not met**`;
  const cpu = timed ? `${median(cpus[i]!).toFixed(0)} ms | ${median(floors[i]!).toFixed(2)}×` : "— | —";
  return `| ${c.label} | ${median(times[i]!).toFixed(0)} ms | ${Math.min(...times[i]!).toFixed(0)} ms | ${ratio.toFixed(2)}× | ${cpu} | ${verdict} |`;
});

writeSection(
  "langgraph-js",
  `## Cold CLI, langgraph-js (issue 40)

Machine: ${machineLine()}; load average ${loadBefore} when the bench started and ${loadAfter} when it ended.

${ROUNDS} rounds, each command once per round in this order, each a new process (spawn to
exit); the ratio is to \`node -e 0\` in the same round; medians over rounds. CPU: user +
system time of every thread of the process (GNU time); floor: that CPU time spread over this
machine's ${cores} cores, the least wall time any scheduling could give, as a ratio to \`node -e 0\`'s
CPU time in the same round (one thread that never waits: its wall time on an idle machine,
and unlike wall time, hardly moved by other processes' load). A command whose floor is over
its goal cannot meet it on this machine by running more in parallel, only by doing less work.

| command | median | fastest | ratio to \`node -e 0\` | CPU, median | floor (CPU ÷ ${cores} cores) | goal |
|---|---:|---:|---:|---:|---:|---|
${rows.join("\n")}`,
);
rmSync(scratch, { recursive: true, force: true });
