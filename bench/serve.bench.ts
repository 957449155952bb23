// `envelope serve` under load: zip exports of the support-tier example (3 agents) per second
// and p99 latency at 1, 16 and 64 concurrent connections, and the server's peak RSS. One
// server, started as a person would (a separate process, default settings), and three inputs:
//   - a new team per request: variants of the example that differ in every generated module
//     (names, slug, version, input and output names, prompts), so nothing an export makes can
//     be reused: validate, normalize, render, format and zip, all of it, every time;
//   - one team edited: the example with one prompt changed per request, as the page previews
//     after each pause in typing: the answer differs, the formatted Python modules repeat;
//   - repeated input: the same definition again, answered from the answer cache.
// The load generator is wrk when it is installed (apt-get install wrk: a C client that needs
// little CPU), else autocannon (JavaScript: on 2 cores it, not the server, is the limit of
// the repeated-input rows). It runs on the same machine and takes CPU from the server, so
// the figures are a floor for a dedicated host. Results go to bench/RESULTS.md.
// BENCH_SERVE_ONLY="label|label": only those inputs' rows (e.g. "a new team per request");
// BENCH_SERVE_SECTION=NAME: the section of RESULTS.md to write (default serve, or serve-compare
// with BENCH_SERVE_COMPARE), so a before/after of one change keeps the earlier ones.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { exportDefinition, type ExportOptions } from "../src/export/export.js";
import { writeZip } from "../src/export/sinks/zip.js";
import { TARGETS } from "../src/targets/index.js";
import { checkoutName, machineLine, writeSection } from "./results-file.js";
import { editedTeam, example, MARK, newTeam } from "./variants.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DURATION_S = Number(process.env.BENCH_SERVE_SECONDS ?? 8);
const CONNECTIONS = [1, 16, 64];

interface Server {
  child: ChildProcess;
  url: string;
  workers: number;
}

async function startServer(env: Record<string, string>, root = ROOT): Promise<Server> {
  // The built CLI, as installed: precompiled templates and the standalone validator (`npm run bench` builds first).
  const child = spawn(process.execPath, ["bin/envelope.js", "serve", "--port", "0"], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "ignore"], // request logs (one JSON line each) are written, to nowhere
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out);
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  const url = /serving on (\S+)/.exec(line)?.[1];
  const workers = Number(/\((\d+) workers?\)/.exec(line)?.[1] ?? 0);
  if (!url) throw new Error(`no URL in ${line}`);
  return { child, url, workers };
}

// CPU shares of a row (Linux /proc): the server's own (its process, every thread) and the rest
// of the machine's busy time, which is the load generator and whatever else runs here.
const TICKS_PER_S = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();
interface CpuMark {
  wallS: number;
  serverS: number;
  machineS: number;
}
function cpuMark(pid: number): CpuMark | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // from field 3 (state) on
    const [user, nice, system, , , irq, softirq] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { wallS: performance.now() / 1000, serverS: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S, machineS: (user! + nice! + system! + irq! + softirq!) / TICKS_PER_S };
  } catch {
    return undefined;
  }
}
/** Cores used between two marks: the server's, and everything else's. */
function shares(a: CpuMark | undefined, b: CpuMark | undefined): string {
  if (!a || !b) return "– | –";
  const wall = b.wallS - a.wallS;
  const server = (b.serverS - a.serverS) / wall;
  return `${server.toFixed(2)} | ${Math.max(0, (b.machineS - a.machineS) / wall - server).toFixed(2)}`;
}

function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  bad: number;
}

function hasWrk(): boolean {
  if (process.env.BENCH_CLIENT === "autocannon") return false;
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (e) {
    return (e as { status?: number }).status === 1; // wrk --version exits 1 after printing
  }
}

interface Input {
  label: string;
  /** The body; MARK in it becomes the request's number, so no two requests send the same. */
  template: string;
  /** The number the next request gets: each load run continues where the last stopped. */
  next: number;
  /** The answer asked for: the project as a zip, or the JSON preview the page shows. */
  accept: "application/zip" | "application/json";
}

