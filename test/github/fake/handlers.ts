// What the fake GitHub does for each operation, following GitHub's documented behaviour:
// accounts and tokens with scopes, repository creation (the exact 422 for a taken name,
// auto_init's README commit), 409 "Git Repository is empty." on the Git Data API before a
// first commit, blobs/trees/commits written into a real bare repository, fast-forward checks
// on ref updates, and GitHub's refusal to write workflows without the workflow scope.
import { join } from "node:path";
import type { Contract, Operation, Schema } from "./contract.js";
import { sample } from "./contract.js";
import { GitError, GitStore, type Person, type TreeItem } from "./git-store.js";

export interface Account {
  login: string;
  type: "User" | "Organization";
  /** Organizations: the users who may create repositories in it. */
  members?: string[];
}

export interface TokenGrant {
  login: string;
  /** A classic token's scopes (sent back in x-oauth-scopes); null for a fine-grained token. */
  scopes: string[] | null;
  /** A fine-grained token's permissions. */
  permissions?: { administration?: boolean; contents?: boolean; workflows?: boolean };
  expired?: boolean;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Repo {
  id: number;
  owner: Account & { id: number };
  name: string;
  private: boolean;
  description: string | null;
  defaultBranch: string;
  createdAt: string;
  dir: string;
  /** Once true, stays true: the Git Data API answers 409 only until the first commit. */
  hasCommits?: boolean;
  /** Pull requests opened through the API, numbered from 1 as GitHub numbers them. */
  pulls: PullRecord[];
}

/** A pull request as the fake keeps it (tests read these through FakeGitHub.pullRequests). */
export interface PullRecord {
  number: number;
  title: string;
  body: string | null;
  head: string;
  base: string;
  /** The head and base commits when it was opened. */
  headSha: string;
  baseSha: string;
  draft: boolean;
  /** A test may close one (the fake has no endpoint for it). */
  state: "open" | "closed";
}

export interface HandlerContext {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  grant: TokenGrant;
}

const DOCS = "https://docs.github.com/rest";
const notFound = (doc = ""): Answer => ({ status: 404, body: { message: "Not Found", documentation_url: `${DOCS}${doc}`, status: "404" } });
const invalid = (message: string, doc = "", errors?: unknown[]): Answer => ({ status: 422, body: { message, documentation_url: `${DOCS}${doc}`, ...(errors ? { errors } : {}), status: "422" } });
const EMPTY: Answer = { status: 409, body: { message: "Git Repository is empty.", documentation_url: `${DOCS}/git`, status: "409" } };
const TIMED_OUT =
  "Sorry, your request timed out.  It's likely that your input was too large to process.  Consider building the tree incrementally, or building the commits you need in a local clone of the repository and then pushing them to GitHub.";

export interface StateOptions {
  accounts: Account[];
  defaultBranch: string;
  maxTreeEntries?: number;
  now: () => Date;
}

export class GitHubState {
  private readonly accounts = new Map<string, Account & { id: number }>();
  private readonly repos = new Map<string, Repo>();
  private nextId = 1000;
  readonly git: GitStore;

  constructor(
    private readonly root: string,
    private readonly contract: Contract,
    private readonly options: StateOptions,
    private readonly origin: () => string,
  ) {
    this.git = new GitStore(root);
    options.accounts.forEach((a, i) => this.accounts.set(a.login.toLowerCase(), { ...a, id: i + 1 }));
  }

  repoDir(owner: string, name: string): string {
    return join(this.root, "repos", owner.toLowerCase(), `${name.toLowerCase()}.git`);
  }

  pullRequests(owner: string, name: string): PullRecord[] {
    return this.repos.get(`${owner}/${name}`.toLowerCase())?.pulls ?? [];
  }

  private api(): string {
    return this.origin();
  }

  private web(): string {
    return this.origin().replace(/\/api\/v3$/, "");
  }

