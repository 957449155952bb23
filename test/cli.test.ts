import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runBin, runCli } from "./helpers/cli.js";
import { team, agent } from "./helpers/definitions.js";

const EXAMPLE = ROOT + "examples/support-tier.envelope.json";
const tmp = mkdtempSync(join(tmpdir(), "envelope-cli-"));
const write = (name: string, content: string) => {
  const p = join(tmp, name);
  writeFileSync(p, content);
  return p;
};
const invalid = write("bad.envelope.json", JSON.stringify(team({ slug: "Bad Slug", agents: [agent("a", { systemPrompt: "x" })] }), null, 2));
const warning = write("warn.envelope.json", JSON.stringify(team({ schedule: { type: "continuous" } }), null, 2));

describe("envelope validate", () => {
  it("exits 0 on the support-tier example", async () => {
    const r = await runCli(["validate", EXAMPLE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("valid (0 errors, 0 warnings)");
  });
  it("exits 1 with positioned diagnostics, snippet and hint", async () => {
    const r = await runCli(["validate", invalid]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${invalid}:4:11: error E_PATTERN`);
    expect(r.stdout).toMatch(/hint: did you mean `prompt`\?/);
    expect(r.stdout).toMatch(/\n {2}4 \| {3}"slug": "Bad Slug",\n {6}\s+\^/);
  });
  it("shows the source line under a JSON syntax error too, and a CRLF line without its \\r", async () => {
    const dir = mkdtempSync(join(tmpdir(), "envelope-cli-"));
    const comma = join(dir, "comma.json");
    writeFileSync(comma, '{\n  "name": "x",\n  "slug": "y",\n}\n');
    const r = await runCli(["validate", comma]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${comma}:3:14: error E_JSON_SYNTAX`);
    expect(r.stdout).toContain('\n  3 |   "slug": "y",\n                   ^\n');
    const crlf = join(dir, "crlf.json");
    writeFileSync(crlf, '{\r\n  "name": 5\r\n}\r\n');
    const c = await runCli(["validate", crlf]);
    expect(c.stdout).toContain('  2 |   "name": 5\n');
    expect(c.stdout).not.toContain("\\u{d}");
  });
  it("validates several files and reports each; exit reflects the worst", async () => {
    const r = await runCli(["validate", EXAMPLE, invalid, "--format", "json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.valid).toBe(false);
    expect(out.files.map((f: { valid: boolean }) => f.valid)).toEqual([true, false]);
    expect(out.files[1].diagnostics[0]).toEqual(expect.objectContaining({ code: "E_PATTERN", pointer: "/slug", line: 4, column: 11, severity: "error" }));
  });
  it("warnings pass, --strict fails them", async () => {
    expect((await runCli(["validate", warning])).code).toBe(0);
    const strict = await runCli(["validate", warning, "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain("error W_SCHEDULE_CONTINUOUS");
  });
  it("prints GitHub workflow annotations with escaped data", async () => {
    const r = await runCli(["validate", invalid, "--format", "github"]);
    expect(r.stdout).toContain(`::error file=${invalid.replace(/:/g, "%3A")},line=4,col=11,title=E_PATTERN::`);
  });
  it("exits 2 for a missing file or bad usage", async () => {
    const missing = await runCli(["validate", join(tmp, "nope.json")]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toMatch(/nope\.json: error E_READ cannot read .*nope\.json: no such file/);
    const asJson = await runCli(["validate", join(tmp, "nope.json"), EXAMPLE, "--format", "json"]);
    expect(asJson.code).toBe(2);
    expect(JSON.parse(asJson.stdout).files[0].diagnostics[0].code).toBe("E_READ");
    expect((await runCli(["validate"])).code).toBe(2);
    expect((await runCli(["validate", EXAMPLE, "--format", "xml"])).code).toBe(2);
    expect((await runCli(["frobnicate"])).code).toBe(2);
    expect((await runCli(["validate", EXAMPLE, "--bogus"])).code).toBe(2);
  });
  it("no command is a usage error: the help on standard error, exit 2; --help and help on standard output, exit 0", () => {
    const none = runBin([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe("");
    expect(none.stderr).toMatch(/^envelope \S+ — turn Envelope team definitions/);
    expect(none.stderr).toContain("Usage:\n  envelope validate FILE...");
    for (const args of [["--help"], ["-h"], ["help"]]) {
      const help = runBin(args);
      expect(help.code, args.join(" ")).toBe(0);
      expect(help.stderr).toBe("");
      expect(help.stdout).toBe(none.stderr);
    }
  });
  it("never colours output that is not a terminal", async () => {
    const r = await runCli(["validate", invalid]);
    expect(r.stdout).not.toContain("\u001b[");
  });
});

describe("identical diagnostics are collapsed, with a count", () => {
  // One prompt that repeats an undeclared {{NAME}} 400 times: one warning, not 400.
  const repeated = write(
    "repeated.envelope.json",
    JSON.stringify(team({ agents: [agent("lead", { role: "manager", prompt: "Use {{NOPE}}. ".repeat(400) })] }), null, 2),
  );
  it("validate: text says (×400) once; json has count; github one annotation", async () => {
    const text = await runCli(["validate", repeated]);
    expect(text.code).toBe(0);
    expect(text.stdout.match(/W_PLACEHOLDER_UNKNOWN/g)).toHaveLength(1);
    expect(text.stdout).toMatch(/W_PLACEHOLDER_UNKNOWN .*literal text \(×400\)\n/);
    expect(text.stdout).toContain("valid (0 errors, 1 warning)");
    const json = JSON.parse((await runCli(["validate", repeated, "--format", "json"])).stdout);
    expect(json.files[0].diagnostics).toMatchObject([{ code: "W_PLACEHOLDER_UNKNOWN", pointer: "/agents/0/prompt", count: 400 }]);
    expect(json.files[0].warnings).toBe(1);
    const github = (await runCli(["validate", repeated, "--format", "github"])).stdout.trim().split("\n");
    expect(github).toHaveLength(1);
    expect(github[0]).toMatch(/^::warning .*title=W_PLACEHOLDER_UNKNOWN::.*\(×400\)$/);
  });
  it("the same warning at many places: one, at the first, with the next places (github: one annotation each)", async () => {
    const hosts = write("hosts.envelope.json", JSON.stringify(team({ agents: [agent("lead", { role: "manager", allowedHosts: Array(9).fill("{{X}}") })] }), null, 2));
    const json = JSON.parse((await runCli(["validate", hosts, "--format", "json"])).stdout);
    expect(json.files[0].diagnostics).toMatchObject([{ code: "W_PLACEHOLDER_UNKNOWN", pointer: "/agents/0/allowedHosts/0", count: 9 }]);
    expect(json.files[0].diagnostics[0].alsoAt.map((p: { pointer: string }) => p.pointer)).toEqual([1, 2, 3, 4].map((i) => `/agents/0/allowedHosts/${i}`));
    const text = (await runCli(["validate", hosts])).stdout;
    expect(text).toMatch(/also at \/agents\/0\/allowedHosts\/1 \(\d+:\d+\), .*\/allowedHosts\/4 \(\d+:\d+\), …\n/);
    const github = (await runCli(["validate", hosts, "--format", "github"])).stdout.trim().split("\n");
    expect(github).toHaveLength(5);
    expect(github[0]).toMatch(/\(×9\)$/);
  });
  it("a single diagnostic has no count; inspect and export --json collapse too", async () => {
    const once = JSON.parse((await runCli(["validate", warning, "--format", "json"])).stdout);
    expect(once.files[0].diagnostics[0]).not.toHaveProperty("count");
    const inspect = await runCli(["inspect", repeated]);
    expect(inspect.stderr.match(/W_PLACEHOLDER_UNKNOWN/g)).toHaveLength(1);
    expect(inspect.stderr).toContain("(×400)");
    const exported = JSON.parse((await runCli(["export", repeated, "--target", "langgraph", "--dry-run", "--json"])).stdout);
    expect(exported.diagnostics).toMatchObject([{ code: "W_PLACEHOLDER_UNKNOWN", count: 400 }]);
  });
});

describe("envelope inspect", () => {
  it("prints the model as JSON", async () => {
    const r = await runCli(["inspect", EXAMPLE, "--json"]);
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout);
    expect(m.modelVersion).toBe(1);
    expect(m.agents.map((a: { ident: string }) => a.ident)).toEqual(["support_lead", "billing_specialist", "technical_specialist"]);
  });
  it("prints a readable summary", async () => {
    const r = await runCli(["inspect", EXAMPLE]);
    expect(r.stdout).toContain("- support-lead [support_lead] Head of Support · anthropic:claude-opus-4-5");
    expect(r.stdout).toContain("Runs as a hierarchy: the task goes to support-lead");
  });
  it("refuses an invalid definition with exit 1, diagnostics on stderr", async () => {
    const r = await runCli(["inspect", invalid, "--json"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("E_PATTERN");
  });
});

describe("the installed bin", () => {
  it("runs --version, --help and reads stdin", () => {
    expect(runBin(["--version"]).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(runBin(["--help"]).stdout).toContain("envelope validate FILE...");
    const r = runBin(["validate", "-"], '{\n  "a": 1,\n}');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("<stdin>:2:9: error E_JSON_SYNTAX");
  });
});

describe("terminal safety", () => {
  it("shows control characters from a definition as escapes, never raw", async () => {
    const hostile = write("esc.envelope.json", JSON.stringify(team({ name: "Evil \u001b[2J Team", agents: [agent("a", { "\u001b]0;x\u0007": 1 })] }), null, 2));
    const v = await runCli(["validate", hostile]);
    expect(v.stdout).not.toContain("\u001b");
    expect(v.stdout).toContain("\\u{1b}]0;x\\u{7}");
    const ok = write("esc-ok.envelope.json", JSON.stringify(team({ name: "Evil \u001b[2J Team" }), null, 2));
    const i = await runCli(["inspect", ok]);
    expect(i.code).toBe(0);
    expect(i.stdout).not.toContain("\u001b");
    expect(i.stdout).toContain("Evil \\u{1b}[2J Team");
  });
});

describe("pipes", () => {
  it("a reader that closes the pipe early is not a crash", () => {
    // `true` exits without reading, so every write the CLI makes meets a closed pipe.
    const command = `"${process.execPath}" "${ROOT}bin/envelope.js" export "${ROOT}examples/support-tier.envelope.json" --target crewai --dry-run | true; echo "status \${PIPESTATUS[0]}" >&2`;
    const r = spawnSync("bash", ["-c", command], { encoding: "utf8" });
    expect(r.stderr).not.toContain("EPIPE");
    expect(r.stderr).toContain("status 0");
  });
});
