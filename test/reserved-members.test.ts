// An agent's or step's key becomes a method of the generated @CrewBase class (crew.py), so a
// key named like a member of its base class would replace that member: an agent keyed
// `package` replaced the class's TeamPackage, one keyed `embedder` the crews' embedder. The
// namer keeps every name the CrewAI target reserves (crewaiTarget.reservedMembers) apart;
// this test reads the members from the runtime's crew classes as CrewAI's @CrewBase wraps
// them (their annotated attributes, and those their __init__ sets), so a member the runtime
// adds is caught here, not by a team that hits it.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crewaiTarget } from "../src/targets/crewai/index.js";
import { e2eGate, ensureEnv, RUNTIME_LIBRARY, type PythonEnv } from "./e2e/python-env.js";

const gate = e2eGate();
const CREWAI = join(RUNTIME_LIBRARY, "src", "envelope_runtime", "crewai");

const PROBE = `
import json, os
os.environ.update(CREWAI_DISABLE_TELEMETRY="true", CREWAI_DISABLE_TRACKING="true", OTEL_SDK_DISABLED="true", CREWAI_TRACING_ENABLED="false")
from crewai.project import CrewBase
from envelope_runtime.crewai.delegation import HierarchyCrew
from envelope_runtime.crewai.steps import PipelineCrew
names = set()
for base in (HierarchyCrew, PipelineCrew):
    wrapped = CrewBase(type("Probe", (base,), {"__module__": __name__}))
    annotated = {n for k in wrapped.__mro__ for n in vars(k).get("__annotations__", {})}
    names |= {n for n in {*dir(wrapped), *annotated} if not n.startswith("_")}
print(json.dumps(sorted(names)))
`;

describe.runIf(gate.run)("the generated crew class's reserved members", () => {
  let env: PythonEnv;
  const dir = mkdtempSync(join(tmpdir(), "reserved-members-"));
  beforeAll(() => {
    env = ensureEnv("crewai", gate.python!);
  }, 1_800_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("hold every public member of the runtime's crew classes, and every attribute their objects set", () => {
    mkdirSync(join(dir, "config"));
    for (const f of ["agents.yaml", "tasks.yaml"]) writeFileSync(join(dir, "config", f), "{}\n");
    writeFileSync(join(dir, "probe.py"), PROBE);
    const r = spawnSync(env.python, [join(dir, "probe.py")], {
      cwd: dir,
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: dir, PYTHONPATH: join(RUNTIME_LIBRARY, "src"), PYTHONDONTWRITEBYTECODE: "1" },
      timeout: 300_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const members = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as string[];
    // the modules of the crew classes' bases (TeamCrewBase, HierarchyCrew, PipelineCrew)
    const set = ["crew_base.py", "delegation.py", "steps.py"]
      .flatMap((f) => [...readFileSync(join(CREWAI, f), "utf8").matchAll(/\bself\.([a-z][a-z0-9_]*)\s*(?::[^=\n]*)?=(?!=)/g)].map((m) => m[1]!));
    expect(members.length).toBeGreaterThan(10);
    expect([...new Set([...members, ...set])].filter((name) => !crewaiTarget.reservedMembers.has(name)).sort()).toEqual([]);
  }, 300_000);
});