const ALL_INPUTS: Input[] = [
  { label: "a new team per request", template: newTeam(MARK), next: 0, accept: "application/zip" },
  // Numbered far from the zip rows' teams: no worker has formatted these modules before.
  { label: "a new team per request, JSON answer", template: newTeam(MARK), next: 50_000_000, accept: "application/json" },
  { label: "one team, a prompt edited per request", template: editedTeam(MARK), next: 0, accept: "application/zip" },
  { label: "repeated input (answer cache)", template: example(), next: 0, accept: "application/zip" },
];

const ONLY = process.env.BENCH_SERVE_ONLY?.split("|");
const INPUTS = ALL_INPUTS.filter((i) => !ONLY || ONLY.includes(i.label));
if (!INPUTS.length) throw new Error(`BENCH_SERVE_ONLY names no input; the inputs: ${ALL_INPUTS.map((i) => i.label).join(" | ")}`);

const WRK = hasWrk();
const scratch = mkdtempSync(join(tmpdir(), "serve-bench-"));

/** A wrk script posting the template with MARK replaced by a number counting up from its argument. */
function wrkScript(input: Input, n: number): string {
  const templateFile = join(scratch, `template-${n}.json`);
  writeFileSync(templateFile, input.template);
  const script = join(scratch, `post-${n}.lua`);
  writeFileSync(
    script,
    `local f = io.open(${JSON.stringify(templateFile)}, "rb")
local template = f:read("*a")
f:close()
local n = 0
init = function(args) n = tonumber(args[1]) end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "${input.accept}"
request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, (template:gsub(${JSON.stringify(MARK)}, tostring(n))))
end
`,
  );
  return script;
}

function ms(value: string, unit: string): number {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "s" ? n * 1000 : n;
}

function loadWithWrk(url: string, input: Input, script: string, connections: number): Load {
  const out = execFileSync("wrk", ["-t1", `-c${connections}`, `-d${DURATION_S}s`, "--timeout", "10s", "--latency", "-s", script, `${url}v1/exports?target=crewai`, "--", String(input.next)], { encoding: "utf8" });
  const latency = (p: string) => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, "m").exec(out);
    return m ? Math.round(ms(m[1]!, m[2]!) * 10) / 10 : NaN;
  };
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const bad = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + (/Socket errors: (.*)/.exec(out)?.[1] ?? "").split(",").reduce((n, part) => n + Number(/\d+/.exec(part)?.[0] ?? 0), 0);
  input.next += total + 1000; // requests still in flight at the end are not counted: skip past them
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0), p50: latency("50"), p99: latency("99"), total, bad };
}

async function load(url: string, input: Input, script: string, connections: number): Promise<Load> {
  if (WRK) return loadWithWrk(url, input, script, connections);
  let n = input.next;
  const result = await autocannon({
    url: `${url}v1/exports?target=crewai`,
    method: "POST",
    headers: { "content-type": "application/json", accept: input.accept },
    requests: [{ setupRequest: (req) => ({ ...req, body: input.template.replaceAll(MARK, String(++n)) }) }],
    connections,
    duration: DURATION_S,
  });
  input.next = n;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total, bad: result.non2xx + result.errors + result.timeouts };
}

interface Cost {
  /** CPU time of the process (every thread: V8's garbage collection helpers too) per export. */
  cpuMs: number;
  /** Wall time per export: validate, normalize, loss report, render, format. */
  exportMs: number;
  /** Wall time per export: the zip sink. */
  zipMs: number;
  /** The archive's size (the last one made). */
  zipBytes: number;
}

interface Exporter {
  exportDefinition: typeof exportDefinition;
  writeZip: typeof writeZip;
  target: (typeof TARGETS)[string];
}
const OURS: Exporter = { exportDefinition, writeZip, target: TARGETS.crewai! };

/** Another checkout's export and zip sink, loaded from its sources (BENCH_SERVE_COMPARE). */
async function exporterOf(root: string): Promise<Exporter> {
  const load = (path: string) => import(join(root, path));
  const [exp, zip, targets] = await Promise.all([load("src/export/export.ts"), load("src/export/sinks/zip.ts"), load("src/targets/index.ts")]);
  return { exportDefinition: exp.exportDefinition, writeZip: zip.writeZip, target: targets.TARGETS.crewai };
}

