// scripts/build-runtime.mjs: envelope-runtime's wheel and sdist, the same bytes from one build to
// the next (the release workflow publishes what it builds; anyone can rebuild a tag and compare),
// holding exactly the library: the wheel its src/ files (no tests, no caches), the sdist those
// and the top files, the metadata the version and both targets' extras. Needs Python (uv builds
// with hatchling); skipped without it like the other end-to-end suites, failed under CI=true.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { e2eGate, RUNTIME_LIBRARY, uvBinary } from "./e2e/python-env.js";
import { ROOT } from "./helpers/cli.js";

const SCRIPT = join(ROOT, "scripts", "build-runtime.mjs");
const VERSION = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(join(RUNTIME_LIBRARY, "pyproject.toml"), "utf8"))![1]!;
const WHEEL = `envelope_runtime-${VERSION}-py3-none-any.whl`;
const SDIST = `envelope_runtime-${VERSION}.tar.gz`;
/** 2020-02-02T00:00:00Z: the script's SOURCE_DATE_EPOCH. */
const EPOCH = 1580601600;
const SKIP = new Set(["__pycache__", ".ruff_cache", ".pytest_cache", ".mypy_cache"]);

const gate = e2eGate();

/** A library's src/ files (relative to it, `src/envelope_runtime/...`), as an export vendors them. */
function sourceFiles(library: string, dir = join(library, "src")): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !(e.isDirectory() && SKIP.has(e.name)) && !e.name.endsWith(".pyc"))
    .flatMap((e) => (e.isDirectory() ? sourceFiles(library, join(dir, e.name)) : [relative(library, join(dir, e.name)).split(sep).join("/")]))
    .sort();
}

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

interface Entry {
  name: string;
  sha256: string;
  /** Seconds since the epoch (the zip's date_time read as UTC). */
  mtime: number;
  mode: number;
  uid?: number;
  gid?: number;
  uname?: string;
}

/** The archives' entries, read with Python's zipfile and tarfile. */
function entries(python: string, wheel: string, sdist: string): { wheel: Entry[]; sdist: Entry[]; metadata: string; pkgInfo: string } {
  const script = `
import calendar, hashlib, json, sys, tarfile, zipfile
out = {"wheel": [], "sdist": []}
with zipfile.ZipFile(sys.argv[1]) as z:
    for i in z.infolist():
        data = z.read(i)
        out["wheel"].append({"name": i.filename, "sha256": hashlib.sha256(data).hexdigest(),
                             "mtime": calendar.timegm(i.date_time + (0, 0, 0)), "mode": i.external_attr >> 16})
        if i.filename.endswith(".dist-info/METADATA"):
            out["metadata"] = data.decode()
with tarfile.open(sys.argv[2]) as t:
    for m in t.getmembers():
        data = t.extractfile(m).read() if m.isfile() else b""
        out["sdist"].append({"name": m.name, "sha256": hashlib.sha256(data).hexdigest(), "mtime": m.mtime,
                             "mode": m.mode, "uid": m.uid, "gid": m.gid, "uname": m.uname})
        if m.name.endswith("/PKG-INFO"):
            out["pkgInfo"] = data.decode()
print(json.dumps(out))
`;
  return JSON.parse(execFileSync(python, ["-c", script, wheel, sdist], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })) as ReturnType<typeof entries>;
}

