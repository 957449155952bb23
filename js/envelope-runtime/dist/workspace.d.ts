import type { BaseStore } from "@langchain/langgraph";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod";
export type Owner = "agent" | "human" | "both";
export type Writer = "agent" | "human";
export interface ColumnSpec {
    name: string;
    owner: Owner;
    type: "string" | "number" | "boolean";
    id: boolean;
    pii: boolean;
}
export interface TriggerSpec {
    column: string;
    status: string;
    action: "run" | "notify";
}
/** One document as a team's src/team.ts declares it (TEAM.workspace). */
export interface DocumentSpec {
    name: string;
    /** The definition's hint (`contact-list`, …); "" when it has none. */
    type: string;
    columns: readonly ColumnSpec[];
    statusValues: readonly string[];
    /** The columns that hold a status: a trigger's column, and a column called `status`. */
    statusColumns: readonly string[];
    triggers: readonly TriggerSpec[];
    /** The agents with this document's tools (a prompt that names it; none does: every agent). */
    agents: readonly string[];
}
/** A row as tools and commands show it. */
export interface Row {
    id: string;
    created_at: string;
    updated_at: string;
    archived: boolean;
    version: number;
    data: Record<string, unknown>;
}
/** A row as the store keeps it: what status each status column got at which version, too (triggers). */
export interface StoredRow extends Row {
    status_since: Record<string, number>;
}
export interface WriteItem {
    id?: string | null;
    version?: number | null;
    archived?: boolean;
    data?: Record<string, unknown> | null;
}
export interface WriteResult {
    row: string;
    outcome: "written" | "refused" | "conflict";
    message?: string;
    version?: number;
}
/** A trigger that fires now, and what the store keeps of it once fired (so it fires once). */
export interface Firing {
    document: string;
    trigger: TriggerSpec;
    row: Row;
    marker: string;
    /** The row's place in `workspace list <document>` when it fired (1: first). */
    position: number;
}
export declare const BUILT_IN: readonly ["id", "created_at", "updated_at", "archived", "version"];
export declare const MASK = "***";
export declare const ROWS_NAMESPACE = "envelope_workspace";
/** A request the store refuses, with what to do instead. */
export declare class WorkspaceError extends Error {
    constructor(message: string);
}
/** `value` as Python's repr() writes it in the messages (the Python targets' words, quote for quote). */
export declare function pyRepr(value: unknown): string;
export declare function utcNow(): string;
/** A stored record as tools and commands show it: the built-in fields and `data`. */
export declare function publicRow(record: Row): Row;
/** The row with its pii columns' values masked (and its id, when the id column is pii). */
export declare function masked(spec: DocumentSpec, row: Row): Row;
/**
 * Rows and fired triggers on a LangGraph.js Store: rows under ["envelope_workspace", <doc>],
 * fired triggers under ["envelope_workspace_fired", <doc>]. The Store has no compare-and-set:
 * it is done under the store's own lock across processes when it has one (FileStore), else by
 * claims on the store itself, so the replicas of a server sharing its store agree on which
 * write of a version wins (workspace.py's StoreBackend._claimed).
 */
