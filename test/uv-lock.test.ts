// Issue 39: the uv.lock every Python export ships (src/targets/python-common/uv-lock.ts), without
// uv: deterministic, agreeing with the export's pyproject.toml and with the versions this
// repository's tests run (python/<target>.lock), cut from python/<target>.uv-lock.json, which
// scripts/python-lock-data.mjs made with real `uv lock`. That uv accepts and installs each
// export's lock is test/e2e/uv-lock.test.ts (and, --runtime index, test/realpath/runtime-index.test.ts).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exportDefinition } from "../src/export/export.js";
import { TARGETS as ALL_TARGETS } from "../src/targets/index.js";
import { parseRequirement, readPyproject, renderUvLock } from "../src/targets/python-common/uv-lock.js";
import { runtimeView } from "../src/targets/python-common/runtime-library.js";
import { connectionDefinitions, exportFile, validDefinitions } from "./helpers/export.js";
import { ROOT } from "./helpers/cli.js";

const TARGETS = ["crewai", "langgraph"] as const;
const normalize = (name: string) => name.replace(/[-_.]+/g, "-").toLowerCase();
const pins = (target: string) => new Map([...readFileSync(join(ROOT, "python", `${target}.lock`), "utf8").matchAll(/^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)/gm)].map((m) => [normalize(m[1]!), m[2]!]));
const definitions = [...validDefinitions().map((d) => ({ ...d, packs: undefined as string[] | undefined })), ...connectionDefinitions()];

/** Each [[package]] of a uv.lock: name, version, the block's text. */
function packages(lock: string): Array<{ name: string; version: string; text: string }> {
  return lock
    .split("\n[[package]]\n")
    .slice(1)
    .map((text) => ({ name: /^name = "([^"]+)"$/m.exec(text)![1]!, version: /^version = "([^"]+)"$/m.exec(text)![1]!, text }));
}

describe("uv.lock data (python/<target>.uv-lock.json)", () => {
  it.each(TARGETS)("%s: every package python/%s.lock pins is there at that version (the data follows the repository's lock)", (target) => {
    const data = JSON.parse(readFileSync(join(ROOT, "python", `${target}.uv-lock.json`), "utf8")) as { packages: Array<{ name: string; version: string }> };
    const missing = [...pins(target)].filter(([name, version]) => !data.packages.some((p) => p.name === name && p.version === version));
    expect(missing).toEqual([]);
  });

  it("python/envelope-runtime.dist.json describes the build of this library (what --runtime index locks)", () => {
    // The digest scripts/python-lock-data.mjs takes: each vendored file's path and sha256.
    const files = exportFile(join(ROOT, "examples/support-tier.envelope.json"), "crewai");
    const prefix = "vendor/envelope-runtime/";
    const digest = createHash("sha256");
    for (const path of files.paths().filter((p) => p.startsWith(prefix)).sort()) {
      digest.update(`${path.slice(prefix.length)}\0${createHash("sha256").update(files.get(path)!.bytes).digest("hex")}\n`);
    }
    const dist = JSON.parse(readFileSync(join(ROOT, "python", "envelope-runtime.dist.json"), "utf8")) as { library: string };
    expect(dist.library, "python/envelope-runtime changed since its wheel was recorded: rerun node scripts/python-lock-data.mjs runtime").toBe(digest.digest("hex"));
  });
});

