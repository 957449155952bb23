import type { TeamSpec } from "./spec.js";
import { type ServerClient } from "./workspace-store.js";
import { type ColumnSpec, type DocumentSpec, type Firing, type Row, Workspace } from "./workspace.js";
/** A masked CSV export heads each pii column (and `id`, when the id column is pii) with this after it. */
export declare const MASKED_HEADER = " (masked)";
/** A masked JSON export's row lists its masked fields under this key. */
export declare const MASKED_KEY = "masked";
/** What `delete` looks through besides the store: the runs that may hold what agents read of a row. */
export interface RunRecords {
    /** Where they are kept, for messages. */
    where: string;
    /** The ids of the runs whose records contain any of `needles`. */
    holding(needles: readonly string[]): Promise<string[]>;
    purge(runIds: readonly string[]): Promise<void>;
}
/**
 * The runner's runs (`<runs dir>/threads/`, FileSaver's files): every thread whose checkpoints
 * or pending writes hold a value (the agents' tool answers are in them), deleted whole with
 * its decisions file.
 */
export declare class SavedRuns implements RunRecords {
    readonly runsDir: string;
    readonly where: string;
    constructor(runsDir: string);
    holding(needles: readonly string[]): Promise<string[]>;
    purge(runIds: readonly string[]): Promise<void>;
}
/**
 * The runner's runs in PostgreSQL (DATABASE_URL): every thread whose checkpoints or pending
 * writes hold a value, as workspace_store.py's CheckpointRecords looks through the database's,
 * deleted with the saver's own deleteThread, and its decisions file.
 */
export declare class DatabaseRuns implements RunRecords {
    readonly url: string;
    readonly runsDir: string;
    readonly team: string;
    readonly where: string;
    constructor(url: string, runsDir: string, team: string);
    private withSaver;
    holding(needles: readonly string[]): Promise<string[]>;
    purge(runIds: readonly string[]): Promise<void>;
}
/**
 * The runs of an Agent Server, for `workspace --url delete` (run_client.py's ServerThreads):
 * its threads, each searched in its values, metadata and every checkpoint of its history and
 * its subgraphs' (where the agents' tool answers are); deleted with threads.delete.
 */
export declare class ServerThreads implements RunRecords {
    readonly client: ServerClient;
    static readonly PAGE = 100;
    readonly where: string;
    constructor(url: string, client: ServerClient);
    private threads;
    private holds;
    holding(needles: readonly string[]): Promise<string[]>;
    purge(runIds: readonly string[]): Promise<void>;
}
/** `--url URL` (or `--url=URL`) among a command's own options (those before a `--`), and the arguments without it; a problem when it has no value. */
export declare function urlOption(argv: readonly string[]): {
    url: string | null;
    rest: string[];
    problem?: string;
};
/** What `watch --url` gives each run on the server: what the runner's `run` would take of its options. */
type ServedTeam = Pick<TeamSpec, "slug" | "inputs" | "agents" | "recursionLimit" | "runTimeoutMs" | "secrets">;
/**
 * One triggered run on the Agent Server (`watch --url`): a new thread there, the run's inputs,
 * its model context (`--model-context`), the team's recursion limit (as the runner's `run`
 * gives it) and the triggering rows (TRIGGERED, set by watchOnce) in its config
 * (`configurable.envelope_triggered`), waited for. Its exit code as the runner's `run`: 0 done,
 * 1 failed, 2 not started (bad options, server unreachable: the triggers fire again), 3
 * waiting at a gate (resume it on the server), 4 halted, 124 out of timeout.runMs (the graph
 * counts it on the server too).
 */
export declare function runOnServer(client: ServerClient, team: ServedTeam, runArgs: readonly string[], url: string, io: Io, env?: Readonly<Record<string, string | undefined>>): Promise<number>;
export interface Io {
    out: (text: string) => void;
    err: (text: string) => void;
}
export declare const WORKSPACE_USAGE: string;
/** A value given as text (a command line, a CSV cell) in the column's type; "" is unset. */
export declare function coerce(column: ColumnSpec, text: string): unknown;
/** The fields `masked` masks in this row: `id` (when the id column is pii), then its pii columns that hold a value. */
export declare function maskedFields(spec: DocumentSpec, row: Row): string[];
/** The rows as JSON or CSV; masked unless `showPii`, saying which values are masks. */
export declare function exportRows(spec: DocumentSpec, rows: readonly Row[], format: "json" | "csv", showPii: boolean): string;
/** RFC 4180 as Python's csv module reads it: quoted cells (with `""`, commas and line breaks in them), rows by line. */
export declare function parseCsv(text: string): string[][];
/** How a row's pii values may be written in a stored run: as they are and JSON-escaped up to 3 times over; values under 4 characters are left out (they would match unrelated runs). */
export declare function piiNeedles(spec: DocumentSpec, row: Row): string[];
/** `workspace list|show|edit|import|export|archive|delete ...`; `runs`: the stored runs `delete` also looks through. Resolves to the exit code (2: a refused request). */
export declare function workspaceCommand(argv: readonly string[], workspace: Workspace, io: Io, runs?: RunRecords): Promise<number>;
/** Where `watch` posts each `notify` trigger that fires (JSON), besides its line. */
export declare const WEBHOOK_ENV = "ENVELOPE_WORKSPACE_WEBHOOK_URL";
/** The runner's exit code for a run refused before it started (inputs, flags, environment). */
export declare const RUN_NOT_STARTED = 2;
export declare const WATCH_USAGE: string;
/** What a `notify` trigger prints: the document, the row and the pair (no pii). */
export declare function notifyLine(spec: DocumentSpec, firing: Firing): string;
/** Where a triggered run's stop signals come from, and how the process then ends (the process's own; a test's). */
export interface Stops {
    on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
    off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
    end(signal: NodeJS.Signals): void;
}
/**
 * Evaluate the triggers once: print (and post) each `notify`, run the team once with the rows
 * of every `run` trigger that fired. Fired triggers are recorded first, so a status change
 * fires once even when the run fails; a run refused before it started (exit 2) leaves them to
 * fire again.
 */
export declare function watchOnce(workspace: Workspace, runTeam: () => Promise<number>, io: Io, env?: Readonly<Record<string, string | undefined>>, fetcher?: typeof fetch, stops?: Stops): Promise<number>;
/** `watch [--once] [--interval S] [-- RUN OPTIONS]`: options before `--` that watch does not know go to the runs too. */
export declare function watchCommand(argv: readonly string[], workspace: Workspace, runTeam: (runArgs: string[]) => Promise<number>, io: Io): Promise<number>;
/**
 * The runner's `workspace ...` and `watch ...` (argv[0]): on the runner's store, or with
 * `--url URL` on the store of the Agent Server serving the team, where `delete` looks through
 * the server's threads and each `watch` run starts (run_client.py's workspace_command).
 * `runHere`: the runner's own `run` with these options.
 */
export declare function peopleCommand(argv: readonly string[], team: ServedTeam & Pick<TeamSpec, "workspace">, io: Io, runHere: (runArgs: string[]) => Promise<number>, env?: Readonly<Record<string, string | undefined>>): Promise<number>;
/** peopleCommand once the store is chosen (`client`: the server's, a test's fake). */
export declare function peopleOn(command: string, args: readonly string[], team: ServedTeam & Pick<TeamSpec, "workspace">, io: Io, runHere: (runArgs: string[]) => Promise<number>, env: Readonly<Record<string, string | undefined>>, url: string | null, client: ServerClient | null): Promise<number>;
export {};
