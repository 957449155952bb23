// envelope-runtime, the Python library every Python export depends on (python/envelope-runtime/
// in this repository): its version, the exact requirement an export pins, and — for
// `--runtime vendored`, the default until the library is on a public index — its source, whole
// and byte-identical in every export of this tool version, for `vendor/envelope-runtime/`.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { FileSet } from "../../export/file-set.js";
import type { RuntimeChoice } from "../../export/target.js";

export const RUNTIME_DISTRIBUTION = "envelope-runtime";
/** Where the vendored copy goes in an export. */
export const VENDOR_DIR = "vendor/envelope-runtime";

const LIBRARY_DIR = fileURLToPath(new URL("../../../python/envelope-runtime/", import.meta.url));
// What the sdist holds (its pyproject's [tool.hatch.build.targets.sdist]): the library's tests
// and a developer's caches are not part of it.
const TOP_FILES = ["CHANGELOG.md", "LICENSE", "README.md", "pyproject.toml"];
const SKIP_DIRS = new Set(["__pycache__", ".ruff_cache", ".pytest_cache", ".mypy_cache"]);

let loaded: { version: string; files: Array<{ path: string; bytes: Uint8Array }> } | undefined;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !(e.isDirectory() && SKIP_DIRS.has(e.name)) && !e.name.endsWith(".pyc"))
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

function library(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const pyproject = readFileSync(join(LIBRARY_DIR, "pyproject.toml"), "utf8");
  const version = /^version\s*=\s*"([^"]+)"/m.exec(pyproject)?.[1];
  if (!version) throw new Error("python/envelope-runtime/pyproject.toml names no version");
  const paths = [...TOP_FILES.map((f) => join(LIBRARY_DIR, f)), ...walk(join(LIBRARY_DIR, "src"))];
  const files = paths
    .map((p) => ({ path: relative(LIBRARY_DIR, p).split(sep).join("/"), bytes: readFileSync(p) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  loaded = { version, files };
  return loaded;
}

/** The library's version: what every export of this tool version pins exactly. */
export function runtimeVersion(): string {
  return library().version;
}

/** The library's pyproject.toml, as an export vendors it (uv.lock records its metadata). */
export function runtimeLibraryPyproject(): string {
  const file = library().files.find((f) => f.path === "pyproject.toml");
  if (!file) throw new Error("python/envelope-runtime has no pyproject.toml");
  return new TextDecoder().decode(file.bytes);
}

/** What the templates say about the runtime: the pin, and where it comes from. */
export interface RuntimeView {
  version: string;
  /** `envelope-runtime[crewai]==0.1.0`. */
  requirement: string;
  vendored: boolean;
  vendorDir: string;
  /** --runtime-index: the index uv installs it from (none: the default index, PyPI). */
  indexUrl?: string;
}

export function runtimeView(extra: "crewai" | "langgraph", choice: RuntimeChoice | undefined): RuntimeView {
  const version = runtimeVersion();
  const vendored = (choice?.mode ?? "vendored") === "vendored";
  return {
    version,
    requirement: `${RUNTIME_DISTRIBUTION}[${extra}]==${version}`,
    vendored,
    vendorDir: VENDOR_DIR,
    ...(!vendored && choice?.indexUrl ? { indexUrl: choice.indexUrl } : {}),
  };
}

/** The vendored copy, when the export carries one: the library's files, as they are here. */
export function addVendoredRuntime(files: FileSet, runtime: RuntimeView): void {
  if (!runtime.vendored) return;
  for (const f of library().files) files.add(`${VENDOR_DIR}/${f.path}`, f.bytes, 0o644, true);
}
