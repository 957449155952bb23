// Cold CLI, whole process (issue 18): `envelope --version`, `validate` and `export --out` of
// the support-tier example for both targets, each as a ratio to `node -e 0` measured in the
// same round, and CrewAI's own scaffold (`crewai create crew NAME --classic --skip-provider`)
// as the anchor. Rounds interleave the commands, so load that comes and goes on the machine
// hits them all alike; the figure is the median over rounds. Peak RSS comes from separate
// runs under /usr/bin/time (when installed), so its fork does not count in the timings.
// Runs the built CLI (bin/envelope.js → dist/): `npm run bench` builds first.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureEnv, findPython } from "../test/e2e/python-env.js";
import { median } from "./stats.js";
import { checkoutName, machineLine, writeSection } from "./results-file.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 11);
const EXAMPLE = join(ROOT, "examples/support-tier.envelope.json");
const BIN = join(ROOT, "bin/envelope.js");
const scratch = mkdtempSync(join(tmpdir(), "cli-bench-"));

// CrewAI's CLI sends telemetry; without a network it waits seconds for it. Off, the anchor
// measures the scaffold's own work (the ≈ 330 ms of the issue), not a network timeout.
const CREWAI_ENV = { ...process.env, OTEL_SDK_DISABLED: "true", CREWAI_DISABLE_TELEMETRY: "true", CREWAI_TRACING_ENABLED: "false" };

interface Command {
  label: string;
  /** argv for round `r` (fresh output names each time: every export writes a new directory). */
  argv: (r: number) => string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The goal, as a ratio to `node -e 0`. */
  goal?: number;
}

function crewaiAnchor(): Command | string {
  const python = findPython();
  if (!python.ok) return `no anchor: ${python.reason}`;
  try {
    const env = ensureEnv("crewai", python.python);
    const cwd = join(scratch, "crewai");
    mkdirSync(cwd);
    return { label: "`crewai create crew NAME --classic --skip-provider` (anchor)", argv: (r) => [join(env.bin, "crewai"), "create", "crew", `bench_${r}`, "--classic", "--skip-provider"], cwd, env: CREWAI_ENV };
  } catch (e) {
    return `no anchor: ${(e as Error).message}`;
  }
}

const node = process.execPath;
const COMMANDS: Command[] = [
  { label: "`node -e 0`", argv: () => [node, "-e", "0"] },
  { label: "`envelope --version`", argv: () => [node, BIN, "--version"], goal: 1.3 },
  { label: "`envelope validate` example", argv: () => [node, BIN, "validate", EXAMPLE], goal: 2 },
  { label: "`envelope export` example `--target crewai --out DIR`", argv: (r) => [node, BIN, "export", EXAMPLE, "--target", "crewai", "--out", join(scratch, `crewai-${r}`)], goal: 2.5 },
  { label: "`envelope export` example `--target langgraph --out DIR`", argv: (r) => [node, BIN, "export", EXAMPLE, "--target", "langgraph", "--out", join(scratch, `langgraph-${r}`)], goal: 2.5 },
];
// BENCH_CLI_COMPARE=DIR: a built checkout of another commit, measured in the same rounds
// (a before/after comparison under the same load; `npm run bench` leaves it unset).
const other = process.env.BENCH_CLI_COMPARE;
if (other) {
  const bin = join(other, "bin/envelope.js");
  COMMANDS.push(
    { label: "other checkout: `envelope --version`", argv: () => [node, bin, "--version"] },
    { label: "other checkout: `envelope validate` example", argv: () => [node, bin, "validate", EXAMPLE] },
    { label: "other checkout: `envelope export` example `--target crewai --out DIR`", argv: (r) => [node, bin, "export", EXAMPLE, "--target", "crewai", "--out", join(scratch, `other-crewai-${r}`)] },
    { label: "other checkout: `envelope export` example `--target langgraph --out DIR`", argv: (r) => [node, bin, "export", EXAMPLE, "--target", "langgraph", "--out", join(scratch, `other-langgraph-${r}`)] },
  );
}
const anchor = crewaiAnchor();
if (typeof anchor !== "string") COMMANDS.push(anchor);

function run(c: Command, r: number): number {
  const [file, ...args] = c.argv(r);
  const start = process.hrtime.bigint();
  const result = spawnSync(file!, args, { cwd: c.cwd ?? ROOT, env: c.env ?? process.env, stdio: ["ignore", "ignore", "pipe"] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${c.label} exited ${result.status}: ${result.stderr}`);
  return ms;
}

const TIME = "/usr/bin/time";
function peakRssMiB(c: Command, r: number): number | undefined {
  if (!existsSync(TIME)) return undefined;
  const [file, ...args] = c.argv(r);
  const result = spawnSync(TIME, ["-f", "%M", file!, ...args], { cwd: c.cwd ?? ROOT, env: c.env ?? process.env, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
  const kb = Number(result.stderr.trim().split("\n").at(-1));
  return Number.isFinite(kb) ? Math.round(kb / 1024) : undefined;
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
const rss = COMMANDS.map((c, i) => median([0, 1, 2].map((k) => peakRssMiB(c, 1000 + i * 10 + k)).filter((x): x is number => x !== undefined)));
const loadAfter = loadavg()[0]!.toFixed(2);

const rows = COMMANDS.map((c, i) => {
  const ratio = median(ratios[i]!);
  const verdict = c.goal === undefined ? "" : ratio <= c.goal ? `≤ ${c.goal}×: met` : `≤ ${c.goal}×: **not met**`;
  return `| ${c.label} | ${median(times[i]!).toFixed(0)} ms | ${Math.min(...times[i]!).toFixed(0)} ms | ${ratio.toFixed(2)}× | ${verdict} | ${Number.isNaN(rss[i]) ? "–" : `${rss[i]} MiB`} |`;
});

const exportIdx = COMMANDS.findIndex((c) => c.label.includes("crewai --out"));
let anchorLine: string;
if (typeof anchor === "string") anchorLine = `Anchor: ${anchor}.`;
else {
  const a = COMMANDS.indexOf(anchor);
  const speedup = median(times[a]!.map((ms, r) => ms / times[exportIdx]![r]!));
  anchorLine = `Anchor: \`crewai create crew\` takes ${speedup.toFixed(2)}× as long as our \`export --target crewai --out\` (median over rounds of the ratio in each round; goal ≥ 10×: ${speedup >= 10 ? "met" : "**not met**"}).`;
}

writeSection(
  other ? "cli-compare" : "cli",
  `## Cold CLI (whole process)${other ? ": before and after, same rounds" : ""}

Machine: ${machineLine()}; load average ${loadBefore} when the bench started and ${loadAfter} when it ended.

${ROUNDS} rounds; each round runs every command once, in this order, each a new process
started and awaited by the bench (spawn to exit); the ratio is to \`node -e 0\` in the same
round, and the table gives medians over rounds. Exports write a new directory each time.
Peak RSS: median of 3 more runs under /usr/bin/time (maximum resident set size).
CrewAI's telemetry is switched off for the anchor (OTEL_SDK_DISABLED, CREWAI_DISABLE_TELEMETRY):
with it on and no network, \`crewai create\` waits ~10 s for it.

| command | median | fastest | ratio to \`node -e 0\` | goal | peak RSS |
|---|---:|---:|---:|---|---:|
${rows.join("\n")}

${anchorLine}${other ? `\n\n"other checkout" rows: ${checkoutName(other)}, measured in the same rounds.` : ""}`,
);
rmSync(scratch, { recursive: true, force: true });