  /** Pre-existing repositories (for name collisions). */
  async seed(owner: string, name: string, isPrivate = false): Promise<void> {
    const account = this.accounts.get(owner.toLowerCase());
    if (!account) throw new Error(`seed: no account ${owner}`);
    await this.createRepo(account, name, { private: isPrivate, autoInit: true, description: null });
  }

  /** Scopes announced on every answer to a classic token, as GitHub does. */
  scopeHeaders(grant: TokenGrant): Record<string, string> {
    return grant.scopes ? { "x-oauth-scopes": grant.scopes.join(", ") } : {};
  }

  account(login: string): (Account & { id: number }) | undefined {
    return this.accounts.get(login.toLowerCase());
  }

  private response(operationId: string, status: number, fill: Record<string, unknown>, alternative = 0): unknown {
    const schema = this.contract.operation(operationId).responses[String(status)] as Schema;
    const one = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    return deepMerge(sample(one?.[alternative] ?? schema), fill);
  }

  private userJson(a: Account & { id: number }): Record<string, unknown> {
    const url = `${this.api()}/users/${a.login}`;
    return {
      login: a.login,
      id: a.id,
      node_id: `U_${a.id}`,
      type: a.type,
      html_url: `${this.web()}/${a.login}`,
      url,
      avatar_url: `${this.web()}/avatars/${a.id}`,
      gravatar_id: "",
      repos_url: `${url}/repos`,
      // What a nullable simple user must carry where the fake's sample of the schema is null (a pull request's head.user).
      events_url: `${url}/events{/privacy}`,
      followers_url: `${url}/followers`,
      following_url: `${url}/following{/other_user}`,
      gists_url: `${url}/gists{/gist_id}`,
      organizations_url: `${url}/orgs`,
      received_events_url: `${url}/received_events`,
      starred_url: `${url}/starred{/owner}{/repo}`,
      subscriptions_url: `${url}/subscriptions`,
      site_admin: false,
      name: a.login,
      created_at: "2020-01-01T00:00:00Z",
      updated_at: "2020-01-01T00:00:00Z",
    };
  }

  private repoJson(operationId: string, status: number, r: Repo): unknown {
    const api = `${this.api()}/repos/${r.owner.login}/${r.name}`;
    const web = `${this.web()}/${r.owner.login}/${r.name}`;
    return this.response(operationId, status, {
      id: r.id,
      node_id: `R_${r.id}`,
      name: r.name,
      full_name: `${r.owner.login}/${r.name}`,
      owner: this.userJson(r.owner),
      private: r.private,
      visibility: r.private ? "private" : "public",
      description: r.description,
      html_url: web,
      url: api,
      clone_url: `${web}.git`,
      git_url: `${web}.git`.replace(/^https?/, "git"),
      ssh_url: `git@${new URL(this.web()).host}:${r.owner.login}/${r.name}.git`,
      svn_url: web,
      default_branch: r.defaultBranch,
      created_at: r.createdAt,
      updated_at: r.createdAt,
      pushed_at: r.createdAt,
      has_issues: true,
      has_projects: true,
      has_wiki: true,
    });
  }

  private find(owner: string, name: string, grant: TokenGrant): Repo | undefined {
    const r = this.repos.get(`${owner}/${name}`.toLowerCase());
    if (!r) return undefined;
    if (r.private && !this.mayAdminister(grant, r.owner)) return undefined; // private repos are invisible to others
    return r;
  }

  private mayAdminister(grant: TokenGrant, owner: Account): boolean {
    if (owner.type === "User") return owner.login.toLowerCase() === grant.login.toLowerCase();
    return (owner.members ?? []).some((m) => m.toLowerCase() === grant.login.toLowerCase());
  }

