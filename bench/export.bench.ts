// Export throughput: validate + normalize + render + format the CrewAI project in-process
// (no disk), for the support-tier example. Results go to bench/RESULTS.md.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { exportDefinition, TARGETS } from "../src/index.js";
import { machineLine, writeSection } from "./results-file.js";

const example = readFileSync(new URL("../examples/support-tier.envelope.json", import.meta.url));
const rows: string[] = [];
for (const name of Object.keys(TARGETS)) {
  const target = TARGETS[name]!;
  exportDefinition(example, target); // warm up: templates compiled once, WASM formatter loaded
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < 5000) {
    if (!exportDefinition(example, target).ok) throw new Error("export failed");
    runs++;
  }
  const elapsed = performance.now() - start;
  rows.push(`| ${name} | support-tier | ${runs} | ${((runs / elapsed) * 1000).toFixed(1)} | ${(elapsed / runs).toFixed(1)} ms |`);
}
const table = ["| target | definition | runs | exports per second (1 core) | mean |", "|---|---|---:|---:|---:|", ...rows].join("\n");
writeSection("export", `## Export (in memory)\n\nMachine: ${machineLine()}\n\n${table}\n\nPeak RSS of the bench process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB.`);
console.log(table);
