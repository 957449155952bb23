// Export throughput in process (no disk, no zip): validate + normalize + loss report + render
// + format, per target, for the support-tier example (3 agents) as it is, exported again and
// again (formatted Python modules are then reused), and for a new team each time (variants
// that differ in every generated module: nothing reused). Results go to bench/RESULTS.md.
import { performance } from "node:perf_hooks";
import { exportDefinition, TARGETS } from "../src/index.js";
import { machineLine, writeSection } from "./results-file.js";
import { example, newTeam } from "./variants.js";

const SECONDS = 5;
const inputs: Array<[string, (i: number) => string]> = [
  ["support-tier, the same each time", () => example()],
  ["support-tier, a new team each time", newTeam],
];
const rows: string[] = [];
for (const name of Object.keys(TARGETS)) {
  const target = TARGETS[name]!;
  for (const [label, body] of inputs) {
    const bodies = Array.from({ length: 5000 }, (_, i) => new TextEncoder().encode(body(i)));
    for (let i = 0; i < 200; i++) exportDefinition(bodies[bodies.length - 1 - i]!, target); // warm-up: JIT, templates, WASM formatter
    let runs = 0;
    const start = performance.now();
    while (performance.now() - start < SECONDS * 1000) {
      if (!exportDefinition(bodies[runs % bodies.length]!, target).ok) throw new Error("export failed");
      runs++;
    }
    const elapsed = performance.now() - start;
    rows.push(`| ${name} | ${label} | ${runs} | ${((runs / elapsed) * 1000).toFixed(0)} | ${(elapsed / runs).toFixed(2)} ms |`);
    console.log(rows.at(-1));
  }
}
const table = ["| target | definition | runs | exports per second (1 core) | mean |", "|---|---|---:|---:|---:|", ...rows].join("\n");
writeSection("export", `## Export (in memory)\n\nMachine: ${machineLine()}\n\n${table}\n\nPeak RSS of the bench process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB.`);