  private async createRepo(owner: Account & { id: number }, name: string, o: { private: boolean; autoInit: boolean; description: string | null }): Promise<Repo> {
    const repo: Repo = {
      id: this.nextId++,
      owner,
      name,
      private: o.private,
      description: o.description,
      defaultBranch: this.options.defaultBranch,
      createdAt: this.options.now().toISOString().replace(/\.\d{3}Z$/, "Z"),
      dir: this.repoDir(owner.login, name),
      pulls: [],
    };
    await this.git.init(repo.dir, repo.defaultBranch);
    if (o.autoInit) {
      const [readme] = await this.git.writeBlobs(repo.dir, [new TextEncoder().encode(`# ${name}\n${o.description ? `${o.description}\n` : ""}`)]);
      const tree = await this.git.writeTree(repo.dir, new Map([["README.md", { mode: "100644", type: "blob", sha: readme! }]]));
      const who = this.person(owner, undefined);
      const commit = await this.git.commit(repo.dir, { tree, parents: [], author: who, committer: who, message: "Initial commit" });
      await this.git.setRef(repo.dir, `refs/heads/${repo.defaultBranch}`, commit);
    }
    this.repos.set(`${owner.login}/${name}`.toLowerCase(), repo);
    return repo;
  }

  private person(a: Account & { id: number }, given: { name?: string; email?: string; date?: string } | undefined): Person {
    return {
      name: given?.name ?? a.login,
      email: given?.email ?? `${a.id}+${a.login}@users.noreply.github.com`,
      date: given?.date ?? this.options.now().toISOString().replace(/\.\d{3}Z$/, "Z"),
    };
  }

  /** A classic token needs public_repo (repo for private); a fine-grained one Administration: write. */
  private mayCreate(grant: TokenGrant, isPrivate: boolean): Answer | undefined {
    if (grant.scopes) {
      const ok = grant.scopes.includes("repo") || (!isPrivate && grant.scopes.includes("public_repo"));
      if (!ok) return { status: 403, headers: { "x-accepted-oauth-scopes": "public_repo, repo" }, body: { message: "Resource not accessible by personal access token", documentation_url: `${DOCS}/repos/repos#create-a-repository-for-the-authenticated-user`, status: "403" } };
    } else if (!grant.permissions?.administration) {
      return { status: 403, headers: { "x-accepted-github-permissions": "administration=write" }, body: { message: "Resource not accessible by personal access token", documentation_url: `${DOCS}/repos/repos#create-a-repository-for-the-authenticated-user`, status: "403" } };
    }
    return undefined;
  }

  private mayWriteContents(grant: TokenGrant): Answer | undefined {
    if (grant.scopes === null && !grant.permissions?.contents) {
      return { status: 403, headers: { "x-accepted-github-permissions": "contents=write" }, body: { message: "Resource not accessible by personal access token", documentation_url: `${DOCS}/git`, status: "403" } };
    }
    return undefined;
  }

