// The workspace's store under the command-line runner (and the `workspace` commands): a
// LangGraph.js Store kept in a folder, one JSON file per namespace (a document's rows, its
// fired triggers), so it outlives the process and two processes (a run, a person's command)
// share it. Node 20 has no embedded database and LangGraph.js ships no file-backed Store:
// each batch of operations reads afresh the files of the namespaces it needs and writes back those it changed
// (atomically: a sibling renamed into place), a batch that writes under a lock file beside them (thread-files.ts's ThreadLock), which the rules' compare-and-set
// (workspace.ts) also holds. On the Agent Server the graph uses the server's own store, which
// people's `workspace --url` and `watch --url` reach through the SDK (ServerStore, below).
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { BaseStore, type Item, type ListNamespacesOperation, type MatchCondition, type Operation, type OperationResults, type SearchOperation } from "@langchain/langgraph";

type SearchItem = Awaited<ReturnType<BaseStore["search"]>>[number];
import { scrubLeftovers, ThreadLock, writeAtomically } from "./thread-files.js";

/** The store's folder, created on first use. */
export const WORKSPACE_DIR_ENV = "ENVELOPE_WORKSPACE_DIR";
/** Where the store is when WORKSPACE_DIR_ENV is unset: in the directory the runner runs in. */
export const DEFAULT_WORKSPACE_DIR = ".envelope-workspace";
/** How long an operation waits for another process's lock before it fails. */
const LOCK_WAIT_MS = 30_000;

interface StoredNamespace {
  namespace: string[];
  items: Array<{ key: string; value: Record<string, unknown>; createdAt: string; updatedAt: string }>;
}

/** Between a namespace's labels in memory (a label holds no NUL). */
const SEP = "\u0000";
/**
 * A namespace's file name: each label encoded (no `/`, no `.`), joined by `.`. An upper-case
 * letter is encoded too (`%41`): where file names fold case (macOS's, Windows' file systems),
 * labels differing only in case would share a file. Labels without one are named as before,
 * and the workspace's have none (its namespaces, document names `^[a-z0-9-]+$`).
 */
const fileOf = (namespace: readonly string[]) =>
  `${namespace.map((l) => encodeURIComponent(l).replace(/%[0-9A-F]{2}|[.A-Z]/g, (c) => (c.length === 3 ? c : `%${c.charCodeAt(0).toString(16).toUpperCase()}`))).join(".")}.json`;

type Items = Map<string, Item>;

/**
 * Whether the namespace file `name` (fileOf's) may hold items under `prefix`: fileOf encodes
 * a label's `.`, so the labels are the name split at `.`, decoded. A name that does not decode
 * (not this store's) is read, to be safe.
 */
function under(name: string, prefix: readonly string[]): boolean {
  try {
    const labels = name.slice(0, -".json".length).split(".").map(decodeURIComponent);
    return prefix.length <= labels.length && prefix.every((label, n) => labels[n] === label);
  } catch {
    return true;
  }
}

export class FileStore extends BaseStore {
  private readonly lock: ThreadLock;
  private readonly held = new AsyncLocalStorage<true>();
  private queue: Promise<unknown> = Promise.resolve();
  private scrubbed = false;

  /** `lockWaitMs`: how long an operation waits for another process's lock before it fails. */
  constructor(
    readonly dir: string,
    readonly lockWaitMs = LOCK_WAIT_MS,
  ) {
    super();
    this.lock = new ThreadLock(join(dir, ".lock"));
  }

