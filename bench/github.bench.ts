// API cost of publishing to GitHub: requests and write requests per publish for projects of
// 10, 100 and 500 files (and the support-tier CrewAI export), against the contract-checked
// fake GitHub of the test suite. The goal is a constant handful of calls, not one per file:
// text files travel inline in the tree request, and only the tree is chunked (≤ 100
// entries or 1 MB of content per request). Results go to bench/RESULTS.md.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { exportDefinition, FileSet, publishToGitHub, TARGETS } from "../src/index.js";
import { start, TOKEN } from "../test/github/fake/index.js";
import { machineLine, writeSection } from "./results-file.js";

function project(count: number): FileSet {
  const files = new FileSet();
  for (let i = 0; i < count; i++) files.add(`src/pkg/mod_${i % 20}/file_${String(i).padStart(4, "0")}.py`, `"""Module ${i}."""\n\nVALUE = ${i}\n` + "# padding\n".repeat(40));
  files.add("assets/logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])); // one binary file
  return files;
}

const example = readFileSync(new URL("../examples/support-tier.envelope.json", import.meta.url));
const cases: Array<[string, FileSet]> = [
  ["10 files + 1 binary", project(10)],
  ["100 files + 1 binary", project(100)],
  ["500 files + 1 binary", project(500)],
  ["support-tier CrewAI export", exportDefinition(example, TARGETS.crewai!).files!],
];

// Warm-up: the fake compiles its OpenAPI validators on first use.
{
  const gh = await start();
  await publishToGitHub(project(1), { repository: "me/warm-up", token: TOKEN, apiUrl: gh.url, timing: { delayScale: 0 } });
  await gh.close();
}

const rows: string[] = [];
for (const [label, files] of cases) {
  const gh = await start();
  try {
    const t0 = performance.now();
    const result = await publishToGitHub(files, { repository: "me/bench", token: TOKEN, apiUrl: gh.url, timing: { delayScale: 0 } });
    const ms = performance.now() - t0;
    if (gh.violations.length) throw new Error(`contract violations: ${gh.violations.join("; ")}`);
    const sent = gh.requests.reduce((n, r) => n + (r.body === undefined ? 0 : JSON.stringify(r.body).length), 0);
    const byOp = new Map<string, number>();
    for (const r of gh.requests) byOp.set(r.operationId ?? "?", (byOp.get(r.operationId ?? "?") ?? 0) + 1);
    rows.push(
      `| ${label} | ${files.size} | ${(files.totalBytes() / 1024).toFixed(0)} KiB | ${result.requests.total} | ${result.requests.writes} | ${result.trees} | ${result.blobs} | ${(sent / 1024).toFixed(0)} KiB | ${ms.toFixed(0)} ms |`,
    );
  } finally {
    await gh.close();
  }
}

const table = [
  "| project | files | size | API requests | write requests | tree requests | blob requests | request bodies | time against the fake |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...rows,
].join("\n");
writeSection(
  "github",
  `## Publish to GitHub (API calls per publish)

Machine: ${machineLine()}

${table}

Requests per publish: 4 reads (owner, token's account for a user owner, name check, branch
readiness) and the writes: create, one blob per binary or large file, one tree request per
100 entries (or 1 MB of inline content), one commit, one ref update. The time column is the
fake's own git plumbing, not a measure of GitHub's latency.`,
);
console.log(table);