  async handle(operation: Operation, ctx: HandlerContext): Promise<Answer> {
    const p = ctx.params;
    const b = (ctx.body ?? {}) as Record<string, unknown>;
    const me = this.accounts.get(ctx.grant.login.toLowerCase())!;
    switch (operation.operationId) {
      case "users/get-authenticated":
        return { status: 200, body: this.response(operation.operationId, 200, this.userJson(me), 0) };
      case "users/get-by-username": {
        const a = this.account(p.username!);
        return a ? { status: 200, body: this.response(operation.operationId, 200, this.userJson(a), 1) } : notFound("/users/users#get-a-user");
      }
      case "repos/get": {
        const r = this.find(p.owner!, p.repo!, ctx.grant);
        return r ? { status: 200, body: this.repoJson(operation.operationId, 200, r) } : notFound("/repos/repos#get-a-repository");
      }
      case "repos/create-for-authenticated-user":
      case "repos/create-in-org": {
        const org = operation.operationId === "repos/create-in-org";
        const owner = org ? this.account(p.org!) : me;
        if (!owner || (org && owner.type !== "Organization")) return notFound("/repos/repos#create-an-organization-repository");
        if (org && !this.mayAdminister(ctx.grant, owner)) {
          return { status: 403, body: { message: "You need admin access to the organization before adding a repository to it.", documentation_url: `${DOCS}/repos/repos#create-an-organization-repository`, status: "403" } };
        }
        const isPrivate = b.private === true || b.visibility === "private";
        const refused = this.mayCreate(ctx.grant, isPrivate);
        if (refused) return refused;
        // GitHub turns other characters into "-" and drops a .git suffix.
        const name = String(b.name ?? "")
          .replace(/[^A-Za-z0-9._-]/g, "-")
          .replace(/\.git$/i, "");
        if (!name || name.length > 100) return invalid("Repository creation failed.", "/repos/repos", [{ resource: "Repository", code: "custom", field: "name", message: "name is invalid" }]);
        if (this.repos.has(`${owner.login}/${name}`.toLowerCase())) {
          return invalid("Repository creation failed.", "/repos/repos#create-a-repository-for-the-authenticated-user", [{ resource: "Repository", code: "custom", field: "name", message: "name already exists on this account" }]);
        }
        const repo = await this.createRepo(owner, name, { private: isPrivate, autoInit: b.auto_init === true, description: typeof b.description === "string" ? b.description : null });
        return { status: 201, body: this.repoJson(operation.operationId, 201, repo) };
      }
    }
    // The Git Data API.
    const repo = this.find(p.owner!, p.repo!, ctx.grant);
    if (!repo) return notFound("/git");
    if (!repo.hasCommits) repo.hasCommits = (await this.git.git(repo.dir, ["for-each-ref", "--count=1"])).length > 0;
    if (!repo.hasCommits) return EMPTY;
    const api = `${this.api()}/repos/${repo.owner.login}/${repo.name}`;
    if (operation.method !== "GET") {
      const refused = this.mayWriteContents(ctx.grant);
      if (refused) return refused;
    }
    switch (operation.operationId) {
      case "git/get-ref": {
        const ref = `refs/${p.ref}`;
        const sha = await this.git.resolve(repo.dir, ref);
        if (!sha) return notFound("/git/refs#get-a-reference");
        return { status: 200, body: this.response(operation.operationId, 200, { ref, node_id: `REF_${sha.slice(0, 8)}`, url: `${api}/git/${ref}`, object: { type: "commit", sha, url: `${api}/git/commits/${sha}` } }) };
      }
      case "git/create-blob": {
        const encoding = b.encoding ?? "utf-8";
        if (encoding !== "utf-8" && encoding !== "base64") return invalid(`encoding must be utf-8 or base64`, "/git/blobs#create-a-blob");
        const bytes = encoding === "base64" ? Buffer.from(String(b.content), "base64") : Buffer.from(String(b.content), "utf8");
        const [sha] = await this.git.writeBlobs(repo.dir, [bytes]);
        return { status: 201, body: this.response(operation.operationId, 201, { sha, url: `${api}/git/blobs/${sha}` }) };
      }
      case "git/create-tree":
        return this.createTree(operation, repo, b, api);
      case "git/create-commit": {
        if ((await this.git.objectType(repo.dir, String(b.tree))) !== "tree") return invalid("Tree SHA does not exist", "/git/commits#create-a-commit");
        const parents = (b.parents as string[] | undefined) ?? [];
        for (const parent of parents) if ((await this.git.objectType(repo.dir, parent)) !== "commit") return invalid("Parent SHA does not exist or is not a commit object", "/git/commits#create-a-commit");
        const author = this.person(me, b.author as Record<string, string> | undefined);
        const committer = b.committer ? this.person(me, b.committer as Record<string, string>) : author;
        const sha = await this.git.commit(repo.dir, { tree: String(b.tree), parents, author, committer, message: String(b.message) });
        return { status: 201, body: await this.commitJson(operation, 201, repo, sha) };
      }
      case "git/get-commit": {
        if ((await this.git.objectType(repo.dir, p.commit_sha!)) !== "commit") return notFound("/git/commits#get-a-commit-object");
        return { status: 200, body: await this.commitJson(operation, 200, repo, p.commit_sha!) };
      }
      case "git/get-tree":
        return this.getTree(operation, repo, p.tree_sha!, ctx.query.has("recursive"), api);
      case "git/get-blob": {
        if ((await this.git.objectType(repo.dir, p.file_sha!)) !== "blob") return notFound("/git/blobs#get-a-blob");
        const bytes = await this.git.git(repo.dir, ["cat-file", "blob", p.file_sha!]);
        // GitHub wraps the base64 at 60 characters, as `base64` does.
        const content = (bytes.toString("base64").match(/.{1,60}/g) ?? [""]).join("\n") + "\n";
        return { status: 200, body: this.response(operation.operationId, 200, { sha: p.file_sha, node_id: `B_${p.file_sha!.slice(0, 8)}`, size: bytes.length, url: `${api}/git/blobs/${p.file_sha}`, content, encoding: "base64" }) };
      }
      case "git/create-ref": {
        const doc = "/git/refs#create-a-reference";
        const ref = String(b.ref);
        if (!/^refs\/[^/]+\/./.test(ref)) return invalid("Reference name must start with 'refs/' and have at least two slashes.", doc);
        const sha = String(b.sha);
        if ((await this.git.objectType(repo.dir, sha)) !== "commit") return invalid("Object does not exist", doc);
        if (await this.git.resolve(repo.dir, ref)) return invalid("Reference already exists", doc);
        const workflow = await this.changedWorkflow(repo, sha);
        if (workflow && !mayWriteWorkflows(ctx.grant)) return invalid(`refusing to allow a Personal Access Token to create or update workflow \`${workflow}\` without \`workflow\` scope`, doc);
        try {
          await this.git.git(repo.dir, ["update-ref", ref, sha, ""]); // "": only if the ref does not exist yet
        } catch {
          return invalid("Reference already exists", doc);
        }
        return { status: 201, body: this.response(operation.operationId, 201, { ref, node_id: `REF_${sha.slice(0, 8)}`, url: `${api}/git/${ref}`, object: { type: "commit", sha, url: `${api}/git/commits/${sha}` } }) };
      }
      case "pulls/create":
        return this.createPull(operation, repo, b, me);
      case "pulls/list":
        return this.listPulls(operation, repo, ctx.query, me);
      case "git/update-ref": {
        const ref = `refs/${p.ref}`;
        const current = await this.git.resolve(repo.dir, ref);
        if (!current) return invalid("Reference does not exist", "/git/refs#update-a-reference");
        const sha = String(b.sha);
        if ((await this.git.objectType(repo.dir, sha)) !== "commit") return invalid("Object does not exist", "/git/refs#update-a-reference");
        if (b.force !== true && !(await this.git.isAncestor(repo.dir, current, sha))) return invalid("Update is not a fast forward", "/git/refs#update-a-reference");
        const workflow = [...(await this.git.flatten(repo.dir, (await this.git.readCommit(repo.dir, sha)).tree)).keys()].find((path) => path.startsWith(".github/workflows/"));
        if (workflow && !mayWriteWorkflows(ctx.grant)) {
          return invalid(`refusing to allow a Personal Access Token to create or update workflow \`${workflow}\` without \`workflow\` scope`, "/git/refs#update-a-reference");
        }
        await this.git.setRef(repo.dir, ref, sha);
        return { status: 200, body: this.response(operation.operationId, 200, { ref, node_id: `REF_${sha.slice(0, 8)}`, url: `${api}/git/${ref}`, object: { type: "commit", sha, url: `${api}/git/commits/${sha}` } }) };
      }
    }
    throw new Error(`the fake has no handler for ${operation.operationId}`);
  }

