/**
 * What names a temporary file (or a stale lock moved aside) as this write's: the pid, which the
 * scrub asks after, and a random part, as processes of containers sharing a folder all run as
 * pid 1 and would otherwise write through one temporary.
 */
export declare const tempTag: () => string;
/** Who holds a lock another process asked for, and, for a holder on another host, how to release it. */
export interface LockHolder {
    /** `process 123 on host`. */
    who: string;
    /** For a holder on another host (not checkable from here): `if process 123 on host h is gone, remove <path> to release it`. */
    ifGone?: string;
}
/**
 * One process at a time on a thread: `<dir>/<thread>.lock`, holding the process id and host,
 * written to a temporary file and linked into place (which fails if the path exists, as
 * O_EXCL does), so it is never seen empty (without hard links: created with O_EXCL, then
 * written: placeExclusive). Node has no flock, so a lock whose process is gone
 * (same host; or our own pid when this process does not hold it: a restarted container with
 * the same pid) is stale and taken over; on another host it cannot be told, and stays held.
 */
export declare class ThreadLock {
    readonly path: string;
    private held;
    constructor(path: string);
    /** Take the lock: null, or who holds it. */
    acquire(): LockHolder | null;
    /** Remove the lock (only ours). */
    release(): void;
    /** The lock file's text and age, or null when it is gone. */
    private read;
    /** Whether a process on this host still runs; our own pid only while this process holds the lock. */
    private alive;
    /**
     * A stale lock (`text`) moved aside, then removed; if what was moved is not it (taken
     * meanwhile), put back. The file moved aside may vanish under us (another process's
     * scrubLeftovers, or an older version's): then someone else dealt with it, and acquire tries again.
     */
    private breakStale;
}
/**
 * Remove the leftovers (LEFTOVER) of killed writes in `dir`: a temporary file can hold a
 * checkpoint's or a document's values, pii too, that `delete --purge-runs` would not find.
 * One is left while a write may still be using it: under UNWRITTEN_MS old (a writer on another
 * host sharing the folder, a worker thread of this process), or its pid is another process's
 * running on this host (for an hour at most: then the pid was reused).
 */
export declare function scrubLeftovers(dir: string): void;
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
/**
 * Through a temporary file beside `path`, then a rename: a reader (or a crash) never sees half a
 * file. The file's bytes reach the disk before the rename, and the rename before we return: on
 * a file system that delays writes (ext4, XFS), a power cut after an unsynced rename can leave
 * an empty file where a checkpoint, a reviewer's decisions or a workspace document was.
 */
export declare function writeAtomically(path: string, text: string, temporary?: string): void;