/** What one thread spends per export, over numbered bodies: what a worker spends per request. */
async function costOf(input: Input, options: ExportOptions = {}, { exportDefinition, writeZip, target }: Exporter = OURS): Promise<Cost> {
  let zipBytes = 0;
  const once = async (n: number, split?: { exportMs: number; zipMs: number }) => {
    const body = new TextEncoder().encode(input.template.replaceAll(MARK, String(n)));
    const t0 = performance.now();
    const result = exportDefinition(body, target, options);
    const t1 = performance.now();
    zipBytes = await writeZip(result.files!, () => {}, `${result.model!.names.distribution}/`);
    if (split) {
      split.exportMs += t1 - t0;
      split.zipMs += performance.now() - t1;
    }
  };
  for (let i = 0; i < 300; i++) await once(1_000_000 + i); // warm-up (JIT), on bodies not measured below
  const split = { exportMs: 0, zipMs: 0 };
  const runs = 1000;
  const start = process.cpuUsage();
  for (let i = 0; i < runs; i++) await once(i, split);
  const used = process.cpuUsage(start);
  return { cpuMs: (used.user + used.system) / 1000 / runs, exportMs: split.exportMs / runs, zipMs: split.zipMs / runs, zipBytes };
}

const newTeamInput = ALL_INPUTS.find((i) => i.label.startsWith("a new team"))!;
const cost = {
  newTeam: await costOf(newTeamInput),
  edited: await costOf(ALL_INPUTS.find((i) => i.label.startsWith("one team"))!),
  // --runtime index: the pin only, no vendored library (the server exports vendored).
  index: await costOf(newTeamInput, { runtime: { mode: "index" } }),
};
const otherRoot = process.env.BENCH_SERVE_COMPARE;
const otherCost = otherRoot ? await costOf(newTeamInput, {}, await exporterOf(otherRoot)) : undefined;
const rows: string[] = [];
const load1 = loadavg()[0]!.toFixed(2);
// BENCH_SERVE_COMPARE=DIR: a built checkout of another commit, whose server answers the new-team
// rows right after ours, input by input (same load generator, same minutes of the machine).
const other = process.env.BENCH_SERVE_COMPARE;
const server = await startServer({ ENVELOPE_LOG_LEVEL: "info" });
const otherServer = other ? await startServer({ ENVELOPE_LOG_LEVEL: "info" }, other) : undefined;
let peak = 0;
const peaks: string[] = [];
let goal: Load | undefined; // a new team per request, zip, 16 connections: the issue's goal
try {
  for (const [n, input] of INPUTS.entries()) {
    const script = wrkScript(input, n);
    await load(server.url, input, script, 4); // warm-up: JIT, first exports
    for (const c of CONNECTIONS) {
      const before = cpuMark(server.child.pid!);
      const r = await load(server.url, input, script, c);
      const after = cpuMark(server.child.pid!);
      if (r.bad) throw new Error(`${input.label} at ${c}: ${r.bad} failed requests`);
      rows.push(`| ${input.label} | ${c} | ${r.total} | ${r.rps.toFixed(0)} | ${r.p50} ms | ${r.p99} ms | ${shares(before, after)} |`);
      if (n === 0 && c === 16) goal = r;
      console.log(rows.at(-1));
    }
    if (otherServer && input.label.startsWith("a new team")) {
      await load(otherServer.url, input, script, 4);
      for (const c of CONNECTIONS) {
        const before = cpuMark(otherServer.child.pid!);
        const r = await load(otherServer.url, input, script, c);
        const after = cpuMark(otherServer.child.pid!);
        if (r.bad) throw new Error(`other checkout, ${input.label} at ${c}: ${r.bad} failed requests`);
        rows.push(`| other checkout: ${input.label} | ${c} | ${r.total} | ${r.rps.toFixed(0)} | ${r.p50} ms | ${r.p99} ms | ${shares(before, after)} |`);
        console.log(rows.at(-1));
      }
    }
    // The high-water mark over this input's rows, then reset (Linux: clear_refs 5), so each
    // input's peak is its own and not the largest of those before it.
    const inputPeak = peakRssMiB(server.child.pid!);
    peak = Math.max(peak, inputPeak);
    peaks.push(`${input.label}: ${inputPeak} MiB`);
    try {
      writeFileSync(`/proc/${server.child.pid}/clear_refs`, "5");
    } catch {
      peaks.push("(the peak could not be reset: the later inputs' figures include the earlier ones)");
    }
  }
} finally {
  for (const s of [server, otherServer]) {
    if (!s) continue;
    s.child.kill("SIGTERM");
    await new Promise((r) => s.child.once("exit", r));
  }
}

