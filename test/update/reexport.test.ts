// Re-export keeps the developer's work, end to end through the CLI, for each target:
// the developer edits a prompt, a generated module and README.md and adds a tool of their
// own; the builder changes two prompts (one the developer also edited: the one conflict),
// adds an agent and a gate, and removes a step (its agent too). `envelope export --out`
// updates the project: every developer edit kept, both sides' changes merged, the conflict
// marked and listed (exit 4), the removed step's untouched files removed; after the conflict
// is resolved the project's own tests pass on the real framework. --plan and --check first.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { MARKERS } from "../../src/update/merge.js";
import { runCli } from "../helpers/cli.js";
import { definition, PKG } from "../helpers/reexport-desk.js";
import { runPython } from "../e2e/projects.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === "__pycache__" || e.name.endsWith(".egg-info")) continue;
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out[relative(dir, full).split(sep).join("/")] = `${statSync(full).mode & 0o777} ${readFileSync(full, "base64")}`;
    }
  };
  walk(dir);
  return out;
}

/** Takes the developer's side of every conflict: what a developer does who keeps their own prompt. */
function takeYours(text: string): string {
  const re = new RegExp(`${MARKERS.yours}\\n([\\s\\S]*?)${MARKERS.base.replace(/\|/g, "\\|")}\\n[\\s\\S]*?${MARKERS.separator}\\n[\\s\\S]*?${MARKERS.export}\\n`, "g");
  return text.replace(re, "$1");
}

const edit = (path: string, change: (s: string) => string) => {
  const before = readFileSync(path, "utf8");
  const after = change(before);
  expect(after, `the edit of ${path} changes it`).not.toBe(before);
  writeFileSync(path, after);
};

/** Where each target keeps the writer's prompt, and the line the developer rewrites in it. */
const PROMPT: Record<string, { file: string; line: RegExp; mine: string }> = {
  crewai: { file: `src/${PKG}/config/agents.yaml`, line: /Keep it under 300 words\./, mine: "Keep it under 300 words, with a one-line summary first." },
  langgraph: { file: `src/${PKG}/prompts/writer.txt`, line: /Keep it under 300 words\./, mine: "Keep it under 300 words, with a one-line summary first." },
};
const MODULE: Record<string, string> = { crewai: `src/${PKG}/crew.py`, langgraph: `src/${PKG}/graph.py` };

const gate = e2eGate();

