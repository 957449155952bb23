// Issue 40's speed item, the startup-snapshot route measured before building it: a V8
// user-land startup snapshot (`node --build-snapshot`) holding ts-morph (the TypeScript
// compiler in it) and prettier's standalone build with its estree, typescript and babel
// plugins, loaded and warmed by formatting the example's files once. Its main function does
// only the part of a langgraph-js export that needs them: a ts-morph project of the example's
// TypeScript files (parsed, parse errors checked, printed) and prettier's format of each. No
// definition read or validated, no template, nothing written: a lower bound for an export run
// from such a snapshot, against `node -e 0`, an empty snapshot (the cost of starting from a
// blob at all) and the export itself, in interleaved rounds; medians over rounds.
// What Node 20 allowed, found building it: the snapshot's entry can `require` built-in modules
// only (module.createRequire there breaks deserialization: an internal assertion in
// setupUserModules), so ts-morph and prettier are one esbuild bundle run through vm; and a vm
// context cannot be in the snapshot (Environment::Serialize asserts one context), so prettier
// runs in the main context, asynchronously (an export's targets generate synchronously).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { median } from "./stats.js";
import { machineLine, writeSection } from "./results-file.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const ROUNDS = Number(process.env.BENCH_LGJS_ROUNDS ?? 9);
const EXAMPLE = join(ROOT, "examples/support-tier.envelope.json");
const scratch = mkdtempSync(join(tmpdir(), "lgjs-snapshot-"));
const node = process.execPath;
const exportArgv = (out: string) => [join(ROOT, "bin/envelope.js"), "export", EXAMPLE, "--target", "langgraph-js", "--out", out];

function spawn(args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(node, args, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return ms;
}

// The example's TypeScript files, as one export writes them.
const reference = join(scratch, "reference");
spawn(exportArgv(reference));
const files = join(scratch, "files");
mkdirSync(files);
for (const dir of ["src", "tests"]) for (const f of readdirSync(join(reference, dir))) if (f.endsWith(".ts")) writeFileSync(join(files, `${dir}-${f}`), readFileSync(join(reference, dir, f)));

const preload = join(scratch, "preload.cjs");
await esbuild.build({
  stdin: {
    contents: 'module.exports = { tsMorph: require("ts-morph"), prettier: require("prettier/standalone"), plugins: [require("prettier/plugins/estree"), require("prettier/plugins/typescript"), require("prettier/plugins/babel")] };',
    resolveDir: ROOT,
    sourcefile: "preload.cjs",
  },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outfile: preload,
  logLevel: "warning",
});

const entry = join(scratch, "entry.cjs");
writeFileSync(
  entry,
  `const { readdirSync, readFileSync } = require("node:fs");
const { startupSnapshot } = require("node:v8");
const { runInThisContext } = require("node:vm");
const source = readFileSync(${JSON.stringify(preload)}, "utf8");
const module_ = { exports: {} };
runInThisContext("(function (exports, require, module, __filename, __dirname) {" + source + "\\n})", { filename: ${JSON.stringify(preload)} })(module_.exports, require, module_, ${JSON.stringify(preload)}, ${JSON.stringify(scratch)});
const { tsMorph, prettier, plugins } = module_.exports;
async function exportPart(dir) {
  const project = new tsMorph.Project({ useInMemoryFileSystem: true, compilerOptions: { noLib: true } });
  for (const name of readdirSync(dir)) {
    const file = project.createSourceFile(name, readFileSync(dir + "/" + name, "utf8"));
    if (file.compilerNode.parseDiagnostics.length) throw new Error(name + " does not parse");
    await prettier.format(file.getFullText(), { parser: "typescript", plugins, printWidth: 100 });
  }
}
startupSnapshot.setDeserializeMainFunction(() => exportPart(process.argv[1]));
exportPart(${JSON.stringify(files)}); // warm: the snapshot is taken once this is done
`,
);
const blob = join(scratch, "probe.blob");
const built = spawnSync(node, ["--snapshot-blob", blob, "--build-snapshot", entry], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
if (built.status !== 0) throw new Error(`building the snapshot failed: ${built.stderr}`);
const empty = join(scratch, "empty.blob");
writeFileSync(join(scratch, "empty.cjs"), 'require("node:v8").startupSnapshot.setDeserializeMainFunction(() => {});');
if (spawnSync(node, ["--snapshot-blob", empty, "--build-snapshot", join(scratch, "empty.cjs")]).status !== 0) throw new Error("building the empty snapshot failed");

const COMMANDS: Array<{ label: string; args: (r: number) => string[] }> = [
  { label: "`node -e 0`", args: () => ["-e", "0"] },
  { label: "an empty snapshot: `node --snapshot-blob EMPTY`", args: () => ["--snapshot-blob", empty] },
  { label: "the snapshot: ts-morph and prettier deserialized, the example's TypeScript parsed, checked and formatted", args: () => ["--snapshot-blob", blob, files] },
  { label: "`envelope export` example `--target langgraph-js --out DIR` (the whole export, as it is)", args: (r) => exportArgv(join(scratch, `out-${r}`)) },
];
const loadBefore = loadavg()[0]!.toFixed(2);
for (const c of COMMANDS) spawn(c.args(-1)); // warm-up: the file cache, not the processes
const times = COMMANDS.map(() => [] as number[]);
const ratios = COMMANDS.map(() => [] as number[]);
for (let r = 0; r < ROUNDS; r++) {
  const round = COMMANDS.map((c) => spawn(c.args(r)));
  round.forEach((ms, i) => {
    times[i]!.push(ms);
    ratios[i]!.push(ms / round[0]!);
  });
  console.log(`round ${r + 1}/${ROUNDS}: ${round.map((ms) => ms.toFixed(0)).join(" / ")} ms`);
}
const loadAfter = loadavg()[0]!.toFixed(2);
const mb = (file: string) => (statSync(file).size / 2 ** 20).toFixed(1);
writeSection(
  "langgraph-js-snapshot",
  `## Cold CLI, langgraph-js: the startup-snapshot route, probed (issue 40)

Machine: ${machineLine()}; load average ${loadBefore} when the bench started and ${loadAfter} when it ended.

\`npx tsx bench/langgraph-js-snapshot.bench.ts\` (its header says what the snapshot holds and
does). The snapshot blob is ${mb(blob)} MB (the empty one ${mb(empty)} MB). ${ROUNDS} rounds, each command once
per round in this order, each a new process; the ratio is to \`node -e 0\` in the same round;
medians over rounds.

| command | median | fastest | ratio to \`node -e 0\` |
|---|---:|---:|---:|
${COMMANDS.map((c, i) => `| ${c.label} | ${median(times[i]!).toFixed(0)} ms | ${Math.min(...times[i]!).toFixed(0)} ms | ${median(ratios[i]!).toFixed(2)}× |`).join("\n")}`,
);
rmSync(scratch, { recursive: true, force: true });
