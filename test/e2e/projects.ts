// End to end, for any Python target: every valid definition is exported, installed into the
// target's cached virtual environment (python/<lock>.lock), linted with ruff, and its own
// generated test suite is run on the real framework, offline.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeDirectory } from "../../src/export/sinks/directory.js";
import { ROOT } from "../helpers/cli.js";
import { connectionDefinitions, exportFile, validDefinitions } from "../helpers/export.js";
import { e2eGate, ensureEnv, installProject, type PythonEnv } from "./python-env.js";
import { normalize } from "../../src/model/index.js";
import { CONNECTION_TESTS, supportSuite, supportSuiteDefinitions } from "./support-suite.js";

export function runPython(env: PythonEnv, cwd: string, args: string[], extraEnv: Record<string, string> = {}): { code: number; output: string } {
  const r = spawnSync(env.python, args, {
    cwd,
    encoding: "utf8",
    env: { PATH: `${env.bin}:${process.env.PATH}`, HOME: process.env.HOME, CI: "true", NO_COLOR: "1", PYTHONDONTWRITEBYTECODE: "1", ...extraEnv },
    // a support suite's resumes in new processes import the framework each time: minutes on a loaded machine
    timeout: 600_000,
  });
  return { code: r.status ?? -1, output: `${r.stdout}\n${r.stderr}` };
}

export function describeProjectsOnFramework(target: string, title: string): void {
  const gate = e2eGate();
  const withSupport = supportSuiteDefinitions(validDefinitions().map(({ name, path }) => ({ name, model: normalize(readFileSync(path)).model! })));
  const work = mkdtempSync(join(tmpdir(), `envelope-e2e-${target}-`));

  describe.runIf(gate.run)(`${title} projects on real ${title}`, () => {
    let env: PythonEnv;
    beforeAll(() => {
      env = ensureEnv(target, gate.python!);
    }, 1_800_000);

    it.each(validDefinitions())("$name: installs, lints clean, and its tests pass", async ({ name, path }) => {
      const dir = join(work, name);
      const files = exportFile(path, target);
      await writeDirectory(files, dir);
      installProject(env, dir);
      for (const args of [["-m", "ruff", "check", "--no-cache", "."], ["-m", "ruff", "format", "--check", "--no-cache", "."], ["-m", "pytest", "-q", "-p", "no:cacheprovider"]]) {
        const r = runPython(env, dir, args);
        expect(r.code, `${name}: python ${args.join(" ")}\n${r.output}`).toBe(0);
        // An export whose support code is tested here ships only its team's tests, none skipped.
        if (args.includes("pytest") && supportSuite(target, "")) expect(r.output, `${name}: the export's own tests skip nothing`).not.toMatch(/\d+ skipped/);
      }
      const pkg = files.paths().map((p) => /^src\/([^/]+)\/__init__\.py$/.exec(p)?.[1]).find(Boolean)!;
      const support = withSupport.has(name) ? supportSuite(target, pkg) : undefined;
      if (support) {
        const r = runPython(env, dir, support.args, support.env);
        expect(r.code, `${name}: the support code's tests, python ${support.args.join(" ")}\n${r.output}`).toBe(0);
      }
    }, 1_200_000);

    // Exports with connection packs (--connections): their own tests, and python-common's suite,
    // whose connection tests (the apiHosts vectors, connections.py) skip for every other export.
    // A hierarchy too, the pack given to its top manager (CrewAI: held by its "Requests"
    // worker). Each with the target's support suite: helpdesk-triage is the only team of one
    // agent and the only one with an MCP pack, whose tools the fake models must leave alone.
    const hierarchy = { name: "incident-response-crew", path: join(ROOT, "test/fixtures/valid/incident-response-crew.envelope.json"), packs: [join(ROOT, "test/fixtures/connections/helpdesk")], explicit: [{ agent: "incident-commander", provider: "helpdesk" }] };
    it.each([...connectionDefinitions().map((d) => ({ ...d, explicit: [] as Array<{ agent: string; provider: string }> })), hierarchy])("$name with connection packs: installs, lints clean, its tests and python-common's pass", async ({ name, path, packs, explicit }) => {
      const dir = join(work, `connections-${name}`);
      const files = exportFile(path, target, packs, explicit);
      await writeDirectory(files, dir);
      installProject(env, dir);
      for (const args of [["-m", "ruff", "check", "--no-cache", "."], ["-m", "ruff", "format", "--check", "--no-cache", "."], ["-m", "pytest", "-q", "-p", "no:cacheprovider"]]) {
        const r = runPython(env, dir, args);
        expect(r.code, `${name}: python ${args.join(" ")}\n${r.output}`).toBe(0);
      }
      const pkg = files.paths().map((p) => /^src\/([^/]+)\/__init__\.py$/.exec(p)?.[1]).find(Boolean)!;
      // The MCP tests skip for a team without an MCP pack (the hierarchy's has an OpenAPI one only).
      const hasMcp = !new TextDecoder().decode(files.get(`src/${pkg}/team.py`)!.bytes).includes("MCP_SERVERS: dict[str, McpServer] = {}");
      const r = runPython(env, dir, ["-m", "pytest", "-q", "-p", "no:cacheprovider", ...CONNECTION_TESTS], { ENVELOPE_PACKAGE: pkg });
      expect(r.code, `${name}: the connection tests\n${r.output}`).toBe(0);
      expect(r.output).toMatch(hasMcp ? /^\d+ passed\b(?!.*skipped)/m : /^\d+ passed, 1 skipped\b/m);
      const support = supportSuite(target, pkg);
      if (support) {
        const suite = runPython(env, dir, support.args, support.env);
        expect(suite.code, `${name}: the support code's tests with a pack, python ${support.args.join(" ")}\n${suite.output}`).toBe(0);
      }
    }, 600_000);
  });
}
