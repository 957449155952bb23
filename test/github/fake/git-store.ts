// Real bare git repositories behind the fake GitHub, so the objects the fake hands out (blob,
// tree and commit shas) are exactly the ones GitHub would, and a test can `git clone` the
// result. Blobs and trees are written as loose objects directly (git's object format is
// three lines of code, and a spawn per directory made the suite slow); commits, refs and
// reads go through git's plumbing. Tests run `git fsck --strict` on every repository they
// check, which verifies each object written here (entry order, modes, shas).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

export interface TreeItem {
  mode: string;
  type: "blob" | "tree" | "commit";
  sha: string;
}

export interface Person {
  name: string;
  email: string;
  date: string; // ISO 8601
}

export interface CommitInfo {
  tree: string;
  parents: string[];
  author: Person;
  committer: Person;
  message: string;
}

export class GitError extends Error {}

export class GitStore {
  constructor(private readonly root: string) {}

  private env(): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: this.root,
      LC_ALL: "C",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_TERMINAL_PROMPT: "0",
    };
  }

  git(dir: string, args: string[], input?: string | Uint8Array, extraEnv: NodeJS.ProcessEnv = {}): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = spawn("git", args, { cwd: dir, env: { ...this.env(), ...extraEnv }, stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout!.on("data", (c: Buffer) => out.push(c));
      child.stderr!.on("data", (c: Buffer) => err.push(c));
      child.on("error", reject);
      child.on("close", (code) => {
        if (code === 0) resolve(Buffer.concat(out));
        else reject(new GitError(`git ${args.join(" ")}: ${Buffer.concat(err).toString().trim()}`));
      });
      if (child.stdin) {
        child.stdin.on("error", () => {}); // git may exit without reading; its exit status tells
        child.stdin.end(input);
      }
    });
  }

  async init(dir: string, branch: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    await this.git(dir, ["init", "--quiet", "--bare", `--initial-branch=${branch}`]);
  }

  /** A loose object: zlib("<type> <size>\\0<content>") under objects/, named by its SHA-1. */
  private async writeObject(dir: string, type: "blob" | "tree", content: Uint8Array): Promise<string> {
    const raw = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
    const sha = createHash("sha1").update(raw).digest("hex");
    const folder = join(dir, "objects", sha.slice(0, 2));
    const file = join(folder, sha.slice(2));
    if (await stat(file).catch(() => undefined)) return sha;
    await mkdir(folder, { recursive: true });
    const temp = `${file}.tmp-${process.pid}`;
    await writeFile(temp, deflateSync(raw));
    await rename(temp, file);
    return sha;
  }

  async writeBlobs(dir: string, contents: Uint8Array[]): Promise<string[]> {
    const shas: string[] = [];
    for (const bytes of contents) shas.push(await this.writeObject(dir, "blob", bytes));
    return shas;
  }

  async objectType(dir: string, sha: string): Promise<string | undefined> {
    if (!/^[0-9a-f]{40}$/.test(sha)) return undefined;
    try {
      return (await this.git(dir, ["cat-file", "-t", sha])).toString().trim();
    } catch {
      return undefined;
    }
  }

  /** Every file of a tree, recursively: path → item. */
  async flatten(dir: string, tree: string): Promise<Map<string, TreeItem>> {
    const out = new Map<string, TreeItem>();
    const text = (await this.git(dir, ["ls-tree", "-r", "-z", "--full-tree", tree])).toString();
    for (const line of text.split("\0")) {
      if (!line) continue;
      const tab = line.indexOf("\t");
      const [mode, type, sha] = line.slice(0, tab).split(" ") as [string, TreeItem["type"], string];
      out.set(line.slice(tab + 1), { mode, type, sha });
    }
    return out;
  }

  /** The top-level entries of a tree (or, recursive, every entry below it, folders too), with blob sizes. */
  async list(dir: string, tree: string, recursive = false): Promise<Array<TreeItem & { path: string; size?: number }>> {
    const text = (await this.git(dir, ["ls-tree", "-l", "-z", ...(recursive ? ["-r", "-t"] : []), tree])).toString();
    return text
      .split("\0")
      .filter(Boolean)
      .map((line) => {
        const tab = line.indexOf("\t");
        const [mode, type, sha, size] = line.slice(0, tab).split(/ +/) as [string, TreeItem["type"], string, string];
        return { path: line.slice(tab + 1), mode, type, sha, ...(type === "blob" ? { size: Number(size) } : {}) };
      });
  }

  /** Builds nested tree objects from flat paths; returns the root tree's sha. */
  async writeTree(dir: string, files: Map<string, TreeItem>): Promise<string> {
    interface Node {
      files: Map<string, TreeItem>;
      dirs: Map<string, Node>;
    }
    const root: Node = { files: new Map(), dirs: new Map() };
    for (const [path, item] of files) {
      const parts = path.split("/");
      let node = root;
      for (const part of parts.slice(0, -1)) {
        let next = node.dirs.get(part);
        if (!next) node.dirs.set(part, (next = { files: new Map(), dirs: new Map() }));
        node = next;
      }
      const leaf = parts.at(-1)!;
      if (node.dirs.has(leaf)) throw new GitError(`${path} is both a file and a directory`);
      node.files.set(leaf, item);
    }
    const write = async (node: Node): Promise<string> => {
      // Git orders entries by name, a directory's name compared as if it ended in "/".
      const entries: Array<{ key: string; mode: string; name: string; sha: string }> = [];
      for (const [name, item] of node.files) {
        if (node.dirs.has(name)) throw new GitError(`${name} is both a file and a directory`);
        entries.push({ key: name, mode: item.mode.replace(/^0+/, ""), name, sha: item.sha });
      }
      for (const [name, child] of node.dirs) entries.push({ key: `${name}/`, mode: "40000", name, sha: await write(child) });
      entries.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
      const body = Buffer.concat(entries.flatMap((e) => [Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.sha, "hex")]));
      return this.writeObject(dir, "tree", body);
    };
    return write(root);
  }

  async commit(dir: string, info: CommitInfo): Promise<string> {
    const args = ["commit-tree", info.tree, ...info.parents.flatMap((p) => ["-p", p]), "-F", "-"];
    const out = await this.git(dir, args, info.message, {
      GIT_AUTHOR_NAME: info.author.name,
      GIT_AUTHOR_EMAIL: info.author.email,
      GIT_AUTHOR_DATE: info.author.date,
      GIT_COMMITTER_NAME: info.committer.name,
      GIT_COMMITTER_EMAIL: info.committer.email,
      GIT_COMMITTER_DATE: info.committer.date,
    });
    return out.toString().trim();
  }

  async readCommit(dir: string, sha: string): Promise<CommitInfo> {
    const text = (await this.git(dir, ["cat-file", "commit", sha])).toString();
    const split = text.indexOf("\n\n");
    const head = text.slice(0, split).split("\n");
    const person = (line: string | undefined): Person => {
      const m = /^\w+ (.*) <(.*)> (\d+) ([+-]\d{4})$/.exec(line ?? "");
      if (!m) throw new GitError(`unreadable commit ${sha}`);
      return { name: m[1]!, email: m[2]!, date: new Date(Number(m[3]) * 1000).toISOString().replace(/\.000Z$/, "Z") };
    };
    return {
      tree: head.find((l) => l.startsWith("tree "))!.slice(5),
      parents: head.filter((l) => l.startsWith("parent ")).map((l) => l.slice(7)),
      author: person(head.find((l) => l.startsWith("author "))),
      committer: person(head.find((l) => l.startsWith("committer "))),
      message: text.slice(split + 2),
    };
  }

  async resolve(dir: string, ref: string): Promise<string | undefined> {
    try {
      return (await this.git(dir, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])).toString().trim() || undefined;
    } catch {
      return undefined;
    }
  }

  async isAncestor(dir: string, ancestor: string, descendant: string): Promise<boolean> {
    try {
      await this.git(dir, ["merge-base", "--is-ancestor", ancestor, descendant]);
      return true;
    } catch {
      return false;
    }
  }

  async setRef(dir: string, ref: string, sha: string): Promise<void> {
    await this.git(dir, ["update-ref", ref, sha]);
  }
}
