/**
 * One process at a time on a thread: `<dir>/<thread>.lock`, created exclusively (O_EXCL),
 * holding the process id. Node has no flock, so a lock whose process is gone (same host) is
 * stale and taken over; on another host it cannot be told, and stays held.
 */
export declare class ThreadLock {
    readonly path: string;
    private held;
    constructor(path: string);
    /** Take the lock: null, or who holds it (`process 123 on host`). */
    acquire(): string | null;
    /** Remove the lock (only ours). */
    release(): void;
    private holder;
    /** A stale lock moved aside, then removed; if what was moved turns out live (taken meanwhile), put back. */
    private breakStale;
}
/** gate -> record ids waiting now. */
export type WaitingRecords = Readonly<Record<string, readonly string[]>>;
/**
 * Whether a decisions file holds a reviewer's work for the records `waiting` now (undefined:
 * for any record): an action or feedback for one of them, or text that is not a template
 * (half-edited JSON is someone's work too).
 */
export declare function filled(path: string, waiting?: WaitingRecords): boolean;
/** A gate's interrupt value, as far as the template needs it. */
export interface WaitingGate {
    gate?: string;
    records?: ReadonlyArray<{
        id: string;
        fields: Record<string, unknown>;
    }>;
}
/**
 * Write the decisions template for the gates waiting now, `{"<gate>": [{"record", "fields",
 * "action": "", "feedback": ""}]}`, unless `path` holds a reviewer's work for these records
 * that this command did not read (`given`). A file not read here with work on records no
 * longer waiting is moved to `<name>.1` (`.2`, …) first. Returns what it did, for standard error.
 */
export declare function writeDecisionsTemplate(path: string, waiting: readonly WaitingGate[], given: string | undefined): string[];
/** Through a temporary file beside `path`, then a rename: a reader (or a crash) never sees half a file. */
export declare function writeAtomically(path: string, text: string): void;