  private async createTree(operation: Operation, repo: Repo, b: Record<string, unknown>, api: string): Promise<Answer> {
    const doc = "/git/trees#create-a-tree";
    const entries = (b.tree as Array<Record<string, unknown>>) ?? [];
    if (this.options.maxTreeEntries !== undefined && entries.length > this.options.maxTreeEntries) return invalid(TIMED_OUT, doc);
    let files = new Map<string, TreeItem>();
    if (b.base_tree !== undefined) {
      if ((await this.git.objectType(repo.dir, String(b.base_tree))) !== "tree") return invalid("base_tree is not a valid tree oid", doc);
      files = await this.git.flatten(repo.dir, String(b.base_tree));
    }
    const contents: Array<{ path: string; mode: string; bytes: Uint8Array }> = [];
    for (const [i, e] of entries.entries()) {
      const path = String(e.path);
      if (path === "" || path.startsWith("/") || path.endsWith("/") || path.split("/").some((s) => s === "" || s === "." || s === ".." || s === ".git")) {
        return invalid(`tree.path contains a malformed path component`, doc, [{ resource: "Tree", field: `tree[${i}].path`, code: "invalid" }]);
      }
      const hasSha = "sha" in e;
      const hasContent = "content" in e;
      if (hasSha === hasContent) return invalid(hasSha ? "Must supply either tree.sha or tree.content, not both" : "Must supply either tree.sha or tree.content", doc);
      const kind = { "100644": "blob", "100755": "blob", "120000": "blob", "040000": "tree", "160000": "commit" }[String(e.mode)];
      if (kind !== e.type) return invalid(`tree.mode ${String(e.mode)} does not match tree.type ${String(e.type)}`, doc);
      if (e.type === "commit") return invalid("the fake does not model submodules", doc);
      if (hasSha && e.sha === null) {
        for (const existing of [...files.keys()]) if (existing === path || existing.startsWith(path + "/")) files.delete(existing);
        continue;
      }
      if (hasContent) {
        if (e.type !== "blob") return invalid("tree.content is only for blobs", doc);
        contents.push({ path, mode: String(e.mode), bytes: Buffer.from(String(e.content), "utf8") });
        continue;
      }
      const sha = String(e.sha);
      const actual = await this.git.objectType(repo.dir, sha);
      if (actual !== e.type) return invalid(`tree.sha ${sha} is not a valid ${String(e.type)}`, doc);
      if (e.type === "tree") {
        for (const existing of [...files.keys()]) if (existing === path || existing.startsWith(path + "/")) files.delete(existing);
        for (const [sub, item] of await this.git.flatten(repo.dir, sha)) files.set(`${path}/${sub}`, item);
      } else {
        files.set(path, { mode: String(e.mode), type: "blob", sha });
      }
    }
    const shas = await this.git.writeBlobs(
      repo.dir,
      contents.map((c) => c.bytes),
    );
    contents.forEach((c, i) => files.set(c.path, { mode: c.mode, type: "blob", sha: shas[i]! }));
    let sha: string;
    try {
      sha = await this.git.writeTree(repo.dir, files);
    } catch (e) {
      if (e instanceof GitError) return invalid(`GitRPC::BadObjectState: ${e.message}`, doc);
      throw e;
    }
    const top = await this.git.list(repo.dir, sha);
    const tree = top.map((t) => ({ ...t, url: `${api}/git/${t.type}s/${t.sha}` }));
    return { status: 201, body: this.response(operation.operationId, 201, { sha, url: `${api}/git/trees/${sha}`, truncated: false, tree }) };
  }