describe.runIf(gate.run)("scripts/build-runtime.mjs", () => {
  const work = mkdtempSync(join(tmpdir(), "envelope-runtime-build-test-"));
  // This checkout's library as it is now: the builds compared are of the same files, whatever
  // is edited in the working tree meanwhile. (The default, python/envelope-runtime, is built below.)
  const library = join(work, "library");
  let uv: string;
  const build = (out: string, args: string[] = [], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [SCRIPT, out, "--library", library, ...args], { encoding: "utf8", env: { ...process.env, UV: uv, ...env } });
  let first: ReturnType<typeof build>;
  let second: ReturnType<typeof build>;

  beforeAll(() => {
    for (const file of ["CHANGELOG.md", "LICENSE", "README.md", "pyproject.toml", ...sourceFiles(RUNTIME_LIBRARY)]) {
      mkdirSync(dirname(join(library, file)), { recursive: true });
      copyFileSync(join(RUNTIME_LIBRARY, file), join(library, file));
    }
    uv = uvBinary(gate.python!);
    first = build(join(work, "one"));
    // Another SOURCE_DATE_EPOCH in the environment changes nothing: the script sets its own.
    second = build(join(work, "two"), [], { SOURCE_DATE_EPOCH: "1700000000" });
  }, 300_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("builds the wheel and sdist twice (into two folders) with the same bytes, and prints their sha256", () => {
    expect(first.status, first.stderr).toBe(0);
    expect(second.status, second.stderr).toBe(0);
    for (const name of [WHEEL, SDIST]) {
      const a = readFileSync(join(work, "one", name));
      const b = readFileSync(join(work, "two", name));
      expect(sha256(a), name).toBe(sha256(b));
      expect(Buffer.compare(a, b), name).toBe(0);
      expect(first.stdout).toContain(`${sha256(a)}  ${join(work, "one", name)}\n`);
    }
    expect(readdirSync(join(work, "one")).sort()).toEqual([WHEEL, SDIST].sort());
  });

  it("the wheel holds the library's src files, byte for byte, and its metadata (no tests, no caches)", () => {
    const found = entries(gate.python!, join(work, "one", WHEEL), join(work, "one", SDIST));
    const distInfo = `envelope_runtime-${VERSION}.dist-info/`;
    const own = found.wheel.filter((e) => !e.name.startsWith(distInfo));
    const sources = sourceFiles(library);
    expect(sources.length).toBeGreaterThan(20);
    expect(own.map((e) => e.name).sort()).toEqual(sources.map((f) => f.replace(/^src\//, "")));
    for (const e of own) expect(e.sha256, e.name).toBe(sha256(readFileSync(join(library, "src", e.name))));
    expect(found.wheel.filter((e) => e.name.startsWith(distInfo)).map((e) => e.name.slice(distInfo.length)).sort()).toEqual(["METADATA", "RECORD", "WHEEL", "licenses/LICENSE"]);
    expect(found.wheel.map((e) => e.name).filter((n) => /(^|\/)(tests?|__pycache__|\.\w+_cache)\/|\.pyc$/.test(n))).toEqual([]);
    // Reproducible by construction: every entry at SOURCE_DATE_EPOCH, permissions 644.
    expect(new Set(found.wheel.map((e) => e.mtime))).toEqual(new Set([EPOCH]));
    expect(new Set(found.wheel.map((e) => e.mode & 0o777))).toEqual(new Set([0o644]));
  });

  it("the wheel's METADATA has the version and the crewai, langgraph and postgres extras with their packages", () => {
    const { metadata } = entries(gate.python!, join(work, "one", WHEEL), join(work, "one", SDIST));
    const field = (name: string) => [...metadata.matchAll(new RegExp(`^${name}: (.*)$`, "gm"))].map((m) => m[1]);
    expect(field("Name")).toEqual(["envelope-runtime"]);
    expect(field("Version")).toEqual([VERSION]);
    expect(field("Provides-Extra").sort()).toEqual(["crewai", "langgraph", "postgres"]);
    const requires = field("Requires-Dist");
    expect(requires.some((r) => /^crewai[<>=]/.test(r!) && r!.endsWith("; extra == 'crewai'"))).toBe(true);
    expect(requires.some((r) => /^langgraph[<>=]/.test(r!) && r!.endsWith("; extra == 'langgraph'"))).toBe(true);
    expect(requires.some((r) => /^sqlalchemy[<>=]/i.test(r!) && r!.endsWith("; extra == 'postgres'"))).toBe(true);
    // The frameworks and the database drivers are behind their extras only.
    expect(requires.filter((r) => /^(crewai|langgraph|langchain|sqlalchemy|psycopg)/i.test(r!) && !r!.includes("; extra == "))).toEqual([]);
  });

  it("the sdist holds pyproject.toml, README.md, CHANGELOG.md, LICENSE and src/ (no tests, no caches), owned by nobody", () => {
    const { sdist, pkgInfo } = entries(gate.python!, join(work, "one", WHEEL), join(work, "one", SDIST));
    const top = `envelope_runtime-${VERSION}/`;
    expect(sdist.every((e) => e.name.startsWith(top))).toBe(true);
    const names = sdist.map((e) => e.name.slice(top.length)).sort();
    expect(names).toEqual(["CHANGELOG.md", "LICENSE", "PKG-INFO", "README.md", "pyproject.toml", ...sourceFiles(library)].sort());
    for (const e of sdist.filter((x) => x.name !== `${top}PKG-INFO`)) expect(e.sha256, e.name).toBe(sha256(readFileSync(join(library, e.name.slice(top.length)))));
    expect(pkgInfo).toContain(`\nVersion: ${VERSION}\n`);
    expect(new Set(sdist.map((e) => `${e.mtime} ${e.uid}:${e.gid} ${e.uname}`))).toEqual(new Set([`${EPOCH} 0:0 `]));
  });

  it("replaces earlier envelope_runtime artifacts in the folder and leaves other files alone", () => {
    const out = join(work, "reused");
    const again = build(out);
    expect(again.status, again.stderr).toBe(0);
    writeFileSync(join(out, "envelope_runtime-0.0.1-py3-none-any.whl"), "an older build");
    writeFileSync(join(out, "envelope_runtime-0.0.1.tar.gz"), "an older build");
    writeFileSync(join(out, "notes.txt"), "someone's file");
    const r = build(out);
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual([WHEEL, SDIST, "notes.txt"].sort());
    expect(Buffer.compare(readFileSync(join(out, WHEEL)), readFileSync(join(work, "one", WHEEL)))).toBe(0);
  }, 120_000);

  it("--expect-version other than the pyproject's fails and builds nothing (the release workflow's tag check)", () => {
    const out = join(work, "wrong-tag");
    const r = build(out, ["--expect-version", "9.9.9"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`version ${VERSION}, not 9.9.9`);
    expect(existsSync(out)).toBe(false);
    // Without --library: this checkout's python/envelope-runtime.
    const right = join(work, "right-tag");
    const ok = spawnSync(process.execPath, [SCRIPT, right, "--expect-version", VERSION], { encoding: "utf8", env: { ...process.env, UV: uv } });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stderr).toContain(`building envelope-runtime ${VERSION}`);
    expect(readdirSync(right).sort()).toEqual([WHEEL, SDIST].sort());
  }, 120_000);
});

// --- .github/workflows/release-runtime.yml --------------------------------------------------
// No YAML library is among the dependencies: this reads the subset GitHub workflows here use
// (block mappings and sequences, plain and quoted scalars, `|` blocks, flow lists of scalars)
// and throws on anything else, so a construct it cannot read fails the test, never passes it.

type Yaml = string | null | Yaml[] | { [key: string]: Yaml };

/** The line without a ` # comment` outside quotes. */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

function scalar(text: string, where: string): Yaml {
  if (text.startsWith('"')) return JSON.parse(text) as string;
  if (text.startsWith("'")) {
    if (!text.endsWith("'")) throw new Error(`${where}: unterminated '…'`);
    return text.slice(1, -1).replace(/''/g, "'");
  }
  if (text.startsWith("[")) {
    if (!text.endsWith("]")) throw new Error(`${where}: a flow list over several lines`);
    const inner = text.slice(1, -1).trim();
    return inner ? inner.split(",").map((part) => scalar(part.trim(), where)) : [];
  }
  if (/^[{&*!%@`]/.test(text) || text.startsWith(">")) throw new Error(`${where}: unsupported YAML: ${text}`);
  return text;
}

function parseWorkflowYaml(text: string): Yaml {
  const lines = text.split("\n");
  let i = 0;
  const indentOf = (line: string) => line.length - line.trimStart().length;
  /** The indent of the next line holding something, or -1 at the end. */
  const next = (): number => {
    while (i < lines.length && /^\s*(#.*)?$/.test(lines[i]!)) i++;
    if (i < lines.length && lines[i]!.includes("\t")) throw new Error(`line ${i + 1}: a tab`);
    return i < lines.length ? indentOf(lines[i]!) : -1;
  };
  const isItem = () => /^-(\s|$)/.test(lines[i]!.trim());
  const block = (indent: number): Yaml => (isItem() ? sequence(indent) : mapping(indent));
  const value = (rest: string, indent: number): Yaml => {
    if (rest === "|" || rest === "|-") {
      const body: string[] = [];
      while (i < lines.length && (lines[i]!.trim() === "" || indentOf(lines[i]!) > indent)) body.push(lines[i++]!);
      while (body.length && body[body.length - 1]!.trim() === "") body.pop();
      const cut = Math.min(...body.filter((l) => l.trim()).map(indentOf));
      return body.map((l) => l.slice(cut)).join("\n") + (rest === "|" ? "\n" : "");
    }
    if (rest !== "") return scalar(rest, `line ${i}`);
    const at = next();
    return at > indent || (at === indent && at >= 0 && isItem()) ? block(at) : null;
  };
  const mapping = (indent: number): { [key: string]: Yaml } => {
    const out: { [key: string]: Yaml } = {};
    while (next() === indent && !isItem()) {
      const line = withoutComment(lines[i]!.trim());
      const m = /^([A-Za-z0-9_.\/-]+|"[^"]+"):(?:\s+(.*))?$/.exec(line);
      if (!m) throw new Error(`line ${i + 1}: not a "key: value": ${line}`);
      const key = m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : m[1]!;
      if (key in out) throw new Error(`line ${i + 1}: ${key} twice`);
      i++;
      out[key] = value(m[2] ?? "", indent);
    }
    const at = next();
    if (at > indent) throw new Error(`line ${i + 1}: unexpected indent`);
    return out;
  };
  const sequence = (indent: number): Yaml[] => {
    const out: Yaml[] = [];
    while (next() === indent && isItem()) {
      const line = lines[i]!;
      const content = withoutComment(line.slice(indent + 1).trimStart());
      if (content === "") {
        i++;
        out.push(value("", indent));
      } else if (/^[A-Za-z0-9_.\/-]+:(\s|$)/.test(content)) {
        // "- key: value": a mapping whose keys line up with the first one.
        const at = line.length - line.slice(indent + 1).trimStart().length;
        lines[i] = " ".repeat(at) + line.slice(at);
        out.push(mapping(at));
      } else {
        i++;
        out.push(scalar(content, `line ${i}`));
      }
    }
    return out;
  };
  const top = next();
  if (top !== 0) throw new Error("the document does not start at column 0");
  const doc = block(0);
  if (next() !== -1) throw new Error(`line ${i + 1}: left unread`);
  return doc;
}

describe("the release workflow (.github/workflows/release-runtime.yml)", () => {
  const path = join(ROOT, ".github", "workflows", "release-runtime.yml");
  const text = readFileSync(path, "utf8");
  const doc = parseWorkflowYaml(text) as { [key: string]: any };
  const jobs = doc.jobs as Record<string, { [key: string]: any }>;
  const steps = (job: string) => (jobs[job]!.steps ?? []) as Array<Record<string, any>>;
  const publishJobs = Object.entries(jobs).filter(([, job]) => (job.steps ?? []).some((s: Record<string, any>) => String(s.uses ?? "").startsWith("pypa/gh-action-pypi-publish@")));

  it("the reader reads what it is given, and refuses what it cannot read", () => {
    expect(parseWorkflowYaml("a:\n  b: [x, 'y z']\n  c: |\n    one # kept\n    two\n  d:\n    - e: 1\n      f: \"g\"\n    - h\n")).toEqual({ a: { b: ["x", "y z"], c: "one # kept\ntwo\n", d: [{ e: "1", f: "g" }, "h"] } });
    expect(() => parseWorkflowYaml("a: {b: c}\n")).toThrow(/unsupported/);
    expect(() => parseWorkflowYaml("a: b\n   c: d\n")).toThrow(/indent/);
  });

  it("runs on a tag runtime-v* only", () => {
    expect(doc.on).toEqual({ push: { tags: ["runtime-v*"] } });
  });

  it("builds with scripts/build-runtime.mjs, checking the tag against the pyproject's version, and twice (same bytes)", () => {
    const runs = publishJobs.length ? steps(publishJobs[0]![1].needs).map((s) => String(s.run ?? "")) : [];
    expect(runs).toContainEqual('node scripts/build-runtime.mjs dist --expect-version "${GITHUB_REF_NAME#runtime-v}"');
    expect(runs.some((r) => r.includes("node scripts/build-runtime.mjs \"$RUNNER_TEMP/again\"") && r.includes("cmp "))).toBe(true);
    // The shell takes runtime-vX.Y.Z to X.Y.Z, what --expect-version compares with the pyproject's.
    const tag = spawnSync("bash", ["-c", 'printf %s "${GITHUB_REF_NAME#runtime-v}"'], { encoding: "utf8", env: { ...process.env, GITHUB_REF_NAME: `runtime-v${VERSION}` } });
    expect(tag.stdout).toBe(VERSION);
    // The artifact the publish job uploads is the one the build job made.
    const uploaded = steps(publishJobs[0]![1].needs).find((s) => String(s.uses).startsWith("actions/upload-artifact@"));
    const downloaded = steps(publishJobs[0]![0]).find((s) => String(s.uses).startsWith("actions/download-artifact@"));
    expect(uploaded?.with.name).toBe(downloaded?.with.name);
    expect(downloaded?.with.path).toBe(publishJobs[0]![1].steps.at(-1).with?.["packages-dir"] ?? "dist/");
  });

  it("publishes with PyPI trusted publishing: id-token: write in the publish job alone, environment pypi, no credential", () => {
    expect(publishJobs.map(([name]) => name)).toEqual(["publish"]);
    const [, publish] = publishJobs[0]!;
    expect(publish.permissions).toEqual({ "id-token": "write" });
    expect(publish.environment?.name ?? publish.environment).toBe("pypi");
    expect(doc.permissions).toEqual({ contents: "read" });
    for (const [name, job] of Object.entries(jobs)) if (name !== "publish") expect(job.permissions?.["id-token"], name).toBeUndefined();
    const step = steps("publish").find((s) => String(s.uses).startsWith("pypa/gh-action-pypi-publish@"))!;
    expect(Object.keys(step.with ?? {}).filter((k) => /password|user|token/i.test(k))).toEqual([]);
    // No secret anywhere: not read, not written.
    const uncommented = text.split("\n").map(withoutComment).join("\n");
    expect(uncommented).not.toMatch(/secrets\.|\$\{\{\s*secrets|password|pypi-[A-Za-z0-9_-]{20,}|TWINE_|UV_PUBLISH_TOKEN/i);
    expect(JSON.stringify(doc)).not.toMatch(/secrets/i);
  });

  it("says, in a comment, that the owner must register the trusted publisher before the first tag", () => {
    const comments = text.split("\n").filter((l) => l.trim().startsWith("#")).join("\n");
    expect(comments).toMatch(/owner must register this workflow as a trusted\s+#?\s*publisher on PyPI/);
    expect(comments).toContain("Before the first tag");
    expect(comments).toContain("environment pypi");
  });
});