export declare class StoreBackend {
    readonly store: BaseStore;
    constructor(store: BaseStore);
    get(doc: string, rowId: string): Promise<StoredRow | null>;
    /** Compare-and-set: `expected` is the version the stored record must have (0: must not exist; null: any). */
    put(doc: string, rowId: string, record: StoredRow, expected: number | null): Promise<boolean>;
    /**
     * Whether this writer wins the write after version `current`: each writer puts a claim, then
     * reads every claim on that version, and wins only when its own is the only one there; of
     * two writers at least the later one sees both claims, so at most one wins (on contention
     * maybe none: each reports a conflict). The winner also finds the row still at `current`.
     */
    private claimed;
    delete(doc: string, rowId: string): Promise<void>;
    private items;
    /** The document's rows, in creation order; items written around the rules that are not rows are skipped. */
    all(doc: string): Promise<StoredRow[]>;
    fired(doc: string): Promise<Set<string>>;
    /** Record a firing; false when it was recorded already (another watcher fired it since `fired` was read). */
    mark(doc: string, marker: string): Promise<boolean>;
    unmark(doc: string, prefix: string): Promise<void>;
}
/** The team's documents (TEAM.workspace) over one store. */
export declare class Workspace {
    readonly clock: () => string;
    readonly specs: ReadonlyMap<string, DocumentSpec>;
    readonly backend: StoreBackend;
    constructor(specs: readonly DocumentSpec[], store: BaseStore, clock?: () => string);
    spec(doc: string): DocumentSpec;
    /** The document's rows, not archived ones unless asked; `status`: rows whose status column (`column`, else any) holds it. */
    rows(doc: string, options?: {
        status?: string | null;
        column?: string | null;
        archived?: boolean;
    }): Promise<Row[]>;
    row(doc: string, rowId: string): Promise<Row | null>;
    /** Write rows (`{id?, version?, data}`), each on its own: one refused or conflicting row leaves the others written. */
    write(doc: string, rows: readonly WriteItem[], by: Writer): Promise<WriteResult[]>;
    private writeOne;
    private conflict;
    /** The row a write addresses, and a problem with it ("" when none): the id column's value and `id` must agree; a document with an id column needs one. */
    private rowId;
    private problems;
    archive(doc: string, rowId: string, archived?: boolean): Promise<WriteResult>;
    /**
     * Triggers that fire now: a non-archived row holds the pair, and that status change has not
     * fired yet. Marked as fired (kept in the store) unless `mark` is false.
     */
    evaluate(mark?: boolean): Promise<Firing[]>;
    /** Forget that these fired: the next evaluation fires them again. */
    unfire(firings: readonly Firing[]): Promise<void>;
    /** Hard-delete a row: the row and the record of its fired triggers. */
    delete(doc: string, rowId: string): Promise<boolean>;
}
/** Longest document part of a tool name: `write_<it>_rows` stays within the 64 characters providers allow. */
export declare const TOOL_IDENT_MAX = 50;
/** The document's name in its tools' names: `-` becomes `_`; a long name is cut, with 8 hex digits of its SHA-256 to keep names apart. */
export declare function toolIdent(doc: string): string;
export declare function toolNames(doc: string): {
    list: string;
    read: string;
    write: string;
};
export declare function toolDescription(spec: DocumentSpec, kind: "list" | "read" | "write"): string;
/** The write tool's arguments: rows with the document's columns (people's columns too, so the store, not the schema, refuses them with its reason). */
export declare function writeSchema(spec: DocumentSpec): z.ZodObject<{
    rows: z.ZodArray<z.ZodObject<{
        id: z.ZodOptional<z.ZodNullable<z.ZodString>>;
        version: z.ZodOptional<z.ZodNullable<z.ZodNumber>>;
        data: z.ZodObject<{
            [x: string]: z.ZodOptional<z.ZodNullable<z.ZodString>> | z.ZodOptional<z.ZodNullable<z.ZodNumber>> | z.ZodOptional<z.ZodNullable<z.ZodBoolean>>;
        }, z.core.$catchall<z.ZodUnknown>>;
    }, z.core.$strip>>;
}, z.core.$strip>;
/** The documents whose tools the agent gets. */
export declare function documentsOf(specs: readonly DocumentSpec[], agentKey: string): DocumentSpec[];
/**
 * The agent's tools of each document it has: list, read and write, each answering text (JSON,
 * as the Python targets' tools write it). `store`: where the rows are, asked at each call (the
 * graph's store on a server, the runner's file store).
 */
export declare function workspaceTools(specs: readonly DocumentSpec[], agentKey: string, store: () => BaseStore | Promise<BaseStore>): StructuredToolInterface[];