  /** A workflow file the commit adds, changes or removes against its first parent (what GitHub guards with the workflow scope). */
  private async changedWorkflow(repo: Repo, sha: string): Promise<string | undefined> {
    const commit = await this.git.readCommit(repo.dir, sha);
    const mine = await this.git.flatten(repo.dir, commit.tree);
    const parent = commit.parents[0] ? await this.git.flatten(repo.dir, (await this.git.readCommit(repo.dir, commit.parents[0])).tree) : new Map<string, TreeItem>();
    const paths = new Set([...mine.keys(), ...parent.keys()]);
    return [...paths].sort().find((path) => path.startsWith(".github/workflows/") && mine.get(path)?.sha !== parent.get(path)?.sha);
  }

  /** GET a tree: the top level, or with `recursive` every entry below it (folders too), as GitHub lists them. */
  private async getTree(operation: Operation, repo: Repo, given: string, recursive: boolean, api: string): Promise<Answer> {
    // GitHub takes a tree sha, or a commit sha or branch name for that commit's tree.
    const type = await this.git.objectType(repo.dir, given);
    const sha = type === "tree" ? given : type === "commit" ? (await this.git.readCommit(repo.dir, given)).tree : await this.git.resolve(repo.dir, `refs/heads/${given}`).then((c) => (c ? this.git.readCommit(repo.dir, c).then((x) => x.tree) : undefined));
    if (!sha) return notFound("/git/trees#get-a-tree");
    const items = await this.git.list(repo.dir, sha, recursive);
    const tree = items.map((t) => ({ ...t, url: `${api}/git/${t.type}s/${t.sha}` }));
    return { status: 200, body: this.response(operation.operationId, 200, { sha, url: `${api}/git/trees/${sha}`, truncated: false, tree }) };
  }