describe.each(TARGETS)("%s exports' uv.lock", (target) => {
  it.each(definitions)("$name: byte-identical twice, the project's entry is its pyproject.toml's, pinned versions", ({ path, packs }) => {
    const first = exportFile(path, target, packs);
    const lock = first.text("uv.lock")!;
    expect(exportFile(path, target, packs).text("uv.lock")).toBe(lock);
    const pyproject = readPyproject(first.text("pyproject.toml")!);
    const all = packages(lock);
    // Sorted by name, as uv writes them; one entry per (name, version).
    expect(all.map((p) => p.name)).toEqual([...all.map((p) => p.name)].sort());
    expect(new Set(all.map((p) => `${p.name} ${p.version}`)).size).toBe(all.length);
    const own = all.find((p) => p.name === pyproject.name)!;
    expect(own.text).toContain('source = { editable = "." }');
    // Every requirement of pyproject.toml, its extras and its dev group, is in the entry's metadata.
    const named = (reqs: string[]) => reqs.map((r) => parseRequirement(r).name);
    for (const name of [...named(pyproject.dependencies), ...pyproject.optional.flatMap(([, r]) => named(r)), ...pyproject.groups.flatMap(([, r]) => named(r))]) {
      expect(own.text, name).toContain(`{ name = "${name}"`);
      expect(all.some((p) => p.name === name), name).toBe(true);
    }
    expect(pyproject.groups.map(([g]) => g)).toEqual(["dev"]);
    expect(own.text).toContain("[package.metadata.requires-dev]\ndev = [\n");
    // Where python/<target>.lock pins a package (Python 3.11), the lock has that version.
    const pinned = pins(target);
    const off = all.filter((p) => pinned.has(p.name) && !all.some((q) => q.name === p.name && q.version === pinned.get(p.name)));
    expect(off.map((p) => `${p.name} ${p.version}`)).toEqual([]);
    // No constraint table any more, and no dev extra.
    const text = first.text("pyproject.toml")!;
    expect(text).not.toContain("constraint-dependencies");
    expect(pyproject.optional.map(([x]) => x)).not.toContain("dev");
    // The vendored library: a directory source, its metadata from its own pyproject.toml.
    const runtime = all.find((p) => p.name === "envelope-runtime")!;
    expect(runtime.text).toContain('source = { directory = "vendor/envelope-runtime" }');
    expect(runtime.text).toMatch(new RegExp(`\\[package\\.optional-dependencies\\]\\n${target} = \\[`));
  });

  it("leaves out what the team does not use: without an MCP pack, no MCP client", () => {
    if (target !== "langgraph") return;
    const plain = exportFile(join(ROOT, "examples/support-tier.envelope.json"), target).text("uv.lock")!;
    expect(packages(plain).some((p) => p.name === "langchain-mcp-adapters")).toBe(false);
  });

  it.each([
    ["a private index", "https://pypi.example.org/simple/"],
    ["PyPI", undefined],
  ])("--runtime index, %s: envelope-runtime from that registry, its recorded wheel and sdist", (_, indexUrl) => {
    const r = exportDefinition(readFileSync(join(ROOT, "examples/support-tier.envelope.json")), ALL_TARGETS[target]!, { runtime: { mode: "index", ...(indexUrl ? { indexUrl } : {}) } });
    expect(r.ok).toBe(true);
    const lock = r.files!.text("uv.lock")!;
    const dist = JSON.parse(readFileSync(join(ROOT, "python", "envelope-runtime.dist.json"), "utf8")) as Record<"wheel" | "sdist", { filename: string; sha256: string; size: number; blake2b256: string }>;
    const runtime = packages(lock).find((p) => p.name === "envelope-runtime")!;
    const registry = indexUrl ?? "https://pypi.org/simple";
    expect(runtime.text).toContain(`source = { registry = "${registry}" }`);
    for (const f of [dist.wheel, dist.sdist]) {
      const url = indexUrl ? `${indexUrl}envelope-runtime/${f.filename}` : `https://files.pythonhosted.org/packages/${f.blake2b256.slice(0, 2)}/${f.blake2b256.slice(2, 4)}/${f.blake2b256.slice(4)}/${f.filename}`;
      expect(runtime.text).toContain(`{ url = "${url}", hash = "sha256:${f.sha256}", size = ${f.size} }`);
    }
    expect(runtime.text).not.toContain("[package.metadata]");
    expect(lock).not.toContain("vendor/");
    const pin = `{ name = "envelope-runtime", extras = ["${target}"], specifier = "==${runtimeView(target, undefined).version}"${indexUrl ? `, index = "${indexUrl}"` : ""} }`;
    expect(lock).toContain(pin);
  });

  it("refuses a pyproject.toml naming a package the data lacks", () => {
    const files = exportFile(join(ROOT, "examples/support-tier.envelope.json"), target);
    const pyproject = files.text("pyproject.toml")!.replace('"httpx>=0.28,<1",', '"httpx>=0.28,<1",\n    "no-such-package>=1",');
    expect(() => renderUvLock(target, pyproject, runtimeView(target, undefined))).toThrow(`no-such-package is not in python/${target}.uv-lock.json`);
  });
});
