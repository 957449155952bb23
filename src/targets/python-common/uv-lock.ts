// An export's uv.lock, written offline: the closure of the export's own dependencies, cut from
// python/<target>.uv-lock.json — a universal lock real `uv lock` made of everything an export of
// the target can name, at python/<target>.lock's versions (scripts/python-lock-data.mjs) — and
// the project's own entry, read back from the pyproject.toml the export just rendered, so the
// two agree by construction. `uv lock --check` accepts it as it is (every package's entry is
// uv's own text; the project's and envelope-runtime's are written as uv writes them), and the
// same export gives the same bytes: no clock, no network, only the data and the definition.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { FileSet } from "../../export/file-set.js";
import { RUNTIME_DISTRIBUTION, runtimeLibraryPyproject, type RuntimeView } from "./runtime-library.js";

interface Edge {
  name: string;
  version?: string;
  extra?: string[];
}
interface LockPackage {
  name: string;
  version: string;
  /** The [[package]] block as uv wrote it, without its [package.optional-dependencies]. */
  text: string;
  dependencies: Edge[];
  extras: Record<string, { text: string; dependencies: Edge[] }>;
}
interface LockData {
  requiresPython: string;
  /** `version`, `revision`, `requires-python`, `resolution-markers`, as uv wrote them. */
  header: string;
  /** The data project's own edges, by name: a name with several versions carries their markers. */
  direct: Record<string, Array<Record<string, unknown>>>;
  packages: LockPackage[];
}

export type PythonTarget = "crewai" | "langgraph";

const PYTHON_DIR = fileURLToPath(new URL("../../../python/", import.meta.url));
const cache = new Map<PythonTarget, LockData>();

function lockData(target: PythonTarget): LockData {
  let data = cache.get(target);
  if (!data) {
    data = JSON.parse(readFileSync(`${PYTHON_DIR}${target}.uv-lock.json`, "utf8")) as LockData;
    cache.set(target, data);
  }
  return data;
}

/** PEP 503's normalized name (uv writes every package and extra name so). */
const normalize = (name: string): string => name.replace(/[-_.]+/g, "-").toLowerCase();
/** A TOML basic string, as uv writes one (JSON's escapes are TOML's for what a lock holds). */
const str = (s: string): string => JSON.stringify(s);
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Requirement {
  name: string;
  extras: string[];
  specifier: string;
  marker?: string;
}

/** A PEP 508 requirement of the forms the templates write: `name[extras]specifier; marker`. */
export function parseRequirement(text: string): Requirement {
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?\s*([^;]*?)\s*(?:;\s*(.+?))?\s*$/.exec(text);
  if (!m) throw new Error(`uv.lock: cannot read the requirement ${str(text)}`);
  const extras = (m[2] ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)
    .map(normalize)
    .sort(compare);
  return { name: normalize(m[1]!), extras, specifier: m[3]!.replace(/\s+/g, ""), ...(m[4] ? { marker: m[4] } : {}) };
}

/** What uv.lock needs of a pyproject.toml this tool rendered. */
export interface PyprojectDeps {
  name: string;
  version: string;
  requiresPython: string;
  dependencies: string[];
  optional: Array<[string, string[]]>;
  groups: Array<[string, string[]]>;
}

/** The string values of a TOML array, its comment lines left out. */
function stringArray(body: string): string[] {
  const text = body
    .split("\n")
    .filter((l) => !l.trim().startsWith("#"))
    .join("\n");
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
}