  /** POST a pull request: both branches must exist and differ, and one head has one open pull request. */
  private async createPull(operation: Operation, repo: Repo, b: Record<string, unknown>, me: Account & { id: number }): Promise<Answer> {
    const doc = "/pulls/pulls#create-a-pull-request";
    const head = String(b.head ?? "");
    const base = String(b.base ?? "");
    const headBranch = head.includes(":") ? head.slice(head.indexOf(":") + 1) : head;
    const [headSha, baseSha] = [await this.git.resolve(repo.dir, `refs/heads/${headBranch}`), await this.git.resolve(repo.dir, `refs/heads/${base}`)];
    if (!headSha || !baseSha) return invalid("Validation Failed", doc, [{ resource: "PullRequest", field: headSha ? "base" : "head", code: "invalid" }]);
    if (typeof b.title !== "string" || b.title === "") return invalid("Validation Failed", doc, [{ resource: "PullRequest", field: "title", code: "missing_field" }]);
    if (headSha === baseSha || (await this.git.isAncestor(repo.dir, headSha, baseSha))) return invalid("Validation Failed", doc, [{ resource: "PullRequest", code: "custom", message: `No commits between ${base} and ${headBranch}` }]);
    if (repo.pulls.some((x) => x.head === headBranch && x.state === "open")) return invalid("Validation Failed", doc, [{ resource: "PullRequest", code: "custom", message: `A pull request already exists for ${repo.owner.login}:${headBranch}.` }]);
    const pull: PullRecord = { number: repo.pulls.length + 1, title: b.title, body: typeof b.body === "string" ? b.body : null, head: headBranch, base, headSha, baseSha, draft: b.draft === true, state: "open" };
    repo.pulls.push(pull);
    return { status: 201, headers: { location: `${this.api()}/repos/${repo.owner.login}/${repo.name}/pulls/${pull.number}` }, body: this.pullJson(operation, 201, repo, pull, me) };
  }

  /** GET pull requests: by state (default open), head (OWNER:BRANCH) and base, as GitHub filters them. */
  private listPulls(operation: Operation, repo: Repo, query: URLSearchParams, me: Account & { id: number }): Answer {
    const state = query.get("state") ?? "open";
    const head = query.get("head");
    const base = query.get("base");
    const found = repo.pulls.filter((x) => (state === "all" || x.state === state) && (!head || `${repo.owner.login}:${x.head}`.toLowerCase() === head.toLowerCase()) && (!base || x.base === base));
    return { status: 200, body: found.map((x) => this.pullJson(operation, 200, repo, x, me)) };
  }