  /** Run `fn` holding the store's lock, across processes; nested calls in it do not wait again. */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.held.getStore()) return fn();
    const run = async () => {
      // The folder holds people's data: the owner's only (the lock would create it open).
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const waitUntil = Date.now() + this.lockWaitMs;
      for (;;) {
        const holder = this.lock.acquire();
        if (holder === null) break;
        if (Date.now() >= waitUntil) {
          // A code, as Node's own errors have: the `workspace` commands report it in a line (exit 2), not a stack.
          throw Object.assign(new Error(`the workspace store ${this.dir} is locked by ${holder.who}${holder.ifGone ? `; ${holder.ifGone}` : ""}`), { code: "ELOCKED" });
        }
        await sleep(20);
      }
      if (!this.scrubbed) {
        // Once a store: a write killed before its rename left its temporary file (a document's rows).
        scrubLeftovers(this.dir);
        this.scrubbed = true;
      }
      try {
        return await this.held.run(true, fn);
      } finally {
        this.lock.release();
      }
    };
    // One at a time in this process too (the lock file tells processes apart, not calls).
    const mine = this.queue.then(run, run);
    this.queue = mine.catch(() => undefined);
    return mine;
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const apply = async () => {
      const data = this.load(operations as Operation[]);
      const changed = new Set<string>();
      const results = (operations as Operation[]).map((op) => {
        if ("namespacePrefix" in op) return this.searchIn(data, op);
        if (!("namespace" in op)) return this.namespacesIn(data, op);
        const ns = op.namespace.join(SEP);
        if (!("value" in op)) return data.get(ns)?.get(op.key) ?? null;
        const items = data.get(ns) ?? new Map<string, Item>();
        data.set(ns, items);
        changed.add(ns);
        if (op.value === null) items.delete(op.key);
        else {
          const now = new Date();
          items.set(op.key, { key: op.key, value: op.value, namespace: [...op.namespace], createdAt: items.get(op.key)?.createdAt ?? now, updatedAt: now });
        }
        return undefined;
      });
      this.save(data, changed);
      return results as OperationResults<Op>;
    };
    return operations.some((op) => "value" in op) ? this.exclusive(apply) : apply();
  }

  private searchIn(data: ReadonlyMap<string, Items>, op: SearchOperation): SearchItem[] {
    const found = [...data.values()]
      .flatMap((items) => [...items.values()])
      .filter((i) => op.namespacePrefix.every((label, n) => i.namespace[n] === label))
      .filter((i) => Object.entries(op.filter ?? {}).every(([k, v]) => JSON.stringify(i.value[k]) === JSON.stringify(v)));
    const offset = op.offset ?? 0;
    return found.slice(offset, offset + (op.limit ?? 10));
  }

  private namespacesIn(data: ReadonlyMap<string, Items>, op: ListNamespacesOperation): string[][] {
    const matches = (ns: string[], c: MatchCondition) =>
      c.path.length <= ns.length && c.path.every((label, n) => label === "*" || (c.matchType === "prefix" ? ns[n] : ns[ns.length - c.path.length + n]) === label);
    let found = [...data.entries()].filter(([, items]) => items.size > 0).map(([ns]) => ns.split(SEP));
    found = found.filter((ns) => (op.matchConditions ?? []).every((c) => matches(ns, c)));
    if (op.maxDepth !== undefined) found = [...new Set(found.map((ns) => ns.slice(0, op.maxDepth).join(SEP)))].map((ns) => ns.split(SEP));
    found.sort((a, b) => (a.join(SEP) < b.join(SEP) ? -1 : 1));
    return found.slice(op.offset ?? 0, (op.offset ?? 0) + (op.limit ?? found.length));
  }

  /**
   * The items of the namespaces `operations` need, as the files hold them now: a get's or a
   * put's namespace is its own file (fileOf), a search's those whose file name starts with its
   * prefix; listing namespaces reads them all.
   */
  private load(operations: readonly Operation[]): Map<string, Items> {
    const data = new Map<string, Items>();
    const own = new Set<string>();
    const prefixes: string[][] = [];
    let every = false;
    for (const op of operations) {
      if ("namespacePrefix" in op) prefixes.push(op.namespacePrefix);
      else if ("namespace" in op) own.add(fileOf(op.namespace));
      else every = true;
    }
    let names = [...own];
    if (every || prefixes.length) {
      try {
        names = readdirSync(this.dir).filter((n) => n.endsWith(".json") && (every || own.has(n) || prefixes.some((p) => under(n, p))));
      } catch (error) {
        // Only a folder not made yet is empty: one that cannot be listed (EMFILE, EACCES) read as
        // empty would have the next write save a namespace holding its new items alone.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
    for (const name of names.sort()) {
      let stored: StoredNamespace;
      const path = join(this.dir, name);
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // removed meanwhile
        throw error;
      }
      try {
        stored = JSON.parse(text) as StoredNamespace;
      } catch (error) {
        // Not written by this store (its writes are whole): say which file, not only where the parser stopped.
        throw new SyntaxError(`the workspace store's file ${path} is not JSON (${(error as Error).message}): repair it or restore it from a backup`);
      }
      const items: Items = new Map();
      for (const i of stored.items) items.set(i.key, { key: i.key, value: i.value, namespace: stored.namespace, createdAt: new Date(i.createdAt), updatedAt: new Date(i.updatedAt) });
      data.set(stored.namespace.join(SEP), items);
    }
    return data;
  }

  /** The namespaces `changed`, written whole (one left empty: its file removed). */
  private save(data: ReadonlyMap<string, Items>, changed: ReadonlySet<string>): void {
    for (const ns of changed) {
      const namespace = ns.split(SEP);
      const items = [...(data.get(ns)?.values() ?? [])];
      const path = join(this.dir, fileOf(namespace));
      if (!items.length) rmSync(path, { force: true });
      else writeAtomically(path, JSON.stringify({ namespace, items: items.map((i) => ({ key: i.key, value: i.value, createdAt: i.createdAt.toISOString(), updatedAt: i.updatedAt.toISOString() })) } satisfies StoredNamespace));
    }
  }
}