describe.each(["crewai", "langgraph"])("re-export of a %s project keeps the developer's work", (target) => {
  const work = mkdtempSync(join(tmpdir(), `envelope-reexport-${target}-`));
  const dir = join(work, "project");
  const v1 = join(work, "v1.envelope.json");
  const v2 = join(work, "v2.envelope.json");
  let env: PythonEnv | undefined;
  beforeAll(async () => {
    writeFileSync(v1, definition(1));
    writeFileSync(v2, definition(2));
    const r = await runCli(["export", v1, "--target", target, "--out", dir]);
    expect(r.code, r.stderr).toBe(0);
    if (gate.run) env = ensureEnv(target, gate.python!);
  }, 1_800_000);

  it("--check passes on a fresh export, and an export of the same definition changes nothing", async () => {
    const before = tree(dir);
    expect((await runCli(["export", v1, "--target", target, "--out", dir, "--check"])).code).toBe(0);
    const again = await runCli(["export", v1, "--target", target, "--out", dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("nothing to change");
    expect(tree(dir)).toEqual(before);
  });

  it("the developer's edits, then --plan (writes nothing) and --check (exit 3)", async () => {
    const prompt = PROMPT[target]!;
    edit(join(dir, prompt.file), (s) => s.replace(prompt.line, prompt.mine));
    // A generated module: a helper of the developer's near the top, after the imports.
    edit(join(dir, MODULE[target]!), (s) => s.replace(/\n\n\n/, "\n\n\n# The developer's note: the desk runs on weekdays only.\nWEEKDAYS_ONLY = True\n\n\n"));
    edit(join(dir, "README.md"), (s) => `${s}\n## Our deployment\n\nRuns on the desk's shared server.\n`);
    writeFileSync(join(dir, `src/${PKG}/lookup_tool.py`), '"""The developer\'s own tool."""\n\n\ndef lookup(term: str) -> str:\n    return term.upper()\n');
    const before = tree(dir);
    const plan = await runCli(["export", v2, "--target", target, "--out", dir, "--plan", "--json"]);
    expect(plan.code, plan.stderr).toBe(0);
    const files = JSON.parse(plan.stdout).update.files as Array<{ path: string; action: string }>;
    expect(files.find((f) => f.path === prompt.file)?.action).toBe("conflict");
    expect(files.find((f) => f.path === "README.md")?.action).toBe("merge");
    expect(files.some((f) => f.path.endsWith("lookup_tool.py"))).toBe(false);
    expect(tree(dir)).toEqual(before);
    const dry = await runCli(["export", v2, "--target", target, "--out", dir, "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("update plan for");
    const mixed = await runCli(["export", v2, "--target", target, "--out", dir, "--zip", join(work, "x.zip")]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("run --zip as a command of its own");
    const check = await runCli(["export", v2, "--target", target, "--out", dir, "--check"]);
    expect(check.code).toBe(3);
    expect(check.stdout).toContain("update plan for");
    expect(tree(dir)).toEqual(before);
  });

  it("the update: edits kept, both sides merged, the one conflict marked and listed (exit 4), the removed step's files gone", async () => {
    const prompt = PROMPT[target]!;
    const r = await runCli(["export", v2, "--target", target, "--out", dir]);
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.stdout).toMatch(new RegExp(`conflict +${prompt.file.replace(/\./g, "\\.")}`));
    expect(r.stdout.match(/^ {2}conflict /gm)).toHaveLength(1);
    const conflicted = readFileSync(join(dir, prompt.file), "utf8");
    expect(conflicted.split(MARKERS.yours).length - 1).toBe(1);
    expect(conflicted).toContain(prompt.mine);
    expect(conflicted).toContain("Keep it under 200 words, in plain English.");
    // Merged: the developer's lines and the export's changes, in the same files.
    const module = readFileSync(join(dir, MODULE[target]!), "utf8");
    expect(module).toContain("WEEKDAYS_ONLY = True");
    expect(module).not.toContain("<<<<<<<");
    expect(module).toMatch(/editor|Editor/);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme).toContain("## Our deployment");
    expect(readme).toContain("`editor`");
    expect(readme).not.toContain("`checker`");
    expect(readFileSync(join(dir, `src/${PKG}/lookup_tool.py`), "utf8")).toContain("The developer's own tool.");
    // The removed step's agent had a prompt file of its own (LangGraph); nobody edited it, so it is gone.
    if (target === "langgraph") {
      expect(existsSync(join(dir, `src/${PKG}/prompts/checker.txt`))).toBe(false);
      expect(existsSync(join(dir, `src/${PKG}/prompts/editor.txt`))).toBe(true);
    }
    const all = Object.keys(tree(dir));
    expect(all.filter((p) => /checker/i.test(p))).toEqual([]);
    expect(all.some((p) => p.startsWith(".envelope-update-"))).toBe(false);
    // The project is in step now: the record holds the new export.
    expect((await runCli(["export", v2, "--target", target, "--out", dir, "--check"])).code).toBe(0);
  });

  it.runIf(gate.run)("with the conflict resolved, the project's own tests pass on the real framework", () => {
    const prompt = join(dir, PROMPT[target]!.file);
    writeFileSync(prompt, takeYours(readFileSync(prompt, "utf8")));
    expect(readFileSync(prompt, "utf8")).not.toContain("<<<<<<<");
    const r = runPython(env!, dir, ["-m", "pytest", "-q", "-p", "no:cacheprovider"], { PYTHONPATH: join(dir, "src") });
    expect(r.code, r.output).toBe(0);
    rmSync(work, { recursive: true, force: true });
  }, 600_000);
});

// The work tree of a git repository is left for the developer to review: no commit, no staging.
describe("re-export into a git repository", () => {
  it("leaves the changes uncommitted and unstaged", async () => {
    const work = mkdtempSync(join(tmpdir(), "envelope-reexport-git-"));
    const dir = join(work, "project");
    writeFileSync(join(work, "v1.json"), definition(1));
    writeFileSync(join(work, "v2.json"), definition(2));
    expect((await runCli(["export", join(work, "v1.json"), "--target", "langgraph", "--out", dir])).code).toBe(0);
    const git = (...args: string[]) => execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { encoding: "utf8" });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "export");
    const head = git("rev-parse", "HEAD");
    expect((await runCli(["export", join(work, "v2.json"), "--target", "langgraph", "--out", dir])).code).toBe(0);
    expect(git("rev-parse", "HEAD")).toBe(head);
    expect(git("diff", "--cached", "--name-only")).toBe("");
    expect(git("status", "--porcelain")).toMatch(/ M README\.md/);
    rmSync(work, { recursive: true, force: true });
  });
});
