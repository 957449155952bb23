// Issue 39: a person works on a served team's workspace from any machine. `workspace --url`
// reads and writes the rows in the Agent Server's own store (langgraph-sdk's store API,
// workspace_store.ServerStore), under the same rules as the agents' tools: a row written with
// it is what the server's store API returns, a stale --version is refused as a conflict, the
// listing shows the server's rows, and no workspace file is made where the command runs.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Definition, exportedProject, runTeam, runValues } from "./harness.js";
import { type DevServer, startLanggraphDev } from "./langgraph-dev-server.js";

const gate = e2eGate();

describe.runIf(gate.run)("workspace --url: the served team's rows, from the command line", () => {
  let env: PythonEnv;
  let dev: DevServer | undefined;
  beforeAll(() => {
    env = ensureEnv("langgraph", gate.python!);
  }, 1_800_000);
  afterAll(() => dev?.stop());

  it("edit, conflict and list go to the server's store", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "envelope-realpath-ws-url-")), "event-signup-desk");
    const { def, pkg } = await exportedProject<Definition>(join(ROOT, "test/fixtures/valid/event-signup-desk.envelope.json"), "langgraph", dir);
    const { env: values } = runValues(def);
    dev = await startLanggraphDev(env, dir, values);
    const url = dev.url;
    const workspace = (args: string[]) => runTeam(env, dir, pkg, ["workspace", ...args], {});

    const edited = await workspace(["--url", url, "edit", "speaker-queue", "T9", "title=Rust at scale", "duration_min=30"]);
    expect(edited.code, edited.stderr).toBe(0);
    expect(edited.stdout).toContain("T9: written (version 1)");
    const stored = (await (await fetch(`${url}/store/items?namespace=envelope_workspace.speaker-queue&key=T9`)).json()) as { value: { version: number; data: Record<string, unknown> } };
    expect(stored.value.version).toBe(1);
    expect(stored.value.data).toMatchObject({ talk_id: "T9", title: "Rust at scale", duration_min: 30 });

    const stale = await workspace([`--url=${url}`, "edit", "speaker-queue", "T9", "title=Later", "--version", "5"]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("T9: conflict");
    const again = await workspace(["--url", url, "edit", "speaker-queue", "T9", "title=Rust at scale, again", "--version", "1"]);
    expect(again.stdout, again.stderr).toContain("T9: written (version 2)");

    const listed = await workspace(["list", "speaker-queue", "--url", url]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^T9 v2 .*title="Rust at scale, again"/m);
    // Nothing of it here: no workspace file, and without --url the local store has no such row.
    expect(existsSync(join(dir, ".envelope-workspace.sqlite3"))).toBe(false);
    const local = await workspace(["list", "speaker-queue"]);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout).not.toContain("T9");
    expect(dev.log()).not.toMatch(/Traceback/);
  }, 900_000);
});
