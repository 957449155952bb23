// `envelope export`: sinks, dry run, JSON summary, strictness, refusals — through the CLI.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UNMAPPED } from "../src/export/loss-report.js";
import { ROOT, runCli } from "./helpers/cli.js";
import { validDefinitions } from "./helpers/export.js";
import { exportDefinition } from "../src/export/export.js";
import { crewaiTarget } from "../src/targets/crewai/index.js";

const EXAMPLE = ROOT + "examples/support-tier.envelope.json";
const tmp = () => mkdtempSync(join(tmpdir(), "envelope-export-"));

describe("envelope export --target crewai", () => {
  it("writes the project and prints the loss summary", async () => {
    const out = join(tmp(), "support-tier");
    const r = await runCli(["export", EXAMPLE, "--target", "crewai", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^wrote \d+ files \(\d+ bytes\) to /);
    expect(r.stdout).toMatch(/loss report: \d+ carried, \d+ approximated, \d+ not carried/);
    for (const f of ["pyproject.toml", "README.md", ".env.example", ".gitignore", "ENVELOPE_EXPORT.md", "src/support_tier/crew.py", "src/support_tier/main.py", "src/support_tier/config/agents.yaml", "src/support_tier/config/tasks.yaml", "src/support_tier/envelope.json", "tests/conftest.py"]) {
      expect(existsSync(join(out, f)), f).toBe(true);
    }
    expect(readFileSync(join(out, "src/support_tier/envelope.json"), "utf8")).toBe(readFileSync(EXAMPLE, "utf8"));
  });

  it("--dry-run lists files and writes nothing; --json summarizes", async () => {
    const out = join(tmp(), "x");
    const dry = await runCli(["export", EXAMPLE, "--target", "crewai", "--out", out, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("would write");
    expect(dry.stdout).toContain("  src/support_tier/crew.py");
    expect(existsSync(out)).toBe(false);
    const json = JSON.parse((await runCli(["export", EXAMPLE, "--target", "crewai", "--dry-run", "--json"])).stdout);
    expect(json.target).toBe("crewai");
    expect(json.files.find((f: { path: string }) => f.path === "pyproject.toml").size).toBeGreaterThan(100);
    expect(json.loss.entries.length).toBeGreaterThan(40);
    expect(json.exported).toBe(true);
    // Refused (strict loss, or an invalid definition): still one JSON answer on stdout.
    const strict = await runCli(["export", EXAMPLE, "--target", "crewai", "--dry-run", "--json", "--strict"]);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout)).toMatchObject({ target: "crewai", exported: false, reason: "strict", failure: expect.stringMatching(/^--strict: 1 field is not fully carried/) });
    const bad = join(tmp(), "bad.json");
    writeFileSync(bad, '{"name": 1}');
    const invalid = await runCli(["export", bad, "--target", "crewai", "--dry-run", "--json"]);
    expect(invalid.code).toBe(1);
    const refused = JSON.parse(invalid.stdout);
    expect(refused).toMatchObject({ exported: false, reason: "invalid", loss: null });
    expect(refused.diagnostics.length).toBeGreaterThan(0);
  });

  it("refuses a non-empty directory unless --force, and never touches it", async () => {
    const out = tmp();
    writeFileSync(join(out, "notes.txt"), "mine");
    const r = await runCli(["export", EXAMPLE, "--target", "crewai", "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is not empty");
    expect(readdirSync(out)).toEqual(["notes.txt"]);
    expect((await runCli(["export", EXAMPLE, "--target", "crewai", "--out", out, "--force"])).code).toBe(0);
    expect(existsSync(join(out, "notes.txt"))).toBe(false);
  });

  it("an output that cannot be written: exit 2, a message naming the user's path, nothing left behind", async () => {
    const dir = tmp();
    writeFileSync(join(dir, "file.txt"), "x");
    for (const args of [["--zip", join(dir, "file.txt", "p.zip")], ["--out", join(dir, "file.txt", "p")]]) {
      const r = await runCli(["export", EXAMPLE, "--target", "crewai", ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`envelope: cannot write ${args[1]}: a part of the path is a file, not a folder\n`);
      expect(r.stderr).not.toContain(".envelope-");
    }
    const z = await runCli(["export", EXAMPLE, "--target", "crewai", "--zip", dir]);
    expect(z.code).toBe(2);
    expect(z.stderr).toContain(`${dir} is a directory; --zip takes a file name`);
    // Like --out, --zip creates missing parent folders.
    const nested = join(dir, "a", "b", "p.zip");
    expect((await runCli(["export", EXAMPLE, "--target", "crewai", "--zip", nested])).code).toBe(0);
    expect(statSync(nested).size).toBeGreaterThan(1000);
    expect(readdirSync(dir).sort()).toEqual(["a", "file.txt"]);
  });

  it("--zip streams an archive that unpacks to the same files", async () => {
    const dir = tmp();
    const zip = join(dir, "p.zip");
    expect((await runCli(["export", EXAMPLE, "--target", "crewai", "--zip", zip])).code).toBe(0);
    expect((await runCli(["export", EXAMPLE, "--target", "crewai", "--zip", zip])).code).toBe(2);
    const unpacked = join(dir, "u");
    mkdirSync(unpacked);
    const r = spawnSync("python3", ["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])", zip, unpacked]);
    expect(r.status).toBe(0);
    const out = join(dir, "o");
    await runCli(["export", EXAMPLE, "--target", "crewai", "--out", out]);
    expect(readFileSync(join(unpacked, "support-tier/src/support_tier/crew.py"), "utf8")).toBe(readFileSync(join(out, "src/support_tier/crew.py"), "utf8"));
    expect(statSync(zip).size).toBeGreaterThan(1000);
  });

  it("--strict fails when a field is not fully carried, naming the fields; registry data is never fatal", async () => {
    const r = await runCli(["export", EXAMPLE, "--target", "crewai", "--dry-run", "--strict"]);
    expect(r.code).toBe(1);
    // The manager's accessPolicy is approximated in CrewAI; pricing, tags… are only reported.
    // What --strict refuses first, then the report; registry fields on a line apart, not as losses.
    expect(r.stderr).toMatch(/^envelope: --strict: 1 field is not fully carried to CrewAI: agents\[0\]\.accessPolicy\nloss report: /m);
    expect(r.stderr).toMatch(/^ {2}~ agents\[0\]\.accessPolicy: /m);
    expect(r.stderr).toMatch(/^ {2}registry-only, not a loss \(no runtime reads them; kept in the provenance copy\): category, tags, visibility, pricing, metadata$/m);
    expect(r.stderr).not.toMatch(/^ {2}- pricing/m);
    // Every shipped definition that LangGraph carries whole passes strict, visibility (required) and all.
    const lg = await runCli(["export", EXAMPLE, "--target", "langgraph", "--dry-run", "--strict"]);
    expect(lg.code, lg.stderr).toBe(0);
  });

  it("an invalid definition exits 1 with diagnostics and writes nothing", async () => {
    const bad = join(tmp(), "bad.json");
    writeFileSync(bad, '{"a": 1,}');
    const out = join(tmp(), "never");
    const r = await runCli(["export", bad, "--target", "crewai", "--out", out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("E_JSON_SYNTAX");
    expect(existsSync(out)).toBe(false);
  });

  it("usage errors exit 2", async () => {
    expect((await runCli(["export", EXAMPLE, "--out", "x"])).code).toBe(2);
    expect((await runCli(["export", EXAMPLE, "--target", "autogen", "--out", "x"])).code).toBe(2);
    expect((await runCli(["export", EXAMPLE, "--target", "crewai"])).code).toBe(2);
    expect((await runCli(["export", EXAMPLE, "--target", "__proto__", "--dry-run"])).code).toBe(2);
    const blocker = join(tmp(), "file");
    writeFileSync(blocker, "x");
    const r = await runCli(["export", EXAMPLE, "--target", "crewai", "--out", join(blocker, "sub")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^envelope: /);
  });
});

describe("the CrewAI loss report", () => {
  it.each(validDefinitions())("$name: every field has a rule", ({ path }) => {
    const r = exportDefinition(readFileSync(path), crewaiTarget);
    expect(r.ok).toBe(true);
    expect(r.loss!.filter((e) => e.detail === UNMAPPED).map((e) => e.field)).toEqual([]);
  });
  it("support-tier: lists every field of the example, registry fields as not carried", () => {
    const r = exportDefinition(readFileSync(EXAMPLE), crewaiTarget);
    const byField = new Map(r.loss!.map((e) => [e.field, e]));
    for (const f of ["name", "slug", "version", "description", "category", "tags", "visibility", "pricing", "inputs.ticket_text", "outputs.escalated", "requiredSecrets", "requiredVariables", "readme", "agents[0].prompt", "agents[1].accessPolicy", "agents[2].reportsToKey", "metadata"]) {
      expect(byField.has(f), f).toBe(true);
    }
    expect(byField.get("pricing")!.status).toBe("dropped");
    expect(byField.get("agents[0].accessPolicy")!.status).toBe("approximated");
    expect(byField.get("agents[1].prompt")!.status).toBe("carried");
    expect(r.files!.text("ENVELOPE_EXPORT.md")).toContain("| `pricing` |");
  });
});

describe("an output that cannot be written, through the CLI as a process", () => {
  const bin = (args: string[]) => spawnSync(process.execPath, [ROOT + "bin/envelope.js", ...args], { encoding: "utf8", cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, timeout: 60_000 });
  // /proc refuses new entries with ENOENT: the message says so in words, names the path given
  // (never the temporary file beside it), and a missing folder under it does not spin forever.
  it.skipIf(!existsSync("/proc/self"))("--zip and --out in a folder that takes no new files: exit 2, the user's path, no errno, no temporary name", () => {
    for (const [flag, path] of [["--zip", "/proc/nope.zip"], ["--zip", "/proc/self/nope/team.zip"], ["--out", "/proc/nope"], ["--out", "/proc/self/nope/team"]] as const) {
      const r = bin(["export", EXAMPLE, "--target", "crewai", flag, path]);
      expect(r.error, `${flag} ${path} did not finish`).toBeUndefined();
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^envelope: cannot write ${path.replace(/[./]/g, "\\$&")}: [a-z]`));
      expect(r.stderr).not.toMatch(/\.envelope-[0-9a-f]|ENOENT|errno/);
      expect(r.stdout).toBe("");
    }
  }, 240_000);
});