  /** A pull request as GitHub describes it, for create (one object) or list (each item). */
  private pullJson(operation: Operation, status: number, repo: Repo, pull: PullRecord, me: Account & { id: number }): unknown {
    const { headSha, baseSha } = pull;
    const api = `${this.api()}/repos/${repo.owner.login}/${repo.name}`;
    const web = `${this.web()}/${repo.owner.login}/${repo.name}`;
    const side = (branch: string, sha: string) => ({ label: `${repo.owner.login}:${branch}`, ref: branch, sha, user: this.userJson(repo.owner), repo: this.repoJson("repos/get", 200, repo) });
    const now = this.options.now().toISOString().replace(/\.\d{3}Z$/, "Z");
    const url = `${api}/pulls/${pull.number}`;
    const schema = this.contract.operation(operation.operationId).responses[String(status)] as Schema;
    return deepMerge(sample((schema.items as Schema | undefined) ?? schema), {
      id: 5000 + pull.number,
      node_id: `PR_${pull.number}`,
      number: pull.number,
      state: pull.state,
      locked: false,
      title: pull.title,
      body: pull.body,
      draft: pull.draft,
      user: this.userJson(me),
      url,
      html_url: `${web}/pull/${pull.number}`,
      diff_url: `${web}/pull/${pull.number}.diff`,
      patch_url: `${web}/pull/${pull.number}.patch`,
      issue_url: `${api}/issues/${pull.number}`,
      commits_url: `${url}/commits`,
      review_comments_url: `${url}/comments`,
      review_comment_url: `${api}/pulls/comments{/number}`,
      comments_url: `${api}/issues/${pull.number}/comments`,
      statuses_url: `${api}/statuses/${headSha}`,
      head: side(pull.head, headSha),
      base: side(pull.base, baseSha),
      created_at: now,
      updated_at: now,
      merged: false,
      mergeable: null,
      maintainer_can_modify: false,
      author_association: "OWNER",
      _links: {
        self: { href: url },
        html: { href: `${web}/pull/${pull.number}` },
        issue: { href: `${api}/issues/${pull.number}` },
        comments: { href: `${api}/issues/${pull.number}/comments` },
        review_comments: { href: `${url}/comments` },
        review_comment: { href: `${api}/pulls/comments{/number}` },
        commits: { href: `${url}/commits` },
        statuses: { href: `${api}/statuses/${headSha}` },
      },
    });
  }

  private async commitJson(operation: Operation, status: number, repo: Repo, sha: string): Promise<unknown> {
    const c = await this.git.readCommit(repo.dir, sha);
    const api = `${this.api()}/repos/${repo.owner.login}/${repo.name}`;
    const web = `${this.web()}/${repo.owner.login}/${repo.name}`;
    return this.response(operation.operationId, status, {
      sha,
      node_id: `C_${sha.slice(0, 8)}`,
      url: `${api}/git/commits/${sha}`,
      html_url: `${web}/commit/${sha}`,
      author: c.author,
      committer: c.committer,
      tree: { sha: c.tree, url: `${api}/git/trees/${c.tree}` },
      message: c.message.replace(/\n$/, ""),
      parents: c.parents.map((p) => ({ sha: p, url: `${api}/git/commits/${p}`, html_url: `${web}/commit/${p}` })),
      verification: { verified: false, reason: "unsigned", signature: null, payload: null, verified_at: null },
    });
  }
}

function mayWriteWorkflows(grant: TokenGrant): boolean {
  return grant.scopes ? grant.scopes.includes("workflow") : grant.permissions?.workflows === true;
}

function deepMerge(base: unknown, fill: Record<string, unknown>): unknown {
  if (base === null || typeof base !== "object" || Array.isArray(base)) return fill;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(fill)) {
    const current = out[k];
    out[k] = v && typeof v === "object" && !Array.isArray(v) && current && typeof current === "object" && !Array.isArray(current) ? deepMerge(current, v as Record<string, unknown>) : v;
  }
  return out;
}
