// An already exported project directory → a FileSet, for `envelope publish DIR`. What the
// project's `.gitignore` files exclude is left out, as `git add .` would (nested files,
// negation, `dir/`, anchors, `**`, classes: see gitignore.ts), and so is every `.env*`
// other than `.env.example`, whatever the ignore rules say: those hold the secrets the
// exported README tells the user to put there, and publish creates public repositories by
// default. Everything left out is reported, never fatal; ignored directories are not even
// read (a `.venv` holds thousands of files and symbolic links).
//
// Only regular files are taken: a symbolic link or other special file that is not ignored
// is refused rather than followed (it could point outside the project). `.git` is skipped:
// the repository is the history being created, not content. An executable bit on any class
// makes the file 0o755.
//
// The walk decides from lstat alone; files are read after it, so a file GitHub cannot take
// (over 25 MB) is refused by its size before anything is read. Folders a Python project does
// not usually hold (`node_modules/`, `build/`…) that no rule excludes are pushed, as `git add .`
// would, and named with their size, so the user can add them to .gitignore first.
import { constants } from "node:fs";
import { lstat, open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { FileSet, UnsafePathError } from "../export/file-set.js";
import { PublishError } from "./errors.js";
import { decidingRule, parseGitignore, type IgnoreRule } from "./gitignore.js";
import { DEFAULT_LIMITS } from "./upload-plan.js";

const MAX_FILES = 10_000;

/**
 * Folders a Python developer would not expect in the repository (tooling of other languages,
 * build output, caches, a virtualenv not named .venv): still published when no rule excludes
 * them, and named.
 */
const UNEXPECTED_FOLDERS = new Set(["node_modules", "bower_components", "build", "htmlcov", ".mypy_cache", ".tox", ".nox", ".ipynb_checkpoints", "venv", ".hypothesis"]);

/** A folder publish takes although a Python project does not usually hold it, and how much of it. */
export interface Unexpected {
  /** Ends with `/`. */
  path: string;
  files: number;
  bytes: number;
}

/** A path publish left out, and why. Directories end with `/`. */
export interface LeftOut {
  path: string;
  reason: "gitignore" | "env-file";
  /** For `gitignore`: where the deciding rule is, `.gitignore:3: .venv/`. */
  rule?: string;
}

export interface DirectoryContents {
  files: FileSet;
  /** In path order. */
  leftOut: LeftOut[];
  /** Published, but not what a Python project usually holds (node_modules/…); in path order. */
  unexpected: Unexpected[];
}

/**
 * `.env`, `.env.local`, `.envrc` …: never published, except the documented template and the
 * export's own files, which belong in the repository: `.envelope/` (the record an update
 * needs) and `.envelopeignore` (the paths an update must not rewrite).
 */
const PUBLISHED_DOTENV_NAMES = new Set([".env.example", ".envelope", ".envelopeignore"]);
export const isEnvFile = (name: string) => name.startsWith(".env") && !PUBLISHED_DOTENV_NAMES.has(name);

/**
 * A regular file's bytes, read without following a symbolic link: a file swapped for a link
 * between the walk's lstat and this read is refused (ELOOP), never published.
 */
async function readRegularFile(path: string): Promise<Uint8Array> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    if (!(await handle.stat()).isFile()) throw Object.assign(new Error(`${path} is no longer a regular file`), { code: "ELOOP" });
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** The files publish takes from `dir`, and what it left out. */
export async function readDirectory(dir: string): Promise<DirectoryContents> {
  const top = await lstat(dir).catch((e: NodeJS.ErrnoException) => {
    throw new PublishError("invalid-input", `cannot read ${dir}: ${e.code === "ENOENT" ? "no such directory" : e.message}`);
  });
  if (!top.isDirectory()) throw new PublishError("invalid-input", `${dir} is not a directory (publish takes an exported project directory)`);
  const leftOut: LeftOut[] = [];
  const unexpected: Unexpected[] = [];
  // What the walk takes, read once it is over: [path, mode, the bytes when already read (a .gitignore)].
  const taken: Array<{ path: string; mode: number; bytes?: Uint8Array }> = [];
  const tooLarge: string[] = [];
  const maxBytes = DEFAULT_LIMITS.maxFileBytes;
  const walk = async (rel: string, inherited: readonly IgnoreRule[], inside?: Unexpected): Promise<void> => {
    const names = (await readdir(join(dir, rel))).sort();
    let rules = inherited;
    // Read once: its rules apply here, and its bytes are published below.
    let gitignore: Uint8Array | undefined;
    if (names.includes(".gitignore")) {
      const info = await lstat(join(dir, rel, ".gitignore"));
      // A linked or special .gitignore is refused below like any other such file; one too large to publish is not read.
      if (info.isFile() && info.size <= maxBytes) {
        gitignore = await readRegularFile(join(dir, rel, ".gitignore"));
        rules = [...inherited, ...parseGitignore(new TextDecoder().decode(gitignore), rel)];
      }
    }
    for (const name of names) {
      const path = rel ? `${rel}/${name}` : name;
      if (name === ".git") continue;
      const info = await lstat(join(dir, path));
      // Git treats a symbolic link as a file, even one to a directory: `dir/` rules skip it.
      const isDirectory = info.isDirectory();
      const shown = isDirectory ? `${path}/` : path;
      if (isEnvFile(name)) {
        leftOut.push({ path: shown, reason: "env-file" });
        continue;
      }
      const rule = decidingRule(rules, path, isDirectory);
      if (rule && !rule.negated) {
        leftOut.push({ path: shown, reason: "gitignore", rule: `${rule.source}:${rule.line}: ${rule.text}` });
        continue;
      }
      if (isDirectory) {
        let folder = inside;
        if (!folder && UNEXPECTED_FOLDERS.has(name)) unexpected.push((folder = { path: shown, files: 0, bytes: 0 }));
        await walk(path, rules, folder);
      } else if (info.isFile()) {
        if (taken.length >= MAX_FILES) throw new PublishError("invalid-input", `${dir} holds more than ${MAX_FILES} files that .gitignore does not exclude: is it really an exported project?`);
        if (info.size > maxBytes) tooLarge.push(`${path} (${info.size} bytes)`);
        taken.push({ path, mode: info.mode & 0o111 ? 0o755 : 0o644, ...(name === ".gitignore" && gitignore ? { bytes: gitignore } : {}) });
        if (inside) {
          inside.files++;
          inside.bytes += info.size;
        }
      } else {
        const what = info.isSymbolicLink() ? "symbolic link" : "special file";
        throw new PublishError(
          "invalid-input",
          `${join(dir, path)} is a ${what}, which cannot be published (only regular files are): add ${path} to .gitignore, or replace it with the file itself`,
        );
      }
    }
  };
  await walk("", []);
  if (taken.length === 0) {
    const why = leftOut.length ? `holds nothing to publish: every path in it is left out (${leftOut.map((l) => l.path).join(", ")})` : "is empty: there is nothing to publish";
    throw new PublishError("invalid-input", `${dir} ${why}`);
  }
  // As planUpload would say after reading them (same kind, same exit code), but before reading any.
  if (tooLarge.length) {
    throw new PublishError("rejected", `GitHub cannot take files over ${maxBytes / 1024 / 1024} MB through its API: ${tooLarge.join(", ")}`, {
      hint: "add them to .gitignore, or push the project with git and Git LFS",
    });
  }
  const files = new FileSet();
  for (const t of taken) {
    try {
      files.add(t.path, t.bytes ?? (await readRegularFile(join(dir, t.path))), t.mode);
    } catch (e) {
      if (e instanceof UnsafePathError) throw new PublishError("invalid-input", `${e.message} in ${dir}: such a name cannot be published`);
      throw e;
    }
  }
  return { files, leftOut, unexpected };
}

/** The files only; what was left out is in `readDirectory`'s answer. */
export async function readDirectoryFiles(dir: string): Promise<FileSet> {
  return (await readDirectory(dir)).files;
}
