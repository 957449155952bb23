// The workspace store's own tests (python/envelope-runtime/tests/workspace/, issue 19), on the module as it
// sits in templates/python-common/static, on both of its backends: LangGraph's pinned
// environment has both (stdlib SQLite, CrewAI's; LangGraph's SqliteStore), and
// `importorskip` must not skip there. The exports' own tests and test/realpath/workspace*.test.ts
// run it as exported.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { e2eGate, ensureEnv, type PythonEnv } from "./e2e/python-env.js";

const gate = e2eGate();
const ROOT = fileURLToPath(new URL("../", import.meta.url));

describe.runIf(gate.run)("the workspace store's rules, on both backends", () => {
  let env: PythonEnv;
  beforeAll(() => {
    env = ensureEnv("langgraph", gate.python!);
  }, 1_800_000);

  // The SQL backend (CrewAI's DATABASE_URL, SQLAlchemy) is not in the LangGraph environment: its
  // cases skip here and run in CrewAI's (tests/crewai/test_database.py, the e2e suite).
  it("pass, none skipped but the SQL backend's", () => {
    const r = spawnSync(env.python, ["-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "python/envelope-runtime/tests/workspace"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { PATH: `${env.bin}:${process.env.PATH}`, HOME: process.env.HOME, CI: "true", NO_COLOR: "1", PYTHONDONTWRITEBYTECODE: "1" },
      timeout: 300_000,
    });
    const output = `${r.stdout}\n${r.stderr}`;
    expect(r.status, output).toBe(0);
    expect(output).toMatch(/\d+ passed/);
    const skips = output.split("\n").filter((line) => line.startsWith("SKIPPED"));
    expect(skips.filter((line) => !/could not import 'sqlalchemy'|no ENVELOPE_TEST_DATABASE_URL/.test(line))).toEqual([]);
  }, 300_000);
});
