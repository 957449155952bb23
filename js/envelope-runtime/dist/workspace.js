// Workspace documents (definition field `workspace`, Envelope v1.2): the store's rules, as the
// Python targets' envelope_runtime/workspace.py has them, over LangGraph.js's Store (BaseStore).
//
// A document is a table of rows that outlives every run. A row is its declared columns
// (`data`) plus built-in fields: `id`, `created_at`, `updated_at` (ISO 8601 UTC), `archived`,
// `version` (1 on creation, +1 per write). The store enforces the declaration, whoever asks:
// - agents write only `agent` and `both` columns; a `human` column is refused;
// - a status column takes only the declared statusValues;
// - a write that changes a `both` column of an existing row must carry the version it read
//   (compare-and-set): if the row changed since, it is a conflict and nothing of it is written;
// - the `id` column, when declared, addresses rows (its value is the row's id).
// Rows live under the namespace ["envelope_workspace", <doc>], the row id as the key, as on
// the Python LangGraph target, so Studio and the SDK's store API read the same items.
import { createHash, randomUUID } from "node:crypto";
import { tool } from "langchain";
import { z } from "zod";
import { pythonJson } from "./placeholders.js";
export const BUILT_IN = ["id", "created_at", "updated_at", "archived", "version"];
export const MASK = "***";
export const ROWS_NAMESPACE = "envelope_workspace";
/** A request the store refuses, with what to do instead. */
export class WorkspaceError extends Error {
    constructor(message) {
        super(message);
        this.name = "WorkspaceError";
    }
}
/** `value` as Python's repr() writes it in the messages (the Python targets' words, quote for quote). */
export function pyRepr(value) {
    if (value === null || value === undefined)
        return "None";
    if (typeof value === "boolean")
        return value ? "True" : "False";
    if (typeof value === "number")
        return pythonJson(value);
    if (typeof value !== "string")
        return pythonJson(value, { ensureAscii: false });
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const escaped = value.replace(/[\\\n\r\t]|[\x00-\x1f\x7f]/g, (c) => ({ "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" })[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
    return quote + (quote === "'" ? escaped.replaceAll("'", "\\'") : escaped) + quote;
}
const json = (value) => pythonJson(value, { ensureAscii: false });
export function utcNow() {
    return new Date().toISOString().slice(0, 19) + "Z";
}
function isRecord(value) {
    if (value === null || typeof value !== "object")
        return false;
    const v = value;
    return ["id", "created_at", "updated_at", "archived", "version", "data"].every((k) => k in v) && v.data !== null && typeof v.data === "object" && !Array.isArray(v.data);
}
function typeOk(column, value) {
    if (value === null || value === undefined)
        return true;
    if (column.type === "number")
        return typeof value === "number" && Number.isFinite(value);
    if (column.type === "boolean")
        return typeof value === "boolean";
    return typeof value === "string";
}
const idColumnOf = (spec) => spec.columns.find((c) => c.id)?.name ?? null;
const columnOf = (spec, name) => spec.columns.find((c) => c.name === name);
/** The values of a row's `both` columns (what a conflict answer shows). */
function shared(spec, record) {
    return Object.fromEntries(spec.columns.filter((c) => c.owner === "both").map((c) => [c.name, record.data[c.name] ?? null]));
}
/** A stored record as tools and commands show it: the built-in fields and `data`. */
export function publicRow(record) {
    return { id: record.id, created_at: record.created_at, updated_at: record.updated_at, archived: record.archived, version: record.version, data: record.data };
}
/** The row with its pii columns' values masked (and its id, when the id column is pii). */
export function masked(spec, row) {
    const pii = new Set(spec.columns.filter((c) => c.pii).map((c) => c.name));
    const data = Object.fromEntries(Object.entries(row.data).map(([k, v]) => [k, pii.has(k) && v !== null && v !== undefined && v !== "" ? MASK : v]));
    const idColumn = idColumnOf(spec);
    return { ...row, data, ...(idColumn !== null && pii.has(idColumn) ? { id: MASK } : {}) };
}
/** Every run of the same process shares one lock per store: a compare-and-set is one at a time here. */
const inProcess = new WeakMap();
async function serialized(key, fn) {
    const before = inProcess.get(key) ?? Promise.resolve();
    const mine = before.then(fn, fn);
    inProcess.set(key, mine.catch(() => undefined));
    return mine;
}
const hasExclusive = (store) => typeof store.exclusive === "function";
/**
 * The store under LangGraph's AsyncBatchedStore: a graph's nodes get their store wrapped in one
 * (its Pregel loop does it), which hides FileStore's lock, so an agent's compare-and-set would
 * go by claims while people's commands go by the lock, and neither would see the other's.
 */
function unbatched(store) {
    const wrapper = store;
    return wrapper.lg_name === "AsyncBatchedStore" && wrapper.store ? wrapper.store : store;
}
/** A row's claims' keys start so (a row id may hold what a namespace label may not). */
const claimPrefix = (rowId) => createHash("sha256").update(rowId).digest("hex").slice(0, 32) + ":";
/** One search, not pages: the Store orders by last update, so a write between two pages would move a row. */
const MAX_ROWS = 1_000_000;
const CLAIM_TTL_MS = 300_000;
/**
 * Rows and fired triggers on a LangGraph.js Store: rows under ["envelope_workspace", <doc>],
 * fired triggers under ["envelope_workspace_fired", <doc>]. The Store has no compare-and-set:
 * it is done under the store's own lock across processes when it has one (FileStore), else by
 * claims on the store itself, so the replicas of a server sharing its store agree on which
 * write of a version wins (workspace.py's StoreBackend._claimed).
 */
export class StoreBackend {
    store;
    constructor(store) {
        this.store = unbatched(store);
    }
    async get(doc, rowId) {
        const item = await this.store.get([ROWS_NAMESPACE, doc], rowId);
        return item !== null && isRecord(item.value) ? { ...item.value } : null;
    }
    /** Compare-and-set: `expected` is the version the stored record must have (0: must not exist; null: any). */
    async put(doc, rowId, record, expected) {
        const store = this.store;
        const write = async () => {
            const found = await this.get(doc, rowId);
            const current = found === null ? 0 : Number(found.version);
            if (expected !== null && current !== expected)
                return false;
            if (!hasExclusive(store) && !(await this.claimed(doc, rowId, current)))
                return false;
            await store.put([ROWS_NAMESPACE, doc], rowId, record, false);
            return true;
        };
        return serialized(store, () => (hasExclusive(store) ? store.exclusive(write) : write()));
    }
    /**
     * Whether this writer wins the write after version `current`: each writer puts a claim, then
     * reads every claim on that version, and wins only when its own is the only one there; of
     * two writers at least the later one sees both claims, so at most one wins (on contention
     * maybe none: each reports a conflict). The winner also finds the row still at `current`.
     */
    async claimed(doc, rowId, current) {
        const namespace = ["envelope_workspace_claims", doc];
        const row = claimPrefix(rowId);
        const prefix = `${row}${String(current).padStart(12, "0")}:`;
        const mine = prefix + randomUUID().replaceAll("-", "");
        await this.store.put(namespace, mine, { claimed: true }, false);
        // A claim older than CLAIM_TTL_MS is a writer's that stopped before writing (killed):
        // ignored by every writer, so deleted, else it would stay for good.
        const fresh = Date.now() - CLAIM_TTL_MS;
        const claims = [];
        for (const item of await this.items(namespace)) {
            if (item.key !== mine && new Date(item.createdAt).getTime() <= fresh)
                await this.store.delete(namespace, item.key);
            else if (item.key.startsWith(prefix))
                claims.push(item.key);
        }
        const alone = claims.length === 1 && claims[0] === mine;
        const found = await this.get(doc, rowId);
        if (!alone || (found === null ? 0 : Number(found.version)) !== current) {
            await this.store.delete(namespace, mine);
            return false;
        }
        for (const item of await this.items(namespace))
            if (item.key.startsWith(row) && item.key < prefix)
                await this.store.delete(namespace, item.key);
        return true;
    }
    async delete(doc, rowId) {
        await this.store.delete([ROWS_NAMESPACE, doc], rowId);
        for (const item of await this.items(["envelope_workspace_claims", doc]))
            if (item.key.startsWith(claimPrefix(rowId)))
                await this.store.delete(["envelope_workspace_claims", doc], item.key);
    }
    async items(namespace) {
        return this.store.search(namespace, { limit: MAX_ROWS });
    }
    /** The document's rows, in creation order; items written around the rules that are not rows are skipped. */
    async all(doc) {
        const rows = (await this.items([ROWS_NAMESPACE, doc])).map((i) => i.value).filter(isRecord);
        const key = (r) => [String(r.created_at), String(r.id)];
        return rows.sort((a, b) => {
            const [x, y] = [key(a), key(b)];
            return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0;
        });
    }
    async fired(doc) {
        return new Set((await this.items(["envelope_workspace_fired", doc])).map((i) => i.key));
    }
    /** Record a firing; false when it was recorded already (another watcher fired it since `fired` was read). */
    async mark(doc, marker) {
        const store = this.store;
        const once = async () => {
            if ((await store.get(["envelope_workspace_fired", doc], marker)) !== null)
                return false;
            await store.put(["envelope_workspace_fired", doc], marker, { fired: true }, false);
            return true;
        };
        // Under the store's lock (FileStore): of two watchers, one fires; elsewhere the window is narrowed only.
        return hasExclusive(store) ? store.exclusive(once) : once();
    }
    async unmark(doc, prefix) {
        for (const marker of await this.fired(doc))
            if (marker.startsWith(prefix))
                await this.store.delete(["envelope_workspace_fired", doc], marker);
    }
}
/** The team's documents (TEAM.workspace) over one store. */
export class Workspace {
    clock;
    specs;
    backend;
    constructor(specs, store, clock = utcNow) {
        this.clock = clock;
        this.specs = new Map(specs.map((s) => [s.name, s]));
        this.backend = new StoreBackend(store);
    }
    spec(doc) {
        const spec = this.specs.get(doc);
        if (!spec)
            throw new WorkspaceError(`no workspace document ${pyRepr(doc)}; the documents: ${[...this.specs.keys()].join(", ") || "none"}`);
        return spec;
    }
    /** The document's rows, not archived ones unless asked; `status`: rows whose status column (`column`, else any) holds it. */
    async rows(doc, options = {}) {
        const spec = this.spec(doc);
        const { status = null, column = null, archived = false } = options;
        if (column !== null && !spec.statusColumns.includes(column))
            throw new WorkspaceError(`${pyRepr(column)} is not a status column of ${pyRepr(doc)} (${spec.statusColumns.join(", ") || "none"})`);
        const where = column !== null ? [column] : spec.statusColumns;
        return (await this.backend.all(doc)).filter((r) => (archived || !r.archived) && (status === null || where.some((c) => r.data[c] === status))).map(publicRow);
    }
    async row(doc, rowId) {
        this.spec(doc);
        const record = await this.backend.get(doc, rowId);
        return record === null ? null : publicRow(record);
    }
    /** Write rows (`{id?, version?, data}`), each on its own: one refused or conflicting row leaves the others written. */
    async write(doc, rows, by) {
        const spec = this.spec(doc);
        const out = [];
        for (const item of rows)
            out.push(await this.writeOne(spec, item, by));
        return out;
    }
    async writeOne(spec, item, by) {
        let data = { ...(item.data ?? {}) };
        const [rowIdGiven, idProblem] = this.rowId(spec, item, data);
        let rowId = rowIdGiven;
        const current = rowId === null ? null : await this.backend.get(spec.name, rowId);
        // A value a column already holds is no change, whoever owns the column.
        if (current !== null)
            data = Object.fromEntries(Object.entries(data).filter(([k, v]) => !same(current.data[k], v)));
        const problems = [...(idProblem ? [idProblem] : []), ...this.problems(spec, data, by)];
        const idColumn = idColumnOf(spec);
        if (current === null && rowId !== null && idColumn !== null && by === "agent" && columnOf(spec, idColumn)?.owner === "human") {
            problems.push(`there is no row ${pyRepr(rowId)}: people create rows of ${pyRepr(spec.name)} (its id column ${pyRepr(idColumn)} is theirs)`);
        }
        if (problems.length)
            return { row: rowId ?? "(new)", outcome: "refused", message: problems.join("; ") };
        const given = item.version ?? null;
        if (current === null && given !== null && given !== 0)
            return { row: rowId ?? "(new)", outcome: "conflict", message: `there is no row ${pyRepr(rowId)} (deleted since you read it?): nothing written` };
        // A write at a stale version is a conflict even when the row now holds its values: two
        // workers adding one to a count both write the same value, and one add is lost.
        if (current !== null && given !== null && given !== current.version)
            return this.conflict(spec, current, given);
        if (current !== null && Object.keys(data).length === 0 && (item.archived ?? current.archived) === current.archived)
            return { row: current.id, outcome: "written", message: "no change", version: current.version };
        rowId ??= randomUUID().replaceAll("-", "").slice(0, 12);
        if (idColumn !== null)
            data[idColumn] = rowId; // the id column always holds the row's id
        const touchesBoth = current !== null && Object.entries(data).some(([name, value]) => columnOf(spec, name)?.owner === "both" && !same(current.data[name], value));
        if (current !== null && touchesBoth && given === null && by === "agent") {
            return {
                row: rowId,
                outcome: "conflict",
                message: `row ${pyRepr(rowId)} exists and a column both you and people write changes: its values now are ${json(shared(spec, current))}; if your change still applies, write it again with the version read_ gives`,
            };
        }
        const now = this.clock();
        const version = current === null ? 1 : current.version + 1;
        const merged = { ...(current?.data ?? {}), ...data };
        const since = { ...(current?.status_since ?? {}) };
        for (const name of spec.statusColumns)
            if (current === null || !same(current.data[name], merged[name]))
                since[name] = version;
        const record = {
            id: rowId,
            created_at: current?.created_at ?? now,
            updated_at: now,
            archived: Boolean(item.archived ?? current?.archived ?? false),
            version,
            data: merged,
            status_since: since,
        };
        if (!(await this.backend.put(spec.name, rowId, record, current === null ? 0 : version - 1)))
            return this.conflict(spec, await this.backend.get(spec.name, rowId), version - 1);
        return { row: rowId, outcome: "written", version };
    }
    conflict(spec, current, given) {
        const rowId = current?.id ?? "(gone)";
        const values = current ? json(shared(spec, current)) : "{}";
        return { row: rowId, outcome: "conflict", message: `row ${pyRepr(rowId)} changed since version ${given}: nothing written; its shared values now are ${values}: read it again and decide whether your change still applies` };
    }
    /** The row a write addresses, and a problem with it ("" when none): the id column's value and `id` must agree; a document with an id column needs one. */
    rowId(spec, item, data) {
        const idColumn = idColumnOf(spec);
        const given = item.id === null || item.id === undefined || item.id === "" ? null : String(item.id);
        const held = idColumn === null ? undefined : data[idColumn];
        const value = held === null || held === undefined || held === "" ? null : String(held);
        if (value !== null && given !== null && value !== given) {
            return [given, `row ${pyRepr(given)}: its id column ${pyRepr(idColumn)} holds its id and cannot change to ${pyRepr(value)} (write a new row with that id instead)`];
        }
        const rowId = value ?? given;
        if (rowId === null && idColumn !== null)
            return [null, `a new row of ${pyRepr(spec.name)} needs its id column ${pyRepr(idColumn)}`];
        return [rowId, ""];
    }
    problems(spec, data, by) {
        const problems = [];
        const declared = spec.columns.map((c) => c.name).join(", ");
        for (const [name, value] of Object.entries(data)) {
            const column = columnOf(spec, name);
            if (!column)
                problems.push(`${pyRepr(spec.name)} has no column ${pyRepr(name)} (its columns: ${declared})`);
            else if (by === "agent" && column.owner === "human")
                problems.push(`column ${pyRepr(name)} is written by people only: read it, leave it as it is`);
            else if (!typeOk(column, value))
                problems.push(`column ${pyRepr(name)} takes a ${column.type}, not ${pyRepr(value)}`);
            else if (spec.statusColumns.includes(name) && value !== null && value !== undefined && !spec.statusValues.includes(value)) {
                problems.push(`${pyRepr(value)} is not a status of ${pyRepr(spec.name)}: use one of ${spec.statusValues.join(", ")}`);
            }
        }
        return problems;
    }
    async archive(doc, rowId, archived = true) {
        if ((await this.backend.get(this.spec(doc).name, rowId)) === null)
            throw new WorkspaceError(`${pyRepr(doc)} has no row ${pyRepr(rowId)}`);
        return (await this.write(doc, [{ id: rowId, archived }], "human"))[0];
    }
    /**
     * Triggers that fire now: a non-archived row holds the pair, and that status change has not
     * fired yet. Marked as fired (kept in the store) unless `mark` is false.
     */
    async evaluate(mark = true) {
        const firings = [];
        for (const [doc, spec] of this.specs) {
            if (!spec.triggers.length)
                continue;
            const fired = await this.backend.fired(doc);
            const listed = (await this.backend.all(doc)).filter((r) => !r.archived);
            for (const [index, record] of listed.entries()) {
                for (const trigger of spec.triggers) {
                    if (record.data[trigger.column] !== trigger.status)
                        continue;
                    const since = record.status_since?.[trigger.column] ?? 0;
                    // Ends with the separator: a marker is never a prefix of another (unmark).
                    const marker = [record.id, trigger.column, trigger.status, String(since), ""].join("\x1f");
                    if (fired.has(marker))
                        continue;
                    if (mark && !(await this.backend.mark(doc, marker)))
                        continue;
                    firings.push({ document: doc, trigger, row: publicRow(record), marker, position: index + 1 });
                }
            }
        }
        return firings;
    }
    /** Forget that these fired: the next evaluation fires them again. */
    async unfire(firings) {
        for (const f of firings)
            await this.backend.unmark(f.document, f.marker);
    }
    /** Hard-delete a row: the row and the record of its fired triggers. */
    async delete(doc, rowId) {
        this.spec(doc);
        const existed = (await this.backend.get(doc, rowId)) !== null;
        await this.backend.delete(doc, rowId);
        await this.backend.unmark(doc, `${rowId}\x1f`);
        return existed;
    }
}
/** Equal as JSON values (what a row's column holds). */
function same(a, b) {
    return a === b || ((a ?? null) === null && (b ?? null) === null);
}
// --- agent tools -----------------------------------------------------------------------
/** Longest document part of a tool name: `write_<it>_rows` stays within the 64 characters providers allow. */
export const TOOL_IDENT_MAX = 50;
/** The document's name in its tools' names: `-` becomes `_`; a long name is cut, with 8 hex digits of its SHA-256 to keep names apart. */
export function toolIdent(doc) {
    const ident = doc.replaceAll("-", "_");
    if (ident.length <= TOOL_IDENT_MAX)
        return ident;
    return `${ident.slice(0, TOOL_IDENT_MAX - 9)}_${createHash("sha256").update(doc).digest("hex").slice(0, 8)}`;
}
export function toolNames(doc) {
    const ident = toolIdent(doc);
    return { list: `list_${ident}_rows`, read: `read_${ident}_row`, write: `write_${ident}_rows` };
}
const OWNER_NOTE = { agent: "you write it", human: "people write it, read only", both: "you and people write it" };
/** What every tool of the document says of it. */
function describe(spec) {
    const parts = [`Workspace document ${pyRepr(spec.name)}${spec.type ? ` (a ${spec.type})` : ""}`];
    const columns = spec.columns.map((c) => `${c.name} (${[c.type, OWNER_NOTE[c.owner], ...(c.id ? ["the row's id"] : [])].join(", ")})`);
    parts.push(columns.length ? "columns: " + columns.join("; ") : "no declared columns");
    if (spec.statusColumns.length)
        parts.push(`status columns ${spec.statusColumns.join(", ")} take only: ${spec.statusValues.join(", ")}`);
    return parts.join(". ") + ".";
}
export function toolDescription(spec, kind) {
    const about = describe(spec);
    const name = pyRepr(spec.name);
    return {
        list: `List the rows of ${name}, by status or id. ${about}`,
        read: `Read one row of ${name} by its id. ${about}`,
        write: `Create or update rows of ${name}; each answer says written, refused (why) or conflict (read the row again). ${about}`,
    }[kind];
}
/** The write tool's arguments: rows with the document's columns (people's columns too, so the store, not the schema, refuses them with its reason). */
export function writeSchema(spec) {
    const types = { string: () => z.string(), number: () => z.number(), boolean: () => z.boolean() };
    const columns = Object.fromEntries(spec.columns.map((c) => [c.name, types[c.type]().nullable().optional().describe(`owner: ${c.owner}`)]));
    const row = z.object({
        id: z.string().nullable().optional().describe("The row's id (new row: leave it out)."),
        version: z.number().int().nullable().optional().describe("The version you read (required to change a shared column)."),
        data: z.object(columns).catchall(z.unknown()).describe("The columns to set; others keep their values."),
    });
    return z.object({ rows: z.array(row).describe("The rows to write.") });
}
/** The documents whose tools the agent gets. */
export function documentsOf(specs, agentKey) {
    return specs.filter((s) => s.agents.includes(agentKey));
}
/**
 * The agent's tools of each document it has: list, read and write, each answering text (JSON,
 * as the Python targets' tools write it). `store`: where the rows are, asked at each call (the
 * graph's store on a server, the runner's file store).
 */
export function workspaceTools(specs, agentKey, store) {
    const open = async () => new Workspace(specs, await store());
    return documentsOf(specs, agentKey).flatMap((spec) => {
        const names = toolNames(spec.name);
        const list = tool(async ({ status, id }) => {
            let rows;
            try {
                rows = await (await open()).rows(spec.name, { status: status ?? null });
            }
            catch (error) {
                if (error instanceof WorkspaceError)
                    return `REFUSED: ${error.message}`;
                throw error;
            }
            return json(id === null || id === undefined ? rows : rows.filter((r) => r.id === id));
        }, {
            name: names.list,
            description: toolDescription(spec, "list"),
            schema: z.object({ status: z.string().nullable().optional().describe("Only rows with this status."), id: z.string().nullable().optional().describe("Only the row with this id.") }),
        });
        const read = tool(async ({ id }) => {
            const row = await (await open()).row(spec.name, id);
            return row === null ? `${pyRepr(spec.name)} has no row ${pyRepr(id)}` : json(row);
        }, { name: names.read, description: toolDescription(spec, "read"), schema: z.object({ id: z.string().describe("The row's id.") }) });
        const write = tool(async ({ rows }) => {
            // An unset column (null) is no value to write.
            const items = rows.map((r) => ({ ...r, data: Object.fromEntries(Object.entries(r.data ?? {}).filter(([, v]) => v !== null && v !== undefined)) }));
            const results = await (await open()).write(spec.name, items, "agent");
            return json(results);
        }, { name: names.write, description: toolDescription(spec, "write"), schema: writeSchema(spec) });
        return [list, read, write];
    });
}
