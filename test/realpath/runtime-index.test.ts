// Issue 36, index mode end to end: envelope-runtime built by scripts/build-runtime.mjs from this
// checkout, served by a PEP 503 index of ours on 127.0.0.1 (test/helpers/package-index.ts), and
// one export per target made with `--runtime index --runtime-index <that index>`. The export
// carries the pin and the index, no vendored copy; it installs with its README's install command
// (envelope-runtime from our index, every other package from the default one, through uv's
// usual cache), passes its own tests with its README's test command, and its README's run
// command runs the team against the scripted model server (realpath harness), prompts byte for
// byte. Each project has its own .venv, as a developer's would: nothing from the cached test
// environments or from this checkout's python/ is imported.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { e2eGate, RUNTIME_LIBRARY, uvBinary } from "../e2e/python-env.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { type PackageIndex, startPackageIndex } from "../helpers/package-index.js";
import { type Definition, expectedPrompt, type Invocation, runArgs, scriptedReply, serverRun, systemText } from "./harness.js";
import { type ChatRequest, type ModelServer, startModelServer } from "./model-server.js";

const FIXTURE = join(ROOT, "test/fixtures/valid/chargeback-responder.envelope.json");
const PYPROJECT = readFileSync(join(RUNTIME_LIBRARY, "pyproject.toml"), "utf8");
const VERSION = /^version\s*=\s*"([^"]+)"/m.exec(PYPROJECT)![1]!;
const REQUIRES_PYTHON = /^requires-python\s*=\s*"([^"]+)"/m.exec(PYPROJECT)![1]!;
const WHEEL = `envelope_runtime-${VERSION}-py3-none-any.whl`;
const SDIST = `envelope_runtime-${VERSION}.tar.gz`;

const gate = e2eGate();

/** The first ```sh block of a README section (`## Install`), as the words of its one command. */
function readmeCommand(readme: string, heading: string): string[] {
  const at = readme.indexOf(`\n## ${heading}\n`);
  expect(at, `README has no "## ${heading}"`).toBeGreaterThanOrEqual(0);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at))?.[1]?.trim();
  expect(block, `no sh block under "## ${heading}"`).toBeDefined();
  expect(block!.split("\n"), `one command under "## ${heading}"`).toHaveLength(1);
  return block!.split(/\s+/);
}