/** The runner's store: LangGraph.js's PostgresStore when DATABASE_URL is set (the runs are there too), else a FileStore in ENVELOPE_WORKSPACE_DIR, else .envelope-workspace/. */
export function openWorkspaceStore(env: Readonly<Record<string, string | undefined>> = process.env): FileStore | DatabaseStore {
  const url = env[DATABASE_ENV];
  return url ? new DatabaseStore(url) : new FileStore(env[WORKSPACE_DIR_ENV] || DEFAULT_WORKSPACE_DIR);
}

/** PostgreSQL's URL: the runner's checkpoints and the workspace's store there instead of files (as the Python LangGraph runner's). */
export const DATABASE_ENV = "DATABASE_URL";

/** The URL for messages: its password (in the URL or its query) hidden. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    for (const key of ["password", "sslpassword"]) if (parsed.searchParams.has(key)) parsed.searchParams.set(key, "***");
    return parsed.toString();
  } catch {
    return "$DATABASE_URL"; // not a URL (a libpq keyword string): not shown, it may hold a password
  }
}

/** Where the runs are kept, for messages: `PostgreSQL, postgresql://user:***@host/db`. */
export const databaseWhere = (url: string) => `PostgreSQL, ${shownUrl(url)}`;

/**
 * A namespace's label as PostgresStore keeps it. It refuses `_`, `%`, `\\` and `.` in a label
 * (the workspace's are envelope_workspace, _claims, _fired), joins labels with `:` and searches by
 * `LIKE '<labels>%'`, so a search of document `speaker` would also find `speaker-queue`'s rows:
 * each label is escaped (`~` and the character's hex) and ends with `!`, which no escaped label
 * holds, so a prefix matches whole labels only.
 */
