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
import { BaseStore } from "@langchain/langgraph";
import { scrubLeftovers, ThreadLock, writeAtomically } from "./thread-files.js";
/** The store's folder, created on first use. */
export const WORKSPACE_DIR_ENV = "ENVELOPE_WORKSPACE_DIR";
/** Where the store is when WORKSPACE_DIR_ENV is unset: in the directory the runner runs in. */
export const DEFAULT_WORKSPACE_DIR = ".envelope-workspace";
/** How long an operation waits for another process's lock before it fails. */
const LOCK_WAIT_MS = 30_000;
/** Between a namespace's labels in memory (a label holds no NUL). */
const SEP = "\u0000";
/**
 * A namespace's file name: each label encoded (no `/`, no `.`), joined by `.`. An upper-case
 * letter is encoded too (`%41`): where file names fold case (macOS's, Windows' file systems),
 * labels differing only in case would share a file. Labels without one are named as before,
 * and the workspace's have none (its namespaces, document names `^[a-z0-9-]+$`).
 */
const fileOf = (namespace) => `${namespace.map((l) => encodeURIComponent(l).replace(/%[0-9A-F]{2}|[.A-Z]/g, (c) => (c.length === 3 ? c : `%${c.charCodeAt(0).toString(16).toUpperCase()}`))).join(".")}.json`;
/**
 * Whether the namespace file `name` (fileOf's) may hold items under `prefix`: fileOf encodes
 * a label's `.`, so the labels are the name split at `.`, decoded. A name that does not decode
 * (not this store's) is read, to be safe.
 */
