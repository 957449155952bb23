// Lines of Python an export ships, per valid fixture and target: team-specific (generated)
// against generic (copied verbatim from a template's static/ folder), under src/ and tests/
// (issue 14: "generic code is a minority of what a hierarchy team ships").
//
//   npm run bench:lines -- --as after --label "after (<branch> at <commit>)"
//   npx tsx bench/lines.ts --repo /path/to/other/checkout --as before --label "before (main at <commit>)"
//
// Each `--as NAME` owns its own section of bench/RESULTS.md (`lines-NAME`), so a "before"
// measured on an older checkout stays when the "after" is written. `--repo DIR` measures
// another checkout (built: its bin/envelope.js, fixtures and templates are used); the
// default is this one. Counts are non-blank lines (comments and docstrings count). A file
// is generic when its bytes equal a file under DIR/templates/*/static/, wherever the export
// puts it; every other .py file is team-specific.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { machineLine, writeSection } from "./results-file.js";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
};
const repo = resolve(option("repo", fileURLToPath(new URL("../", import.meta.url))));
const as = option("as", "now");
const commit = execFileSync("git", ["-C", repo, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
const label = option("label", `${as} (${commit})`);
const targets = option("targets", "crewai,langgraph").split(",");
const write = !args.includes("--no-write");

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "__pycache__" ? [] : walk(path);
    return e.isFile() ? [path] : [];
  });
}

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const nonBlank = (bytes: Buffer) => bytes.toString("utf8").split("\n").filter((l) => l.trim() !== "").length;

/** Hashes of every static template file: an exported file with one of these bytes is generic. */
function staticHashes(): Set<string> {
  const templates = join(repo, "templates");
  const dirs = readdirSync(templates).map((t) => join(templates, t, "static")).filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory());
  return new Set(dirs.flatMap(walk).map((f) => sha(readFileSync(f))));
}

interface Row {
  fixture: string;
  mode: string;
  teamSrc: number;
  genericSrc: number;
  teamTests: number;
  genericTests: number;
}

function measure(target: string, generic: Set<string>, work: string): Row[] {
  const fixtures = join(repo, "test/fixtures/valid");
  return readdirSync(fixtures)
    .filter((f) => f.endsWith(".envelope.json"))
    .sort()
    .map((f) => {
      const fixture = f.replace(/\.envelope\.json$/, "");
      const def = JSON.parse(readFileSync(join(fixtures, f), "utf8")) as { pipeline?: unknown[] };
      const out = join(work, target, fixture);
      execFileSync(process.execPath, [join(repo, "bin/envelope.js"), "export", join(fixtures, f), "--target", target, "--out", out], { stdio: ["ignore", "ignore", "pipe"] });
      const row: Row = { fixture, mode: def.pipeline?.length ? "pipeline" : "hierarchy", teamSrc: 0, genericSrc: 0, teamTests: 0, genericTests: 0 };
      for (const path of walk(out).filter((p) => p.endsWith(".py"))) {
        const top = relative(out, path).split("/")[0];
        if (top !== "src" && top !== "tests") continue;
        const bytes = readFileSync(path);
        const isGeneric = generic.has(sha(bytes));
        const n = nonBlank(bytes);
        if (top === "src") row[isGeneric ? "genericSrc" : "teamSrc"] += n;
        else row[isGeneric ? "genericTests" : "teamTests"] += n;
      }
      return row;
    });
}

const pct = (part: number, whole: number) => (whole ? `${Math.round((100 * part) / whole)} %` : "–");

function table(target: string, rows: Row[]): string {
  const head = "| fixture | mode | team-specific src | generic src | team-specific tests | generic tests | generic share of src |\n|---|---|---:|---:|---:|---:|---:|";
  const lines = rows.map((r) => `| ${r.fixture} | ${r.mode} | ${r.teamSrc} | ${r.genericSrc} | ${r.teamTests} | ${r.genericTests} | ${pct(r.genericSrc, r.teamSrc + r.genericSrc)} |`);
  return `### ${target}\n\n${head}\n${lines.join("\n")}`;
}

const work = mkdtempSync(join(tmpdir(), "envelope-lines-"));
try {
  const generic = staticHashes();
  const tables = targets.map((t) => table(t, measure(t, generic, work)));
  const body = [
    `## Lines of Python shipped: ${label}`,
    "",
    `Machine: ${machineLine()}; checkout ${commit}`,
    "",
    "Non-blank lines of the `.py` files under `src/` and `tests/` of each valid fixture's export.",
    "Generic: byte-identical to a file under `templates/*/static/` (the same in every export);",
    "team-specific: everything generated. Each `--as NAME` has its own section; the after one:",
    '`npm run bench:lines -- --as after --label "after (<branch> at <commit>)"`; `--repo DIR`',
    "measures another built checkout (a `git worktree` of an older commit, as for the before).",
    "",
    ...tables.flatMap((t) => [t, ""]),
  ].join("\n");
  process.stdout.write(`${body}\n`);
  if (write) writeSection(`lines-${as}`, body);
} finally {
  rmSync(work, { recursive: true, force: true });
}