const toDatabase = (label: string) => (label === "*" ? label : `${label.replace(/[~!:%_\\.]/g, (c) => `~${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`)}!`);
const fromDatabase = (label: string) => label.replace(/!$/, "").replace(/~([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * The workspace's store in PostgreSQL: database.ts's PostgresStore (LangGraph.js's), loaded on
 * first use (the package only then), each namespace's labels escaped for it (toDatabase). It has
 * no lock across processes: the rules' compare-and-set goes by claims (workspace.ts), as on a
 * server's store. `close` ends its connections.
 */
export class DatabaseStore extends BaseStore {
  private inner: Promise<BaseStore & { stop(): Promise<void> }> | undefined;
  constructor(readonly url: string) {
    super();
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    this.inner ??= import("./database.js").then((m) => m.openDatabaseStore(this.url));
    const ops = (operations as Operation[]).map((op): Operation => {
      if ("namespacePrefix" in op) return { ...op, namespacePrefix: op.namespacePrefix.map(toDatabase) };
      if ("namespace" in op) return { ...op, namespace: op.namespace.map(toDatabase) };
      return { ...op, matchConditions: op.matchConditions?.map((c) => ({ ...c, path: c.path.map(toDatabase) })) };
    });
    const results = (await (await this.inner).batch(ops)) as unknown[];
    const item = (i: Item) => ({ ...i, namespace: i.namespace.map(fromDatabase) });
    return results.map((result, n) => {
      const op = ops[n]!;
      if ("namespacePrefix" in op) return (result as Item[]).map(item);
      if (!("namespace" in op)) return (result as string[][]).map((ns) => ns.map(fromDatabase));
      return result && !("value" in op) ? item(result as Item) : result;
    }) as OperationResults<Op>;
  }

  async close(): Promise<void> {
    const inner = this.inner;
    this.inner = undefined;
    if (inner) await (await inner).stop();
  }
}

/** What ServerStore, ServerThreads and `watch --url` use of @langchain/langgraph-sdk's Client (a test gives a fake). */
export interface ServerClient {
  store: {
    getItem(namespace: string[], key: string): Promise<{ namespace: string[]; key: string; value: Record<string, unknown>; createdAt?: string; updatedAt?: string; created_at?: string; updated_at?: string } | null>;
    putItem(namespace: string[], key: string, value: Record<string, unknown>, options?: { index?: false | string[] | null }): Promise<void>;
    deleteItem(namespace: string[], key: string): Promise<void>;
    searchItems(namespacePrefix: string[], options?: { filter?: Record<string, unknown>; limit?: number; offset?: number; query?: string }): Promise<{ items: Array<Record<string, unknown>> }>;
    listNamespaces(options?: { prefix?: string[]; suffix?: string[]; maxDepth?: number; limit?: number; offset?: number }): Promise<{ namespaces: string[][] }>;
  };
  threads: {
    create(payload?: { metadata?: Record<string, unknown> }): Promise<{ thread_id: string }>;
    search(query?: { limit?: number; offset?: number }): Promise<Array<Record<string, unknown>>>;
    getHistory(threadId: string, options?: { limit?: number; before?: unknown; checkpoint?: Record<string, unknown> }): Promise<Array<Record<string, unknown>>>;
    getState(threadId: string): Promise<{ values: unknown; next: string[]; tasks: Array<{ interrupts?: unknown[] }> }>;
    delete(threadId: string): Promise<void>;
  };
  runs: {
    create(threadId: string, assistantId: string, payload?: { input?: Record<string, unknown>; config?: Record<string, unknown>; context?: unknown; metadata?: Record<string, unknown> }): Promise<{ run_id: string }>;
    join(threadId: string, runId: string): Promise<unknown>;
    get(threadId: string, runId: string): Promise<{ status: string }>;
  };
}

/** @langchain/langgraph-sdk's Client for the Agent Server at `url` (the export installs the SDK: @langchain/langgraph depends on it). */
export async function serverClient(url: string): Promise<ServerClient> {
  const { Client } = await import("@langchain/langgraph-sdk");
  return new Client({ apiUrl: url }) as unknown as ServerClient;
}

/** An item of the server's JSON as the Store gives it (its times as Dates). */
function itemOf(found: Record<string, unknown>): Item {
  const time = (camel: unknown, snake: unknown) => new Date(String(camel ?? snake));
  return { namespace: [...(found.namespace as string[])], key: String(found.key), value: found.value as Record<string, unknown>, createdAt: time(found.createdAt, found.created_at), updatedAt: time(found.updatedAt, found.updated_at) };
}

/**
 * The store of an Agent Server (`langgraphjs dev`, a deployment) through the SDK's store API:
 * the rows a served team's agents write, for a person's `workspace --url` and `watch --url`
 * (the Python LangGraph target's run_client.ServerStore). It has no lock: the rules'
 * compare-and-set goes by claims on the server's store (workspace.ts), as the graph's own does.
 */
export class ServerStore extends BaseStore {
  constructor(readonly client: ServerClient) {
    super();
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const op of operations as Operation[]) results.push(await this.one(op));
    return results as OperationResults<Op>;
  }

  private async one(op: Operation): Promise<unknown> {
    const store = this.client.store;
    if ("namespacePrefix" in op) {
      const { items } = await store.searchItems(op.namespacePrefix, { ...(op.filter ? { filter: op.filter } : {}), ...(op.limit !== undefined ? { limit: op.limit } : {}), ...(op.offset !== undefined ? { offset: op.offset } : {}), ...(op.query ? { query: op.query } : {}) });
      return items.map((i) => ({ ...itemOf(i), ...(typeof i.score === "number" ? { score: i.score } : {}) }));
    }
    if (!("namespace" in op)) {
      const prefix = op.matchConditions?.find((c) => c.matchType === "prefix")?.path;
      const suffix = op.matchConditions?.find((c) => c.matchType === "suffix")?.path;
      const { namespaces } = await store.listNamespaces({ ...(prefix ? { prefix } : {}), ...(suffix ? { suffix } : {}), ...(op.maxDepth !== undefined ? { maxDepth: op.maxDepth } : {}), ...(op.limit !== undefined ? { limit: op.limit } : {}), ...(op.offset !== undefined ? { offset: op.offset } : {}) });
      return namespaces;
    }
    if (!("value" in op)) {
      try {
        const found = await store.getItem(op.namespace, op.key);
        return found === null ? null : itemOf(found);
      } catch (error) {
        // The server answers a missing item with 404 (the SDK's HTTPError).
        if ((error as { status?: number }).status === 404) return null;
        throw error;
      }
    }
    if (op.value === null) await store.deleteItem(op.namespace, op.key);
    else await store.putItem(op.namespace, op.key, op.value, op.index === false ? { index: false } : {});
    return undefined;
  }
}