function under(name, prefix) {
    try {
        const labels = name.slice(0, -".json".length).split(".").map(decodeURIComponent);
        return prefix.length <= labels.length && prefix.every((label, n) => labels[n] === label);
    }
    catch {
        return true;
    }
}
export class FileStore extends BaseStore {
    dir;
    lockWaitMs;
    lock;
    held = new AsyncLocalStorage();
    queue = Promise.resolve();
    scrubbed = false;
    /** `lockWaitMs`: how long an operation waits for another process's lock before it fails. */
    constructor(dir, lockWaitMs = LOCK_WAIT_MS) {
        super();
        this.dir = dir;
        this.lockWaitMs = lockWaitMs;
        this.lock = new ThreadLock(join(dir, ".lock"));
    }
    /** Run `fn` holding the store's lock, across processes; nested calls in it do not wait again. */
    async exclusive(fn) {
        if (this.held.getStore())
            return fn();
        const run = async () => {
            // The folder holds people's data: the owner's only (the lock would create it open).
            mkdirSync(this.dir, { recursive: true, mode: 0o700 });
            const waitUntil = Date.now() + this.lockWaitMs;
            for (;;) {
                const holder = this.lock.acquire();
                if (holder === null)
                    break;
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
            }
            finally {
                this.lock.release();
            }
        };
        // One at a time in this process too (the lock file tells processes apart, not calls).
        const mine = this.queue.then(run, run);
        this.queue = mine.catch(() => undefined);
        return mine;
    }
    async batch(operations) {
        const apply = async () => {
            const data = this.load(operations);
            const changed = new Set();
            const results = operations.map((op) => {
                if ("namespacePrefix" in op)
                    return this.searchIn(data, op);
                if (!("namespace" in op))
                    return this.namespacesIn(data, op);
                const ns = op.namespace.join(SEP);
                if (!("value" in op))
                    return data.get(ns)?.get(op.key) ?? null;
                const items = data.get(ns) ?? new Map();
                data.set(ns, items);
                changed.add(ns);
                if (op.value === null)
                    items.delete(op.key);
                else {
                    const now = new Date();
                    items.set(op.key, { key: op.key, value: op.value, namespace: [...op.namespace], createdAt: items.get(op.key)?.createdAt ?? now, updatedAt: now });
                }
                return undefined;
            });
            this.save(data, changed);
            return results;
        };
        return operations.some((op) => "value" in op) ? this.exclusive(apply) : apply();
    }
    searchIn(data, op) {
        const found = [...data.values()]
            .flatMap((items) => [...items.values()])
            .filter((i) => op.namespacePrefix.every((label, n) => i.namespace[n] === label))
            .filter((i) => Object.entries(op.filter ?? {}).every(([k, v]) => JSON.stringify(i.value[k]) === JSON.stringify(v)));
        const offset = op.offset ?? 0;
        return found.slice(offset, offset + (op.limit ?? 10));
    }
    namespacesIn(data, op) {
        const matches = (ns, c) => c.path.length <= ns.length && c.path.every((label, n) => label === "*" || (c.matchType === "prefix" ? ns[n] : ns[ns.length - c.path.length + n]) === label);
        let found = [...data.entries()].filter(([, items]) => items.size > 0).map(([ns]) => ns.split(SEP));
        found = found.filter((ns) => (op.matchConditions ?? []).every((c) => matches(ns, c)));
        if (op.maxDepth !== undefined)
            found = [...new Set(found.map((ns) => ns.slice(0, op.maxDepth).join(SEP)))].map((ns) => ns.split(SEP));
        found.sort((a, b) => (a.join(SEP) < b.join(SEP) ? -1 : 1));
        return found.slice(op.offset ?? 0, (op.offset ?? 0) + (op.limit ?? found.length));
    }
    /**
     * The items of the namespaces `operations` need, as the files hold them now: a get's or a
     * put's namespace is its own file (fileOf), a search's those whose file name starts with its
     * prefix; listing namespaces reads them all.
     */
    load(operations) {
        const data = new Map();
        const own = new Set();
        const prefixes = [];
        let every = false;
        for (const op of operations) {
            if ("namespacePrefix" in op)
                prefixes.push(op.namespacePrefix);
            else if ("namespace" in op)
                own.add(fileOf(op.namespace));
            else
                every = true;
        }
        let names = [...own];
        if (every || prefixes.length) {
            try {
                names = readdirSync(this.dir).filter((n) => n.endsWith(".json") && (every || own.has(n) || prefixes.some((p) => under(n, p))));
            }
            catch (error) {
                // Only a folder not made yet is empty: one that cannot be listed (EMFILE, EACCES) read as
                // empty would have the next write save a namespace holding its new items alone.
                if (error.code !== "ENOENT")
                    throw error;
            }
        }
        for (const name of names.sort()) {
            let stored;
            const path = join(this.dir, name);
            let text;
            try {
                text = readFileSync(path, "utf8");
            }
            catch (error) {
                if (error.code === "ENOENT")
                    continue; // removed meanwhile
                throw error;
            }
            try {
                stored = JSON.parse(text);
            }
            catch (error) {
                // Not written by this store (its writes are whole): say which file, not only where the parser stopped.
                throw new SyntaxError(`the workspace store's file ${path} is not JSON (${error.message}): repair it or restore it from a backup`);
            }
            const items = new Map();
            for (const i of stored.items)
                items.set(i.key, { key: i.key, value: i.value, namespace: stored.namespace, createdAt: new Date(i.createdAt), updatedAt: new Date(i.updatedAt) });
            data.set(stored.namespace.join(SEP), items);
        }
        return data;
    }
    /** The namespaces `changed`, written whole (one left empty: its file removed). */
    save(data, changed) {
        for (const ns of changed) {
            const namespace = ns.split(SEP);
            const items = [...(data.get(ns)?.values() ?? [])];
            const path = join(this.dir, fileOf(namespace));
            if (!items.length)
                rmSync(path, { force: true });
            else
                writeAtomically(path, JSON.stringify({ namespace, items: items.map((i) => ({ key: i.key, value: i.value, createdAt: i.createdAt.toISOString(), updatedAt: i.updatedAt.toISOString() })) }));
        }
    }
}
/** The runner's store: LangGraph.js's PostgresStore when DATABASE_URL is set (the runs are there too), else a FileStore in ENVELOPE_WORKSPACE_DIR, else .envelope-workspace/. */
export function openWorkspaceStore(env = process.env) {
    const url = env[DATABASE_ENV];
    return url ? new DatabaseStore(url) : new FileStore(env[WORKSPACE_DIR_ENV] || DEFAULT_WORKSPACE_DIR);
}
/** PostgreSQL's URL: the runner's checkpoints and the workspace's store there instead of files (as the Python LangGraph runner's). */
export const DATABASE_ENV = "DATABASE_URL";
/** The URL for messages: its password (in the URL or its query) hidden. */
export function shownUrl(url) {
    try {
        const parsed = new URL(url);
        if (parsed.password)
            parsed.password = "***";
        for (const key of ["password", "sslpassword"])
            if (parsed.searchParams.has(key))
                parsed.searchParams.set(key, "***");
        return parsed.toString();
    }
    catch {
        return "$DATABASE_URL"; // not a URL (a libpq keyword string): not shown, it may hold a password
    }
}
/** Where the runs are kept, for messages: `PostgreSQL, postgresql://user:***@host/db`. */
export const databaseWhere = (url) => `PostgreSQL, ${shownUrl(url)}`;
/**
 * A namespace's label as PostgresStore keeps it. It refuses `_`, `%`, `\\` and `.` in a label
 * (the workspace's are envelope_workspace, _claims, _fired), joins labels with `:` and searches by
 * `LIKE '<labels>%'`, so a search of document `speaker` would also find `speaker-queue`'s rows:
 * each label is escaped (`~` and the character's hex) and ends with `!`, which no escaped label
 * holds, so a prefix matches whole labels only.
 */
