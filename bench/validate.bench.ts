// Validate + normalize throughput on the support-tier example, and one 1000-agent team.
// Run: npm run bench. Results go to bench/RESULTS.md (never asserted in tests).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { normalize } from "../src/index.js";
import { machineLine, writeSection } from "./results-file.js";
import { bigTeam } from "./variants.js";

function measure(label: string, input: string, minMs: number): { label: string; runs: number; perSecond: number; meanMs: number } {
  normalize(input); // warm up: schema compile, JIT
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    const r = normalize(input);
    if (!r.valid) throw new Error(`${label} is not valid`);
    runs++;
  }
  const elapsed = performance.now() - start;
  return { label, runs, perSecond: (runs / elapsed) * 1000, meanMs: elapsed / runs };
}

const example = readFileSync(new URL("../examples/support-tier.envelope.json", import.meta.url), "utf8");
const big = bigTeam(1000);
const rows = [measure("support-tier (3 agents, 7.6 kB)", example, 3000), measure(`1000 agents (${Math.round(big.length / 1024)} kB)`, big, 5000)];
const peakRssMb = process.resourceUsage().maxRSS / 1024;

const table = [
  "| definition | runs | validate+normalize per second | mean |",
  "|---|---:|---:|---:|",
  ...rows.map((r) => `| ${r.label} | ${r.runs} | ${r.perSecond.toFixed(0)} | ${r.meanMs.toFixed(2)} ms |`),
].join("\n");
writeSection(
  "validate",
  `## Validate + normalize\n\nMachine: ${machineLine()}\n\n${table}\n\nPeak RSS of the bench process: ${peakRssMb.toFixed(0)} MiB.`,
);
console.log(table);