/** `key = [...]` entries of one table of the rendered pyproject.toml, in order (brackets inside strings are text). */
function arrays(table: string): Array<[string, string[]]> {
  const found: Array<[string, string[]]> = [];
  for (const m of table.matchAll(/^([A-Za-z0-9_-]+) = \[/gm)) {
    let depth = 0;
    let quoted = false;
    let i = m.index + m[0].length - 1;
    for (; i < table.length; i++) {
      const c = table[i];
      if (quoted) {
        if (c === "\\") i++;
        else if (c === '"') quoted = false;
      } else if (c === '"') quoted = true;
      else if (c === "#") {
        const eol = table.indexOf("\n", i);
        i = eol < 0 ? table.length : eol - 1;
      }
      else if (c === "[") depth++;
      else if (c === "]" && --depth === 0) break;
    }
    found.push([m[1]!, stringArray(table.slice(m.index + m[0].length, i))]);
  }
  return found;
}

function table(pyproject: string, name: string): string {
  const at = pyproject.indexOf(`\n[${name}]\n`);
  if (at < 0) return "";
  const rest = pyproject.slice(at + name.length + 4);
  const end = rest.search(/^\[/m);
  return end < 0 ? rest : rest.slice(0, end);
}

export function readPyproject(pyproject: string): PyprojectDeps {
  const project = table(`\n${pyproject}`, "project");
  const value = (key: string): string => {
    const m = new RegExp(`^${key} = ("(?:[^"\\\\]|\\\\.)*")$`, "m").exec(project);
    if (!m) throw new Error(`uv.lock: pyproject.toml's [project] has no ${key}`);
    return JSON.parse(m[1]!) as string;
  };
  const deps = arrays(project).find(([k]) => k === "dependencies");
  if (!deps) throw new Error("uv.lock: pyproject.toml's [project] has no dependencies");
  return {
    name: normalize(value("name")),
    version: value("version"),
    requiresPython: value("requires-python"),
    dependencies: deps[1],
    optional: arrays(table(`\n${pyproject}`, "project.optional-dependencies")).map(([k, v]) => [normalize(k), v]),
    groups: arrays(table(`\n${pyproject}`, "dependency-groups")).map(([k, v]) => [normalize(k), v]),
  };
}

/** uv's `requires-python` spelling: the specifiers comma-and-space separated. */
const uvRequiresPython = (spec: string): string =>
  spec
    .split(",")
    .map((s) => s.trim())
    .join(", ");

/** A dependency edge as uv writes it: `{ name = "x", extra = ["y"] }`, with the version, source and marker of one of several versions. */
function edgeText(name: string, extras: readonly string[], fork?: Record<string, unknown>): string {
  const parts = [`name = ${str(name)}`];
  if (fork?.version) parts.push(`version = ${str(fork.version as string)}`);
  if (fork?.source) parts.push(`source = { ${Object.entries(fork.source as Record<string, string>).map(([k, v]) => `${k} = ${str(v)}`).join(", ")} }`);
  if (extras.length) parts.push(`extra = [${extras.map(str).join(", ")}]`);
  if (fork?.marker) parts.push(`marker = ${str(fork.marker as string)}`);
  return `{ ${parts.join(", ")} }`;
}

const list = (key: string, items: readonly string[]): string => (items.length ? `${key} = [\n${items.map((i) => `    ${i},\n`).join("")}]\n` : "");

/** requires-dist / requires-dev entries: `{ name = "x", extras = [...], marker = "...", specifier = "..." }`. */
function metadataText(r: Requirement, source: string | undefined): string {
  const parts = [`name = ${str(r.name)}`];
  if (r.extras.length) parts.push(`extras = [${r.extras.map(str).join(", ")}]`);
  if (r.marker) parts.push(`marker = ${str(r.marker)}`);
  if (source) parts.push(source);
  else if (r.specifier) parts.push(`specifier = ${str(r.specifier)}`);
  return `{ ${parts.join(", ")} }`;
}

const byRequirement = (a: Requirement, b: Requirement): number =>
  compare(a.name, b.name) || compare(a.extras.join(","), b.extras.join(",")) || compare(a.marker ?? "", b.marker ?? "");

interface RuntimeFile {
  filename: string;
  sha256: string;
  size: number;
  blake2b256: string;
}
/** python/envelope-runtime.dist.json: the library's reproducible wheel and sdist (scripts/python-lock-data.mjs). */
interface RuntimeDist {
  version: string;
  wheel: RuntimeFile;
  sdist: RuntimeFile;
}
let runtimeDist: RuntimeDist | undefined;

const PYPI = "https://pypi.org/simple";

/** Where envelope-runtime comes from: the lock's `source`, its files, and what requires-dist adds to the pin. */
function runtimeSource(runtime: RuntimeView): { source: string; files: string; requiresDist: string | undefined } {
  if (runtime.vendored) return { source: `{ directory = ${str(runtime.vendorDir)} }`, files: "", requiresDist: `directory = ${str(runtime.vendorDir)}` };
  // --runtime index: the files of the pinned version as the release publishes them (the same
  // bytes every build), at PyPI's address for them (its storage path is the blake2b of the
  // bytes) or, on another index, where PEP 503's plain layout puts them: <index>/<project>/<file>.
  runtimeDist ??= JSON.parse(readFileSync(`${PYTHON_DIR}envelope-runtime.dist.json`, "utf8")) as RuntimeDist;
  if (runtimeDist.version !== runtime.version) throw new Error(`uv.lock: python/envelope-runtime.dist.json is for envelope-runtime ${runtimeDist.version}, not ${runtime.version}; rerun scripts/python-lock-data.mjs runtime`);
  const index = runtime.indexUrl ?? PYPI;
  const url = (f: RuntimeFile) =>
    runtime.indexUrl ? `${index.replace(/\/?$/, "/")}${RUNTIME_DISTRIBUTION}/${f.filename}` : `https://files.pythonhosted.org/packages/${f.blake2b256.slice(0, 2)}/${f.blake2b256.slice(2, 4)}/${f.blake2b256.slice(4)}/${f.filename}`;
  const file = (f: RuntimeFile) => `{ url = ${str(url(f))}, hash = ${str(`sha256:${f.sha256}`)}, size = ${f.size} }`;
  return {
    source: `{ registry = ${str(index)} }`,
    files: `sdist = ${file(runtimeDist.sdist)}\nwheels = [\n    ${file(runtimeDist.wheel)},\n]\n`,
    requiresDist: runtime.indexUrl ? `specifier = ${str(`==${runtime.version}`)}, index = ${str(runtime.indexUrl)}` : undefined,
  };
}

/**
 * uv.lock for the project whose pyproject.toml is `pyproject` (rendered by this tool for
 * `target`), envelope-runtime coming from where `runtime` says.
 */
export function renderUvLock(target: PythonTarget, pyproject: string, runtime: RuntimeView): string {
  const data = lockData(target);
  const project = readPyproject(pyproject);
  if (uvRequiresPython(project.requiresPython) !== data.requiresPython) {
    throw new Error(`uv.lock: pyproject.toml's requires-python ${project.requiresPython} is not python/${target}.uv-lock.json's ${data.requiresPython}; rerun scripts/python-lock-data.mjs`);
  }
  const byName = new Map<string, LockPackage[]>();
  for (const p of data.packages) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  const missing = (name: string) => new Error(`uv.lock: ${name} is not in python/${target}.uv-lock.json; rerun scripts/python-lock-data.mjs`);

  // The closure: every package an edge reaches, whatever its marker (a lock is for every
  // platform), with the extras edges ask of it.
  const chosen = new Map<LockPackage, Set<string>>();
  const queue: LockPackage[] = [];
  const reach = (edge: Edge): void => {
    const candidates = (byName.get(edge.name) ?? []).filter((p) => !edge.version || p.version === edge.version);
    if (candidates.length === 0) throw missing(edge.version ? `${edge.name} ${edge.version}` : edge.name);
    for (const p of candidates) {
      let extras = chosen.get(p);
      if (!extras) {
        extras = new Set();
        chosen.set(p, extras);
        queue.push(p);
      }
      for (const x of edge.extra ?? []) {
        if (!p.extras[x]) throw missing(`${edge.name}[${x}]`);
        if (!extras.has(x)) {
          extras.add(x);
          p.extras[x]!.dependencies.forEach(reach);
        }
      }
    }
  };
  const drain = (): void => {
    for (let p = queue.shift(); p; p = queue.shift()) p.dependencies.forEach(reach);
  };

  // The project's edges: one per requirement, or one per version of a name the data forks.
  const edges = (requirements: readonly string[]): string[] =>
    requirements
      .map(parseRequirement)
      .sort(byRequirement)
      .flatMap((r) => {
        if (r.name === RUNTIME_DISTRIBUTION) {
          runtimeExtras.push(...r.extras);
          return [edgeText(r.name, r.extras)];
        }
        const versions = byName.get(r.name) ?? [];
        if (versions.length === 0) throw missing(r.name);
        const forks = versions.length > 1 ? data.direct[r.name] : [undefined];
        if (!forks) throw missing(`${r.name} (one edge per version)`);
        for (const fork of forks) reach({ name: r.name, ...(fork?.version ? { version: fork.version as string } : {}), extra: r.extras });
        return forks.map((fork) => edgeText(r.name, r.extras, fork));
      });
  const runtimeExtras: string[] = [];
  const rootDeps = edges(project.dependencies);
  const rootOptional = project.optional.map(([name, reqs]) => [name, edges(reqs)] as const);
  const rootGroups = project.groups.map(([name, reqs]) => [name, edges(reqs)] as const);

  // envelope-runtime's own entry, from the library's pyproject.toml as this tool vendors it.
  const library = readPyproject(runtimeLibraryPyproject());
  const runtimeBlocks: string[] = [];
  if (runtimeExtras.length) {
    const where = runtimeSource(runtime);
    const libEdges = (reqs: readonly string[]) =>
      reqs
        .map(parseRequirement)
        .sort(byRequirement)
        .map((r) => {
          if ((byName.get(r.name) ?? []).length !== 1) throw missing(`${r.name} (exactly one version, for envelope-runtime)`);
          reach({ name: r.name, extra: r.extras });
          return edgeText(r.name, r.extras);
        });
    const active = [...new Set(runtimeExtras)].sort(compare);
    const extraTables = active.map((x) => {
      const reqs = library.optional.find(([k]) => k === x);
      if (!reqs) throw new Error(`uv.lock: envelope-runtime has no extra ${x}`);
      return list(x, libEdges(reqs[1]));
    });
    const requiresDist = [
      ...library.dependencies.map(parseRequirement),
      ...library.optional.flatMap(([x, reqs]) => reqs.map((r) => ({ ...parseRequirement(r), marker: `extra == '${x}'` }))),
    ].sort(byRequirement);
    let block = `name = ${str(RUNTIME_DISTRIBUTION)}\nversion = ${str(library.version)}\nsource = ${where.source}\n${list("dependencies", libEdges(library.dependencies))}${where.files}`;
    block += `\n[package.optional-dependencies]\n${extraTables.join("")}`;
    // A source tree's metadata (uv checks it against the tree's pyproject.toml); an index's package has none.
    if (runtime.vendored) block += `\n[package.metadata]\n${list("requires-dist", requiresDist.map((r) => metadataText(r, undefined)))}provides-extras = [${library.optional.map(([x]) => str(x)).join(", ")}]\n`;
    runtimeBlocks.push(block);
  }
  drain();

  // The project's entry, as `uv lock` writes a project with a build system (editable).
  const runtimeRequirement = (r: Requirement) => (r.name === RUNTIME_DISTRIBUTION ? runtimeSource(runtime).requiresDist : undefined);
  const requiresDist = [
    ...project.dependencies.map(parseRequirement),
    ...project.optional.flatMap(([x, reqs]) => reqs.map((r) => ({ ...parseRequirement(r), marker: `extra == '${x}'` }))),
  ].sort(byRequirement);
  let root = `name = ${str(project.name)}\nversion = ${str(project.version)}\nsource = { editable = "." }\n${list("dependencies", rootDeps)}`;
  if (rootOptional.length) root += `\n[package.optional-dependencies]\n${rootOptional.map(([x, e]) => list(x, e)).join("")}`;
  if (rootGroups.length) root += `\n[package.dev-dependencies]\n${rootGroups.map(([g, e]) => list(g, e)).join("")}`;
  root += `\n[package.metadata]\n${list("requires-dist", requiresDist.map((r) => metadataText(r, runtimeRequirement(r))))}`;
  if (project.optional.length) root += `provides-extras = [${project.optional.map(([x]) => str(x)).join(", ")}]\n`;
  if (project.groups.length) {
    root += `\n[package.metadata.requires-dev]\n${project.groups.map(([g, reqs]) => list(g, reqs.map(parseRequirement).sort(byRequirement).map((r) => metadataText(r, runtimeRequirement(r))))).join("")}`;
  }

  // Every entry in uv's order (by name; the data is in it already).
  const blocks: Array<{ name: string; text: string }> = data.packages
    .filter((p) => chosen.has(p))
    .map((p) => {
      const extras = Object.keys(p.extras).filter((x) => chosen.get(p)!.has(x));
      const optional = extras.length ? `\n[package.optional-dependencies]\n${extras.map((x) => `${x} = [\n${p.extras[x]!.text}]\n`).join("")}` : "";
      return { name: p.name, text: p.text + optional };
    });
  for (const own of [{ name: project.name, text: root }, ...runtimeBlocks.map((text) => ({ name: RUNTIME_DISTRIBUTION, text }))]) {
    const at = blocks.findIndex((b) => compare(b.name, own.name) > 0);
    blocks.splice(at < 0 ? blocks.length : at, 0, own);
  }
  return data.header + blocks.map((b) => `[[package]]\n${b.text}`).join("\n");
}

/** Adds uv.lock beside the pyproject.toml `files` already holds. */
export function addUvLock(files: FileSet, target: PythonTarget, runtime: RuntimeView): void {
  const pyproject = files.text("pyproject.toml");
  if (pyproject === undefined) throw new Error("uv.lock: render pyproject.toml first");
  files.addLock("uv.lock", renderUvLock(target, pyproject, runtime), "uv lock");
}
