// 10,000 hostile definitions (test/hostile/arbitrary.ts, fixed seed) through every target:
// exported in process, written through the directory and ZIP sinks, and checked by the real
// parsers in one Python process (test/hostile/check_project.py). Prints and records in
// bench/RESULTS.md the counts of syntax errors, non-exact round trips, crashes and paths
// outside the output; a failure prints its seed, replay path and shrunk counterexample.
// Run: npm run bench, or alone: npx tsx bench/hostile.bench.ts (HOSTILE_RUNS, HOSTILE_BENCH_SEED).
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { targetNames } from "../src/targets/index.js";
import { definitionText, hostileDefinition } from "../test/hostile/arbitrary.js";
import { Checker, checkDefinitions, exportEverywhere, findCheckerPython, type Stats } from "../test/hostile/harness.js";
import { machineLine, writeSection } from "./results-file.js";

const SEED = Number(process.env.HOSTILE_BENCH_SEED ?? 7_041_977);
const RUNS = Number(process.env.HOSTILE_RUNS ?? 10_000);

const KINDS = ["syntax errors", "non-exact round trips", "crashes", "paths outside the output", "other problems"] as const;
type Kind = (typeof KINDS)[number];

function kindOf(problem: string): Kind {
  if (/export crashed|writing the project failed|checker crashed/.test(problem)) return "crashes";
  if (/does not parse|not UTF-8/.test(problem)) return "syntax errors";
  if (/outside the output|symlink|tree differs|unsafe archive|archive entries differ|corrupt archive/.test(problem)) return "paths outside the output";
  if (/not recovered|renders differently|byte for byte/.test(problem)) return "non-exact round trips";
  return "other problems";
}

const python = findCheckerPython();
if (!python.ok) throw new Error(python.reason);
const checker = new Checker(python.python);
const work = mkdtempSync(join(tmpdir(), "envelope-hostile-bench-"));
const targets = targetNames();
const counts = Object.fromEntries(targets.map((t) => [t, { definitions: 0, failed: 0, firstFailure: -1, sample: "", ...Object.fromEntries(KINDS.map((k) => [k, 0])) }])) as Record<
  string,
  { definitions: number; failed: number; firstFailure: number; sample: string } & Record<Kind, number>
>;
const totals: Stats = { files: 0, strings: 0, expectations: 0, not_exact: 0, syntax_errors: 0 };
let bytes = 0;

function record(i: number, target: string, problems: string[]): void {
  const c = counts[target]!;
  c.definitions++;
  if (problems.length === 0) return;
  c.failed++;
  if (c.firstFailure < 0) [c.firstFailure, c.sample] = [i, problems[0]!.slice(0, 300)];
  for (const kind of new Set(problems.map(kindOf))) c[kind]++;
}

const start = performance.now();
let index = 0;
// Pipelined: while Python checks definition i, Node exports definition i + 1 (two cores).
let pending: Promise<void> = Promise.resolve();
await fc.check(
  fc.asyncProperty(hostileDefinition, async (definition) => {
    const i = index++;
    const text = definitionText(definition);
    bytes += text.length;
    const dir = join(work, String(i));
    const exported = await Promise.all(targets.map((t) => exportEverywhere(text, join(dir, t), [t]).then((e) => ({ t, e }))));
    await pending;
    pending = checker.check(exported.flatMap(({ e }) => e.manifests)).then((report) => {
      for (const k of Object.keys(totals) as Array<keyof Stats>) totals[k] += report.stats[k];
      for (const { t, e } of exported) {
        const fromPython = report.projects.filter((p) => p.id === t).flatMap((p) => p.problems);
        record(i, t, [...e.problems, ...fromPython]);
      }
      rmSync(dir, { recursive: true, force: true });
    });
    if ((i + 1) % 500 === 0) process.stderr.write(`${i + 1}/${RUNS} definitions, ${((performance.now() - start) / 1000).toFixed(0)} s\n`);
    return true;
  }),
  { seed: SEED, numRuns: RUNS },
);
await pending;
const seconds = (performance.now() - start) / 1000;

const rows = targets.map((t) => {
  const c = counts[t]!;
  return `| ${t} | ${c.definitions} | ${KINDS.map((k) => c[k]).join(" | ")} | ${c.failed} |`;
});
const table = [`| target | definitions | ${KINDS.join(" | ")} | definitions with any problem |`, `|---|---:|${KINDS.map(() => "---:").join("|")}|---:|`, ...rows].join("\n");
const summary = [
  `Seed ${SEED}, ${RUNS} definitions (${(bytes / RUNS / 1024).toFixed(1)} kB on average), every target; ${seconds.toFixed(0)} s in all (${((RUNS * targets.length) / seconds).toFixed(1)} exports checked per second, 1 core + 1 Python process).`,
  `Checked: ${totals.files} generated files parsed, ${totals.strings} strings parsed from them, ${totals.expectations} carried strings looked up.`,
].join("\n");
const failures = targets
  .filter((t) => counts[t]!.firstFailure >= 0)
  .map((t) => `- ${t}: first failure at definition ${counts[t]!.firstFailure} (replay: seed ${SEED}, path "${counts[t]!.firstFailure}"): ${counts[t]!.sample.replace(/\|/g, "\\|").replace(/\n/g, " ")}`);
writeSection(
  "hostile",
  `## Hostile definitions\n\nMachine: ${machineLine()}\n\n${summary}\n\n${table}\n${failures.length ? `\n${failures.join("\n")}\n` : ""}\nThe counts are definitions (a definition with two kinds of problem counts in both). Written by \`bench/hostile.bench.ts\`.`,
);
console.log(`${summary}\n\n${table}`);

// Shrink the first failure of each target to a small counterexample.
for (const t of targets.filter((t) => counts[t]!.firstFailure >= 0)) {
  let run = 0;
  const property = fc.asyncProperty(hostileDefinition, async (definition) => {
    const dir = join(work, `shrink-${t}-${run++}`);
    const { problems } = await checkDefinitions(checker, [{ id: "definition", text: definitionText(definition) }], dir, [t]);
    rmSync(dir, { recursive: true, force: true });
    if (problems.length) throw new Error(problems.slice(0, 5).join("\n"));
  });
  try {
    await fc.assert(property, { seed: SEED, path: String(counts[t]!.firstFailure), interruptAfterTimeLimit: 120_000 });
  } catch (e) {
    console.log(`\n${t}: ${(e as Error).message.slice(0, 4000)}`);
  }
}
checker.close();
rmSync(work, { recursive: true, force: true });
