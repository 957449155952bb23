// Scale (issue 18): teams of 10, 100 and 1,000 agents (bench/variants.ts bigTeam: a 10-ary
// hierarchy, each agent with its own access policy), exported
//  - cold, whole process: `envelope export FILE --target T --out DIR` (the built CLI), the
//    goal being ≤ 1 s for 1,000 agents;
//  - warm, in this process: exportDefinition() after a warm-up, for the growth alone;
// and the fitted exponent k of time ≈ c·n^k over the three sizes (1 is linear).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { exportDefinition } from "../src/export/export.js";
import { forgetFormatted } from "../src/export/format/python.js";
import { TARGETS } from "../src/targets/index.js";
import { machineLine, writeSection } from "./results-file.js";
import { fitExponent, median } from "./stats.js";
import { bigTeam } from "./variants.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SIZES = [10, 100, 1000];
const RUNS = Number(process.env.BENCH_SCALE_RUNS ?? 5);
const scratch = mkdtempSync(join(tmpdir(), "scale-bench-"));
const loadBefore = loadavg()[0]!.toFixed(2);

interface Cold {
  ms: number;
  files: number;
  /** The same files written again by a bare loop: what the file system alone costs. */
  writeMs: number;
}

function coldRun(file: string, target: string, r: number): Cold {
  const start = process.hrtime.bigint();
  const out = join(scratch, `${target}-${r}`);
  const result = spawnSync(process.execPath, [join(ROOT, "bin/envelope.js"), "export", file, "--target", target, "--out", out], { stdio: ["ignore", "ignore", "pipe"] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`export of ${file} exited ${result.status}: ${result.stderr}`);
  const files = (readdirSync(out, { recursive: true, withFileTypes: true }) as Array<{ name: string; parentPath: string; isFile(): boolean }>)
    .filter((e) => e.isFile())
    .map((e) => ({ path: relative(out, join(e.parentPath, e.name)), bytes: readFileSync(join(e.parentPath, e.name)) }));
  const copy = `${out}-copy`;
  const writeStart = process.hrtime.bigint();
  for (const f of files) {
    mkdirSync(dirname(join(copy, f.path)), { recursive: true });
    writeFileSync(join(copy, f.path), f.bytes, { flag: "wx" });
  }
  const writeMs = Number(process.hrtime.bigint() - writeStart) / 1e6;
  rmSync(out, { recursive: true, force: true });
  rmSync(copy, { recursive: true, force: true });
  return { ms, files: files.length, writeMs };
}

function warmMs(text: string, target: string): number {
  const t = TARGETS[target]!;
  const once = () => {
    const start = performance.now();
    const r = exportDefinition(text, t);
    if (!r.ok) throw new Error(`export failed: ${JSON.stringify(r.diagnostics.slice(0, 3))}`);
    return performance.now() - start;
  };
  once(); // warm-up: JIT and the run-time template compile (this process runs src/)
  // The formatter's cache of earlier texts is emptied before each run: the prompts go to
  // YAML and text files, so every run's Python modules would otherwise be the cache's, up to
  // the size it keeps (which a 1,000-agent team's modules pass: the growth would be the cache's).
  return median(Array.from({ length: RUNS }, () => {
    forgetFormatted();
    return once();
  }));
}

const rows: string[] = [];
const fits: string[] = [];
let run = 0;
for (const target of Object.keys(TARGETS)) {
  const cold: Array<{ n: number; ms: number }> = [];
  const warm: Array<{ n: number; ms: number }> = [];
  for (const n of SIZES) {
    const text = bigTeam(n);
    const file = join(scratch, `team-${n}.envelope.json`);
    writeFileSync(file, text);
    const runs = Array.from({ length: RUNS }, () => coldRun(file, target, run++));
    const c = median(runs.map((x) => x.ms));
    const w = warmMs(text, target);
    cold.push({ n, ms: c });
    warm.push({ n, ms: w });
    const goal = n === 1000 ? (c <= 1000 ? " (goal ≤ 1 s: met)" : " (goal ≤ 1 s: **not met**)") : "";
    rows.push(`| ${target} | ${n} | ${Math.round(text.length / 1024)} kB | ${c.toFixed(0)} ms${goal} | ${runs[0]!.files} | ${median(runs.map((x) => x.writeMs)).toFixed(0)} ms | ${w.toFixed(1)} ms |`);
    console.log(rows.at(-1));
  }
  // The fit over three sizes is pulled under 1 by each export's fixed part; 100 → 1,000 shows the growth itself.
  const step = fitExponent(warm.slice(1));
  fits.push(`${target}: k = ${fitExponent(warm).toFixed(2)} warm in-process (${step.toFixed(2)} from 100 to 1,000 agents), ${fitExponent(cold).toFixed(2)} cold whole process (startup, a constant, flattens it)`);
}
rmSync(scratch, { recursive: true, force: true });

writeSection(
  "scale",
  `## Scale: 10, 100, 1,000 agents

Machine: ${machineLine()}; load average ${loadBefore} when the bench started and ${loadavg()[0]!.toFixed(2)} when it ended.

Cold: the built CLI, \`envelope export FILE --target T --out DIR\`, whole process, median of
${RUNS}. Warm: exportDefinition() in the bench process after one warm-up, median of ${RUNS}
(the formatter's cache emptied before each, so every module is formatted). "Writing the files": the
exported files written again, after each cold run, by a bare loop of mkdir and writeFileSync
(median): the file system's own share of the cold export, which no change to the exporter
removes.

| target | agents | definition | cold export | files | writing the files | warm export |
|---|---:|---:|---:|---:|---:|---:|
${rows.join("\n")}

Fitted exponent of time ≈ c·n^k over 10 / 100 / 1,000 agents:
${fits.map((f) => `- ${f}`).join("\n")}`,
);