const table = ["| input | concurrent connections | exports | exports per second | p50 | p99 | server's CPU (cores) | the rest of the machine (cores) |", "|---|---:|---:|---:|---:|---:|---:|---:|", ...rows].join("\n");
writeSection(
  process.env.BENCH_SERVE_SECTION ?? (other ? "serve-compare" : "serve"),
  `## HTTP server (\`envelope serve\`)${other ? ": before and after, same run" : ""}

Machine: ${machineLine()}; load average ${load1} when the bench started and ${loadavg()[0]!.toFixed(2)} when it ended
(anything else running on the machine takes its share of the 2 cores: compare rows of one run only).

POST /v1/exports?target=crewai, answered as a streamed zip (${Math.round(cost.newTeam.zipBytes / 1024)} kB for a new team), ${DURATION_S} s per row, one
server with default settings (${server.workers} worker threads, answer cache on); load from ${WRK ? "wrk (one thread)" : "autocannon"} on
the same machine (it shares the 2 cores). Inputs: "a new team per request" sends a new
variant of the support-tier example (3 agents) each time, numbered, differing in every
generated module, so no work is reused; "one team, a prompt edited per request" is the example with one prompt
changed each time (the page's preview while someone types); "repeated input" is the example
as it is. The last two columns split the machine's busy time during the row, in cores (2 at
most): the server process (all its threads), and the rest of the machine, which is the load
generator's share (and anything else running).

${table}

Peak RSS of the server process (all its threads): ${peak} MiB over the whole run; per input, over its rows:
${peaks.map((p) => `- ${p}`).join("\n")}

Cost of one export on one thread (as in a worker), over the same inputs: a new team
${cost.newTeam.cpuMs.toFixed(2)} ms of CPU (all threads of the process: V8's garbage collection helpers too), of
which ${cost.newTeam.exportMs.toFixed(2)} ms validate, normalize, build the loss report, render and format the files and
${cost.newTeam.zipMs.toFixed(2)} ms zip them (the CLI's sink: deflate level 9; the static files' compressed bytes, and
those of their pieces of the pristine copy, are reused); an edited team ${cost.edited.cpuMs.toFixed(2)} ms (${cost.edited.exportMs.toFixed(2)} + ${cost.edited.zipMs.toFixed(2)} ms: its Python modules render to text
formatted once before, so the formatted text is reused, and the files that come out as before keep their
compressed bytes). So 2 cores top out near
${Math.round((2 * 1000) / cost.newTeam.cpuMs)} new teams per second before HTTP and the load generator take their share.
The same new team exported with \`--runtime index\` (the pin only: no vendored library; the
server always exports vendored): ${cost.index.cpuMs.toFixed(2)} ms of CPU (${cost.index.exportMs.toFixed(2)} + ${cost.index.zipMs.toFixed(2)} ms), a ${Math.round(cost.index.zipBytes / 1024)} kB zip.${
  otherCost
    ? `
The other checkout's export and zip sink (loaded from its sources, the same inputs, in this
process right after ours): a new team ${otherCost.cpuMs.toFixed(2)} ms of CPU (${otherCost.exportMs.toFixed(2)} + ${otherCost.zipMs.toFixed(2)} ms), a ${Math.round(otherCost.zipBytes / 1024)} kB zip.`
    : ""
}

Goal (a new team per request, zip, 16 connections: ≥ 1,000 exports per second with p99 ≤ 50 ms):
${goal ? `${goal.rps.toFixed(0)} per second, p99 ${goal.p99} ms: ${goal.rps >= 1000 && goal.p99 <= 50 ? "met" : "**not met**"}` : "not measured"}. Repeated
input is answered from the answer cache (a hash of the body, target and options, so every
instance gives the same bytes).

${other ? `"other checkout" rows: ${checkoutName(other)}, its server started beside ours and loaded right after it, input by input.\n\n` : ""}Written by \`bench/serve.bench.ts\`.`,
);
console.log(table);
