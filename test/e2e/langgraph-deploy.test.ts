// Issue 39: a LangGraph export deploys on the self-hosted Agent Server with no edit. For every
// definition we ship: `langgraph dockerfile` (langgraph-cli of python/langgraph.lock) turns the
// export's langgraph.json into a Dockerfile whose base image is the langgraph-api this repository
// serves the team with, and which installs exactly uv.lock's versions (the Dockerfile's own
// `uv export` is run here on the files it ADDs, and every requirement it installs is compared
// with uv.lock), before the CLI installs the project itself; and compose.yaml validates against
// the Compose Specification's JSON Schema (test/fixtures/compose-spec/, vendored), with the
// server's environment named as LangGraph's self-hosting guide names it. No Docker here: the
// files are read, not built.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Ajv as AjvClass } from "ajv";
import { describe, expect, it } from "vitest";
import { exportDefinition } from "../../src/export/export.js";
import { writeDirectory } from "../../src/export/sinks/directory.js";
import { TARGETS } from "../../src/targets/index.js";
import { connectionDefinitions, exportFile, validDefinitions } from "../helpers/export.js";
import { ROOT } from "../helpers/cli.js";
import { cacheRoot, e2eGate, ensureEnv, type PythonEnv, uvBinary } from "./python-env.js";

const gate = e2eGate();
const require = createRequire(import.meta.url);
const cases = [...validDefinitions().map((d) => ({ ...d, packs: undefined as string[] | undefined })), ...connectionDefinitions().map((d) => ({ ...d, name: `connections-${d.name}` }))];

const normalize = (name: string) => name.replace(/[-_.]+/g, "-").toLowerCase();
/** python/langgraph.lock's pins: the versions this repository's tests ran. */
const LOCK_PINS = new Map([...readFileSync(join(ROOT, "python", "langgraph.lock"), "utf8").matchAll(/^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)/gm)].map((m) => [normalize(m[1]!), m[2]!]));
/** Only the dev group brings these (tests, linter, `langgraph dev`): never in the image. */
const DEV_ONLY = ["pytest", "ruff", "langgraph-cli", "langgraph-api", "langgraph-runtime-inmem"];

/** uv.lock's packages: name → versions (a name the lock forks by marker has several). */
function lockVersions(text: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const m of text.matchAll(/^\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"/gm)) found.set(m[1]!, (found.get(m[1]!) ?? new Set()).add(m[2]!));
  return found;
}

/** The Compose schema's complaints about `data` (none: it validates). */
function compose(): (data: unknown) => string[] {
  const Ajv = (require("ajv") as { default: new (o: object) => AjvClass }).default;
  const schema = JSON.parse(readFileSync(join(ROOT, "test/fixtures/compose-spec/compose-spec.json"), "utf8")) as Record<string, unknown>;
  // Draft-07 is ajv's default; the schema names it by an https address ajv does not know.
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, logger: false });
  const validate = ajv.compile({ ...schema, $schema: undefined });
  return (data) => (validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
}