const toDatabase = (label) => (label === "*" ? label : `${label.replace(/[~!:%_\\.]/g, (c) => `~${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`)}!`);
const fromDatabase = (label) => label.replace(/!$/, "").replace(/~([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
/**
 * The workspace's store in PostgreSQL: database.ts's PostgresStore (LangGraph.js's), loaded on
 * first use (the package only then), each namespace's labels escaped for it (toDatabase). It has
 * no lock across processes: the rules' compare-and-set goes by claims (workspace.ts), as on a
 * server's store. `close` ends its connections.
 */
export class DatabaseStore extends BaseStore {
    url;
    inner;
    constructor(url) {
        super();
        this.url = url;
    }
    async batch(operations) {
        this.inner ??= import("./database.js").then((m) => m.openDatabaseStore(this.url));
        const ops = operations.map((op) => {
            if ("namespacePrefix" in op)
                return { ...op, namespacePrefix: op.namespacePrefix.map(toDatabase) };
            if ("namespace" in op)
                return { ...op, namespace: op.namespace.map(toDatabase) };
            return { ...op, matchConditions: op.matchConditions?.map((c) => ({ ...c, path: c.path.map(toDatabase) })) };
        });
        const results = (await (await this.inner).batch(ops));
        const item = (i) => ({ ...i, namespace: i.namespace.map(fromDatabase) });
        return results.map((result, n) => {
            const op = ops[n];
            if ("namespacePrefix" in op)
                return result.map(item);
            if (!("namespace" in op))
                return result.map((ns) => ns.map(fromDatabase));
            return result && !("value" in op) ? item(result) : result;
        });
    }
    async close() {
        const inner = this.inner;
        this.inner = undefined;
        if (inner)
            await (await inner).stop();
    }
}
/** @langchain/langgraph-sdk's Client for the Agent Server at `url` (the export installs the SDK: @langchain/langgraph depends on it). */
export async function serverClient(url) {
    const { Client } = await import("@langchain/langgraph-sdk");
    return new Client({ apiUrl: url });
}
/** An item of the server's JSON as the Store gives it (its times as Dates). */
function itemOf(found) {
    const time = (camel, snake) => new Date(String(camel ?? snake));
    return { namespace: [...found.namespace], key: String(found.key), value: found.value, createdAt: time(found.createdAt, found.created_at), updatedAt: time(found.updatedAt, found.updated_at) };
}
/**
 * The store of an Agent Server (`langgraphjs dev`, a deployment) through the SDK's store API:
 * the rows a served team's agents write, for a person's `workspace --url` and `watch --url`
 * (the Python LangGraph target's run_client.ServerStore). It has no lock: the rules'
 * compare-and-set goes by claims on the server's store (workspace.ts), as the graph's own does.
 */
export class ServerStore extends BaseStore {
    client;
    constructor(client) {
        super();
        this.client = client;
    }
    async batch(operations) {
        const results = [];
        for (const op of operations)
            results.push(await this.one(op));
        return results;
    }
    async one(op) {
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
            }
            catch (error) {
                // The server answers a missing item with 404 (the SDK's HTTPError).
                if (error.status === 404)
                    return null;
                throw error;
            }
        }
        if (op.value === null)
            await store.deleteItem(op.namespace, op.key);
        else
            await store.putItem(op.namespace, op.key, op.value, op.index === false ? { index: false } : {});
        return undefined;
    }
}