describe.runIf(gate.run)("--runtime index: an export installs envelope-runtime from a local index serving this checkout's build", () => {
  const work = mkdtempSync(join(tmpdir(), "envelope-runtime-index-"));
  let uv: string;
  let index: PackageIndex;
  /** The real interpreter behind gate.python (a pyenv shim needs the real HOME, which runs here do not have). */
  let python: string;
  /** uv's own cache, where the test environments' packages already are (the runs get another HOME). */
  let uvCache: string;

  beforeAll(async () => {
    uv = uvBinary(gate.python!);
    python = execFileSync(gate.python!, ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
    uvCache = execFileSync(uv, ["cache", "dir"], { encoding: "utf8" }).trim();
    const built = join(work, "dist");
    const r = spawnSync(process.execPath, [join(ROOT, "scripts", "build-runtime.mjs"), built], { encoding: "utf8", env: { ...process.env, UV: uv } });
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(built).sort()).toEqual([WHEEL, SDIST].sort());
    index = await startPackageIndex([WHEEL, SDIST].map((f) => ({ path: join(built, f), requiresPython: REQUIRES_PYTHON })));
  }, 300_000);
  afterAll(async () => {
    await index?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /**
   * What reaching the indexes needs from this machine's environment: its certificates (a TLS
   * proxy's CA), proxies, and the developer's uv settings (a mirror) other than those the
   * runs set. Nothing else: no model key or Python setting of the caller reaches a run.
   */
  function network(): Record<string, string> {
    const keep = /^(SSL_CERT_FILE|SSL_CERT_DIR|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|(HTTPS?|ALL|NO)_PROXY|UV_.*)$/i;
    const set = new Set(["UV_CACHE_DIR", "UV_PYTHON", "UV_PYTHON_DOWNLOADS", "UV_PROJECT_ENVIRONMENT", "UV_NO_SYNC", "UV_OFFLINE", "UV_FROZEN", "UV_LOCKED", "UV_SYSTEM_PYTHON", "UV_NO_CONFIG"]);
    return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && keep.test(e[0]) && !set.has(e[0].toUpperCase())));
  }

  /** A command in the project folder, the way a developer runs the README's: uv on PATH, the project's own .venv. */
  function inProject(dir: string, argv: string[], extra: Record<string, string> = {}, timeoutMs = 900_000): Promise<Invocation> {
    const home = join(dir, ".home");
    mkdirSync(home, { recursive: true });
    const command = argv[0] === "uv" ? uv : argv[0]!;
    const child = spawn(command, argv.slice(1), {
      cwd: dir,
      env: {
        ...network(),
        PATH: `${dirname(uv)}:${process.env.PATH}`,
        HOME: home,
        XDG_DATA_HOME: join(home, "data"),
        UV_CACHE_DIR: uvCache,
        UV_PYTHON: python,
        UV_PYTHON_DOWNLOADS: "never",
        NO_COLOR: "1",
        // Bytecode written as on a developer's machine, outside the project: the run command
        // then imports the framework its tests compiled (uv sync --locked installs none).
        PYTHONPYCACHEPREFIX: join(work, "pycache"),
        CREWAI_DISABLE_TELEMETRY: "true",
        CREWAI_DISABLE_TRACKING: "true",
        CREWAI_TRACING_ENABLED: "false",
        CREWAI_DISABLE_VERSION_CHECK: "true",
        OTEL_SDK_DISABLED: "true",
        LANGSMITH_TRACING: "false",
        LANGCHAIN_TRACING_V2: "false",
        ...extra,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    return new Promise((resolve) => {
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code: code ?? -1, stdout, stderr });
      });
    });
  }
  const output = (r: Invocation): string => `exit ${r.code}\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-6000)}`;

  describe.each(["crewai", "langgraph"])("%s, chargeback-responder", (target) => {
    const dir = join(work, target);
    let readme = "";
    let def: Definition;

    it("exports with the exact pin and the index, and no vendored copy", async () => {
      const r = await runCli(["export", FIXTURE, "--target", target, "--runtime", "index", "--runtime-index", index.url, "--out", dir]);
      expect(r.code, r.stderr).toBe(0);
      readme = readFileSync(join(dir, "README.md"), "utf8");
      def = JSON.parse(readFileSync(FIXTURE, "utf8")) as Definition;
      const pyproject = readFileSync(join(dir, "pyproject.toml"), "utf8");
      expect(pyproject).toContain(`"envelope-runtime[${target}]==${VERSION}"`);
      const uvIndex = /^\[\[tool\.uv\.index\]\]\n(?:#.*\n)*((?:\w+ = .*\n)+)/m.exec(pyproject)?.[1];
      expect(uvIndex, pyproject).toBe(`name = "envelope-runtime"\nurl = "${index.url}"\nexplicit = true\n`);
      expect(pyproject).toMatch(/^\[tool\.uv\.sources\]\nenvelope-runtime = \{ index = "envelope-runtime" \}$/m);
      expect(pyproject).not.toContain("vendor/");
      expect(existsSync(join(dir, "vendor"))).toBe(false);
      if (target === "langgraph") {
        const deps = (JSON.parse(readFileSync(join(dir, "langgraph.json"), "utf8")) as { dependencies: string[] }).dependencies;
        expect(deps.filter((d) => d.includes("vendor"))).toEqual([]);
      }
    });

    it("ships a uv.lock uv takes as written: lock --check accepts it, sync --locked installs the wheel it names from the index", async () => {
      // Issue 39: the lock records this build's wheel (python/envelope-runtime.dist.json, the
      // same bytes every build) where the index serves it, with its sha256.
      const lock = readFileSync(join(dir, "uv.lock"), "utf8");
      const wheelSha = createHash("sha256").update(readFileSync(join(work, "dist", WHEEL))).digest("hex");
      expect(lock, "python/envelope-runtime.dist.json is not this checkout's build: rerun node scripts/python-lock-data.mjs runtime").toContain(`{ url = "${index.url}envelope-runtime/${WHEEL}", hash = "sha256:${wheelSha}"`);
      expect(lock).toContain(`source = { registry = "${index.url}" }`);
      const check = await inProject(dir, ["uv", "lock", "--check"]);
      expect(check.code, output(check)).toBe(0);
      const from = index.requests.length;
      const r = await inProject(dir, ["uv", "sync", "--locked"]);
      expect(r.code, output(r)).toBe(0);
      // The wheel came from our index, at the lock's address; the index page was not needed.
      expect(index.requests.slice(from)).toEqual([`GET /simple/envelope-runtime/${WHEEL}`]);
    }, 1_200_000);

    it("installs with the README's install command, envelope-runtime from the local index", async () => {
      const install = readmeCommand(readme, "Install");
      expect(install.slice(0, 2)).toEqual(["uv", "sync"]);
      const r = await inProject(dir, install);
      expect(r.code, output(r)).toBe(0);
      // The project imports the index's wheel from its own environment.
      const where = await inProject(dir, [join(dir, ".venv", "bin", "python"), "-c", "import envelope_runtime, importlib.metadata as m; print(envelope_runtime.__file__); print(m.version('envelope-runtime')); print(m.distribution('envelope-runtime').read_text('direct_url.json'))"]);
      expect(where.code, output(where)).toBe(0);
      const [file, version, directUrl] = where.stdout.trim().split("\n");
      expect(file!.startsWith(join(dir, ".venv"))).toBe(true);
      expect(version).toBe(VERSION);
      // An index install: not a path, an editable or a URL install.
      expect(directUrl).toBe("None");
    }, 1_200_000);

    it("passes its own tests with the README's test command", async () => {
      const test = readmeCommand(readme, "Test");
      expect(test).toEqual(["uv", "run", "pytest"]);
      const r = await inProject(dir, test, {}, 600_000);
      expect(r.code, output(r)).toBe(0);
      expect(r.stdout).toMatch(/\d+ passed/);
    }, 600_000);

    it("runs with the README's run command against the scripted model server (the real path)", async () => {
      const chats: ChatRequest[] = [];
      const server: ModelServer = await startModelServer((request) => {
        chats.push(request);
        return scriptedReply(request, chats.length, 3);
      });
      try {
        // The README's recipe for an OpenAI-compatible server first: the provider's extra, when
        // the target's default dependencies lack its client (LangGraph: langchain-openai).
        const endpoint = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("\n## Any model endpoint\n")))?.[1] ?? "";
        expect(endpoint).toContain("MODEL_OVERRIDE=openai:");
        for (const line of endpoint.split("\n").filter((l) => l.startsWith("uv sync"))) {
          const sync = await inProject(dir, line.trim().split(/\s+/));
          expect(sync.code, output(sync)).toBe(0);
        }
        const { env, inputs } = serverRun(def, server.baseUrl);
        const pkg = /^uv run (\S+)/m.exec(readme.slice(readme.indexOf("\n## Run\n")))?.[1];
        expect(pkg).toBeDefined();
        const r = await inProject(dir, ["uv", "run", pkg!, ...runArgs(dir, readme, inputs)], env, 300_000);
        expect(r.code, output(r)).toBe(0);
        expect(chats.length).toBeGreaterThan(0);
        expect(server.requests.filter((q) => !q.path.endsWith("/chat/completions")).map((q) => `${q.method} ${q.path}`)).toEqual([]);
        // Every agent's prompt reached the model byte for byte after {{NAME}} substitution.
        const missing = def.agents.filter((a) => !chats.some((c) => systemText(c).includes(expectedPrompt(a.prompt ?? "", def, env, inputs)))).map((a) => a.key);
        expect(missing, output(r)).toEqual([]);
      } finally {
        await server.close();
      }
    }, 900_000);
  });
});

