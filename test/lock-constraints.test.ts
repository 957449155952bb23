// Exported projects carry the versions our own tests ran (python/<target>.lock) as uv
// constraints, so `uv sync` reproduces them on the lock's Python and platform.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeDirectory } from "../src/export/sinks/directory.js";
import { lockConstraints, parseLock } from "../src/targets/python-common/lock-constraints.js";
import { e2eGate, uvBinary } from "./e2e/python-env.js";
import { exportFile } from "./helpers/export.js";
import { ROOT } from "./helpers/cli.js";

const HEADER = "#    uv pip compile x.in --python-version 3.12 --python-platform x86_64-manylinux_2_28 --generate-hashes -o x.lock\n";

function pins(target: string): Map<string, string> {
  const text = readFileSync(join(ROOT, "python", `${target}.lock`), "utf8");
  return new Map([...text.matchAll(/^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)/gm)].map((m) => [m[1]!.toLowerCase().replace(/[-_.]+/g, "-"), m[2]!]));
}

describe("lock constraints", () => {
  it("reads the pins, the Python version and the platform of a uv pip compile lock", () => {
    const lock = parseLock(`${HEADER}a-b==1.2 \\\n    --hash=sha256:00\nc_d==3.0.post1 ; python_version < '4'\n`, "x.lock");
    expect(lock.where).toBe("Python 3.12 on Linux x86_64");
    const marker = "python_version == '3.12' and sys_platform == 'linux' and platform_machine == 'x86_64'";
    expect(lock.constraints).toEqual([`a-b==1.2; ${marker}`, `c_d==3.0.post1; ${marker}`]);
    expect(() => parseLock("a==1\n", "y.lock")).toThrow("y.lock: the header names no --python-version");
  });

  it.each(["crewai", "langgraph"])("%s: pyproject.toml constrains every package the e2e environment pins", (target) => {
    const pyproject = exportFile(join(ROOT, "examples/support-tier.envelope.json"), target).get("pyproject.toml")!;
    const text = new TextDecoder().decode(pyproject.bytes);
    const listed = [...text.matchAll(/^ {4}"([A-Za-z0-9._-]+)==([^;"]+); python_version == '3\.11' and sys_platform == 'linux' and platform_machine == 'x86_64'",$/gm)];
    expect(new Map(listed.map((m) => [m[1]!.toLowerCase().replace(/[-_.]+/g, "-"), m[2]!]))).toEqual(pins(target));
    expect(lockConstraints(target).constraints).toHaveLength(listed.length);
  });
});

const gate = e2eGate();
describe.runIf(gate.run)("lock constraints with uv", () => {
  it.each(["crewai", "langgraph"])("%s: the README's uv sync installs exactly the pinned versions on Python 3.11", async (target) => {
    const dir = join(mkdtempSync(join(tmpdir(), `envelope-uvsync-${target}-`)), "p");
    await writeDirectory(exportFile(join(ROOT, "examples/support-tier.envelope.json"), target), dir);
    // Installed here if no other suite has yet: on a first run this file may come first.
    const uv = uvBinary(gate.python!);
    const env = { ...process.env, UV_NO_PROGRESS: "1", VIRTUAL_ENV: "" };
    execFileSync(uv, ["sync", "--quiet", "--extra", "dev", "--python", gate.python!], { cwd: dir, timeout: 280_000, env });
    const frozen = execFileSync(uv, ["pip", "freeze", "--python", join(dir, ".venv", "bin", "python")], { cwd: dir, encoding: "utf8", env });
    const installed = new Map([...frozen.matchAll(/^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$/gm)].map((m) => [m[1]!.toLowerCase().replace(/[-_.]+/g, "-"), m[2]!]));
    const pinned = pins(target);
    const differing = [...installed].filter(([name, version]) => pinned.has(name) && pinned.get(name) !== version);
    expect([...installed.keys()].filter((name) => pinned.has(name)).length).toBeGreaterThan(40);
    expect(differing).toEqual([]);
  }, 300_000);
});
