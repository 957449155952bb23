// A PostgreSQL server for the tests of the LangGraph runner on PostgreSQL (DATABASE_URL).
// ENVELOPE_TEST_DATABASE_URL names one (.ci/run starts Debian's `postgresql` on 127.0.0.1 and
// sets it); otherwise a throwaway cluster is made with the machine's initdb and pg_ctl (on
// PATH, or Debian's /usr/lib/postgresql/<version>/bin), in a temporary directory, on a free
// loopback port, run as the `postgres` user when the tests run as root (PostgreSQL refuses
// root), and stopped by `stop()`. Without either the tests are skipped with a loud message,
// except under CI=true, where that fails the run. A test's own databases on it: ownDatabases.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../helpers/free-port.js";

export interface TestDatabase {
  url: string;
  stop: () => void;
}

function postgresBin(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) return dir;
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian) ? readdirSync(debian).sort((a, b) => Number(b) - Number(a)) : [];
  return versions.map((v) => join(debian, v, "bin")).find((dir) => existsSync(join(dir, "initdb")));
}

/** The server's URL, or undefined (after a loud message) when there is none to be had. */
export async function testDatabase(): Promise<TestDatabase | undefined> {
  const given = process.env.ENVELOPE_TEST_DATABASE_URL;
  if (given) return { url: given, stop: () => {} };
  const bin = postgresBin();
  if (bin === undefined) {
    const message = "\n!!! PostgreSQL tests SKIPPED: no ENVELOPE_TEST_DATABASE_URL and no initdb/pg_ctl (install Debian's postgresql)\n";
    if (process.env.CI === "true") throw new Error(message + "CI=true: refusing to skip.");
    process.stderr.write(message);
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), "envelope-postgres-"));
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) =>
    asRoot ? execFileSync("runuser", ["-u", "postgres", "--", join(bin, tool), ...args], { stdio: "pipe" }) : execFileSync(join(bin, tool), args, { stdio: "pipe" });
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  run("initdb", ["-D", data, "-A", "trust", "-U", "envelope", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  run("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-w", "-o", `-h 127.0.0.1 -p ${port} -k ${dir} -F`, "start"]);
  return {
    url: `postgresql://envelope@127.0.0.1:${port}/postgres`,
    stop: () => {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Databases a test makes on the server, each a team's DATABASE_URL: `create` one more, `dropAll` in afterAll. */
export interface OwnDatabases {
  /** A new, empty database named after `label` (lowercase letters, digits, _): its URL, libpq's form as a host gives it. */
  create: (label: string) => string;
  /** Drops every database `create` made (connections still open to one are ended). */
  dropAll: () => void;
}

/** Databases of a test's own on the server at `server` (TestDatabase.url), made and dropped through psycopg in the Python `python` (both targets' environments have it). */
export function ownDatabases(python: string, server: string): OwnDatabases {
  const made: string[] = [];
  const sql = (statement: string) => execFileSync(python, ["-c", "import psycopg, sys\nwith psycopg.connect(sys.argv[1], autocommit=True) as c:\n    c.execute(sys.argv[2])", server, statement], { stdio: "pipe" });
  return {
    create(label) {
      // Unique per process and call: a database left by a killed run is never reused.
      const name = `envelope_${label}_${process.pid}_${made.length}_${Date.now().toString(36)}`;
      sql(`CREATE DATABASE ${name}`);
      made.push(name);
      const url = new URL(server);
      url.pathname = `/${name}`;
      return url.toString();
    },
    dropAll() {
      for (const name of made.splice(0)) sql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