describe("the local package index (test/helpers/package-index.ts)", () => {
  it("serves PEP 503: the project list, each project's files with sha256 fragments, a redirect to the canonical URL, the bytes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "envelope-package-index-"));
    const wheel = join(dir, "Some_Pkg-1.2.3-py3-none-any.whl");
    const sdist = join(dir, "some.pkg-1.2.3.tar.gz");
    writeFileSync(wheel, "wheel bytes");
    writeFileSync(sdist, "sdist bytes");
    const index = await startPackageIndex([{ path: wheel, requiresPython: ">=3.10,<3.14" }, { path: sdist }]);
    try {
      expect(index.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/simple\/$/);
      const root = await fetch(index.url);
      expect(await root.text()).toContain('<a href="some-pkg/">some-pkg</a>');
      const moved = await fetch(`${index.url}Some_Pkg`, { redirect: "manual" });
      expect(moved.status).toBe(301);
      expect(moved.headers.get("location")).toBe("/simple/some-pkg/");
      const project = await (await fetch(`${index.url}some-pkg/`)).text();
      const links = [...project.matchAll(/<a href="([^"]+)"([^>]*)>([^<]+)<\/a>/g)].map((m) => ({ href: m[1]!, attrs: m[2]!, text: m[3]! }));
      expect(links.map((l) => l.text)).toEqual(["Some_Pkg-1.2.3-py3-none-any.whl", "some.pkg-1.2.3.tar.gz"]);
      expect(links[0]!.attrs).toBe(' data-requires-python="&gt;=3.10,&lt;3.14"');
      for (const [link, path] of [[links[0]!, wheel], [links[1]!, sdist]] as const) {
        const url = new URL(link.href, `${index.url}some-pkg/`);
        expect(url.hash).toBe(`#sha256=${createHash("sha256").update(readFileSync(path)).digest("hex")}`);
        const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
        expect(Buffer.compare(bytes, readFileSync(path))).toBe(0);
      }
      expect((await fetch(`${index.url}other/`)).status).toBe(404);
      expect(index.requests).toContain("GET /simple/Some_Pkg");
    } finally {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