/** YAML → JSON with the PyYAML the environment has (the repository has no YAML parser of its own). */
function yamlToJson(env: PythonEnv, path: string): unknown {
  const r = spawnSync(join(env.bin, "python"), ["-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8'))))", path], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

/**
 * `langgraph validate` and `langgraph dockerfile` on the export in `dir`; the Dockerfile's
 * checks that hold for every export; and what its uv.lock step installs: the Dockerfile's own
 * `uv export`, run in `stage` on the two files it ADDs, each requirement checked against
 * uv.lock and python/langgraph.lock.
 */
function imageInstall(env: PythonEnv, dir: string, stage: string): { dockerfile: string; installed: Map<string, string>; requirements: string } {
  const apiVersion = LOCK_PINS.get("langgraph-api")!;
  // --- the Dockerfile, as langgraph-cli writes it from the export's langgraph.json (valid)
  const checked = spawnSync(join(env.bin, "langgraph"), ["validate", "-c", "langgraph.json"], { cwd: dir, encoding: "utf8", env: { ...process.env, LANGGRAPH_CLI_NO_ANALYTICS: "1" } });
  expect(checked.status, `${checked.stdout}\n${checked.stderr}`).toBe(0);
  expect(`${checked.stdout}\n${checked.stderr}`, "langgraph validate warns of nothing").not.toMatch(/warning/i);
  const made = spawnSync(join(env.bin, "langgraph"), ["dockerfile", "-c", "langgraph.json", "Dockerfile"], { cwd: dir, encoding: "utf8", env: { ...process.env, LANGGRAPH_CLI_NO_ANALYTICS: "1" } });
  expect(made.status, `${made.stdout}\n${made.stderr}`).toBe(0);
  const dockerfile = readFileSync(join(dir, "Dockerfile"), "utf8");
  const lines = dockerfile.split("\n");
  expect(lines[0]).toBe(`FROM langchain/langgraph-api:${apiVersion}-py3.11`);
  // Every file it ADDs is in the export.
  for (const m of dockerfile.matchAll(/^ADD (.+) (\S+)$/gm)) for (const source of m[1]!.split(" ")) expect(existsSync(join(dir, source)), `${source} in ${dir}`).toBe(true);
  const add = lines.indexOf("ADD pyproject.toml uv.lock /tmp/uv-lock/");
  const run = lines.findIndex((l) => l.startsWith("RUN cd /tmp/uv-lock && uv export "));
  const local = lines.findIndex((l) => l.includes("-- Installing all local dependencies --"));
  expect(add, dockerfile).toBeGreaterThan(0);
  expect(run).toBe(add + 1);
  expect(local, "uv.lock's packages are installed before the project's own -e .").toBeGreaterThan(run);
  const [exportCommand, install] = lines[run]!.replace("RUN cd /tmp/uv-lock && ", "").split(" && ");
  expect(lines[run]).toContain("uv pip install --system --no-cache-dir -c /api/constraints.txt -r requirements.txt");
  expect(install).toContain("-r requirements.txt");

  // The Dockerfile's own `uv export`, on the two files it ADDs and nothing else.
  mkdirSync(stage);
  for (const f of ["pyproject.toml", "uv.lock"]) copyFileSync(join(dir, f), join(stage, f));
  const exported = spawnSync(uvBinary(gate.python!), exportCommand!.split(" ").slice(1), {
    cwd: stage,
    encoding: "utf8",
    env: { ...process.env, UV_CACHE_DIR: join(cacheRoot(), "uv-cache"), UV_OFFLINE: "1", UV_PYTHON_DOWNLOADS: "never", NO_COLOR: "1" },
  });
  expect(exported.status, exported.stderr).toBe(0);
  const requirements = readFileSync(join(stage, "requirements.txt"), "utf8");
  const lock = lockVersions(readFileSync(join(dir, "uv.lock"), "utf8"));
  const installed = new Map<string, string>();
  for (const line of requirements.split("\n")) {
    if (line === "" || line.startsWith("#") || line.startsWith(" ") || line.startsWith("--")) continue; // comments, indexes
    const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+?)(?: ;.*)?$/.exec(line);
    expect(m, `an exact pin: ${line}`).not.toBeNull();
    installed.set(normalize(m![1]!), m![2]!);
  }
  for (const [pkg, version] of installed) {
    expect(lock.get(pkg), `${pkg} in uv.lock`).toBeDefined();
    expect([...lock.get(pkg)!], `${pkg}==${version} is uv.lock's`).toContain(version);
    if (LOCK_PINS.has(pkg)) expect(version, `${pkg}: python/langgraph.lock's version`).toBe(LOCK_PINS.get(pkg));
  }
  return { dockerfile, installed, requirements };
}

describe.runIf(gate.run)("LangGraph exports on the Agent Server: the Dockerfile and compose.yaml", () => {
  const work = mkdtempSync(join(tmpdir(), "envelope-lgdeploy-"));
  const complaints = compose();

  it("the Compose schema check can fail: a compose.yaml with an unknown depends_on condition is refused", async () => {
    const env = ensureEnv("langgraph", gate.python!);
    const dir = join(work, "refused");
    await writeDirectory(exportFile(join(ROOT, "examples/support-tier.envelope.json"), "langgraph"), dir);
    const data = yamlToJson(env, join(dir, "compose.yaml")) as { services: Record<string, { depends_on: Record<string, { condition: string }> }> };
    expect(complaints(data)).toEqual([]);
    data.services["langgraph-api"]!.depends_on["langgraph-redis"]!.condition = "service_ready";
    expect(complaints(data)).toContain("/services/langgraph-api/depends_on/langgraph-redis/condition must be equal to one of the allowed values");
  }, 900_000);

  it("--runtime index: the library is one of uv.lock's requirements, from the index the export names", async () => {
    const env = ensureEnv("langgraph", gate.python!);
    const dir = join(work, "index-support-tier");
    const index = "https://pkgs.example.org/simple";
    const result = exportDefinition(readFileSync(join(ROOT, "examples/support-tier.envelope.json")), TARGETS.langgraph!, { runtime: { mode: "index", indexUrl: index } });
    await writeDirectory(result.files!, dir);
    const { dockerfile, installed, requirements } = imageInstall(env, dir, join(work, "index-support-tier-image"));
    expect(installed.get("envelope-runtime")).toBe(JSON.parse(readFileSync(join(ROOT, "python/envelope-runtime.dist.json"), "utf8")).version);
    expect(requirements).toContain(`--extra-index-url ${index}`);
    expect(dockerfile).not.toContain("vendor/envelope-runtime");
  }, 900_000);

  it.each(cases)("$name", async ({ name, path, packs }) => {
    const env = ensureEnv("langgraph", gate.python!);
    const dir = join(work, name);
    await writeDirectory(exportFile(path, "langgraph", packs), dir);
    const { dockerfile, installed } = imageInstall(env, dir, join(work, `${name}-image`));
    for (const pkg of ["langgraph", "langchain", "langchain-core", "langgraph-checkpoint", "langgraph-sdk", "pydantic"]) expect(installed.get(pkg), pkg).toBe(LOCK_PINS.get(pkg));
    for (const pkg of DEV_ONLY) expect(installed.has(pkg), `${pkg} (dev group) in the image`).toBe(false);
    // The vendored library is the CLI's local package, from the export's own folder.
    expect(installed.has("envelope-runtime")).toBe(false);
    expect(dockerfile).toContain("ADD ./vendor/envelope-runtime /deps/envelope-runtime");

    // --- compose.yaml: the Compose Specification's schema, and the self-hosting guide's names
    const data = yamlToJson(env, join(dir, "compose.yaml")) as { services: Record<string, { image?: string; environment?: Record<string, string>; env_file?: string[] }> };
    expect(complaints(data), `${name}/compose.yaml against the Compose schema`).toEqual([]);
    const api = data.services["langgraph-api"]!;
    expect(Object.keys(data.services).sort()).toEqual(["langgraph-api", "langgraph-postgres", "langgraph-redis"]);
    expect(api.environment!.REDIS_URI).toBe("redis://langgraph-redis:6379");
    expect(api.environment!.DATABASE_URI).toMatch(/^postgres:\/\/postgres:\$\{POSTGRES_PASSWORD:-postgres\}@langgraph-postgres:5432\/postgres\?sslmode=disable$/);
    expect(api.env_file).toEqual([".env"]);
    // The image compose runs is the one the README builds.
    const image = /^\$\{IMAGE_NAME:-([a-z0-9_]+)\}$/.exec(api.image!)![1]!;
    expect(readFileSync(join(dir, "README.md"), "utf8")).toContain(`langgraph build -t ${image}`);
    const example = readFileSync(join(dir, ".env.example"), "utf8");
    for (const variable of ["LANGSMITH_API_KEY", "LANGGRAPH_CLOUD_LICENSE_KEY", "POSTGRES_PASSWORD", "IMAGE_NAME"]) expect(example, variable).toMatch(new RegExp(`^#? ?${variable}=`, "m"));
  }, 900_000);
});
