// The workspace store's own tests (python/envelope-runtime/tests/workspace/, issue 19) on the
// library's module, each backend in the environment that has its package: the stdlib SQLite
// one in both, LangGraph's BaseStore ones (InMemoryStore, SqliteStore) in LangGraph's pinned
// environment, the SQL one (CrewAI's DATABASE_URL through SQLAlchemy: SQLite, and PostgreSQL
// when ENVELOPE_TEST_DATABASE_URL names a server, as in CI) in CrewAI's. The exports' own
// tests and test/realpath/workspace*.test.ts run it as exported.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { e2eGate, ensureEnv, type PythonEnv } from "./e2e/python-env.js";

const gate = e2eGate();
const ROOT = fileURLToPath(new URL("../", import.meta.url));

// Each backend needs its framework's environment: the BaseStore ones LangGraph's, the SQL one
// (CrewAI's DATABASE_URL, SQLAlchemy) CrewAI's. Run in both, a case may skip only for the
// other environment's package, or for PostgreSQL when no server is named (outside CI).
const OTHERS: Record<string, RegExp> = { langgraph: /could not import 'sqlalchemy'/, crewai: /could not import 'langgraph\./ };

describe.runIf(gate.run).each(["langgraph", "crewai"])("the workspace store's rules, in the %s environment", (target) => {
  let env: PythonEnv;
  beforeAll(() => {
    env = ensureEnv(target, gate.python!);
  }, 1_800_000);

  it("pass, none skipped but another environment's backends", () => {
    const r = spawnSync(env.python, ["-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "python/envelope-runtime/tests/workspace"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { PATH: `${env.bin}:${process.env.PATH}`, HOME: process.env.HOME, CI: "true", NO_COLOR: "1", PYTHONDONTWRITEBYTECODE: "1", ...(process.env.ENVELOPE_TEST_DATABASE_URL ? { ENVELOPE_TEST_DATABASE_URL: process.env.ENVELOPE_TEST_DATABASE_URL } : {}) },
      timeout: 300_000,
    });
    const output = `${r.stdout}\n${r.stderr}`;
    expect(r.status, output).toBe(0);
    expect(output).toMatch(/\d+ passed/);
    const noServer = process.env.CI === "true" ? /$^/ : /no ENVELOPE_TEST_DATABASE_URL/;
    const skips = output.split("\n").filter((line) => line.startsWith("SKIPPED"));
    expect(skips.filter((line) => !OTHERS[target]!.test(line) && !noServer.test(line))).toEqual([]);
  }, 300_000);
});
