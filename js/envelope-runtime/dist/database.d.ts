import type { RunnableConfig } from "@langchain/core/runnables";
import type { Checkpoint, CheckpointMetadata } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import type { LockHolder } from "./thread-files.js";
/** What this uses of pg (the package's driver, a dependency of the export; pg ships no types of its own). */
interface Client {
    query<R>(text: string, values?: unknown[]): Promise<{
        rows: R[];
    }>;
    release(destroy?: boolean): void;
}
interface Pool extends Pick<Client, "query"> {
    connect(): Promise<Client>;
}
/** A PostgresSaver that also keeps each thread's worked time and locks a thread for one process (the FileSaver's counterparts). */
export declare class DatabaseSaver extends PostgresSaver {
    private readonly db;
    readonly where: string;
    /** The team whose checkpoints this writes (their metadata's envelope_team): a database may hold other teams' runs. */
    readonly team: string;
    private readonly time;
    private readonly locks;
    private ready;
    constructor(db: Pool, where: string, 
    /** The team whose checkpoints this writes (their metadata's envelope_team): a database may hold other teams' runs. */
    team: string);
    put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: Parameters<PostgresSaver["put"]>[3]): Promise<RunnableConfig>;
    /** The package's tables and the worked-time table, once. */
    prepare(): Promise<void>;
    /** Read `thread`'s worked time from the database (before workedMs is asked). */
    readWorked(thread: string): Promise<void>;
    workedMs(thread: string): number;
    startWork(thread: string, clock: () => number, fresh?: boolean): void;
    stopWork(thread: string, atLeast?: number): Promise<number>;
    /** The threads of this saver's team. */
    threads(): Promise<string[]>;
    deleteThread(threadId: string): Promise<void>;
    /** Take `thread`'s lock on a connection of its own, held until unlock (or the process ends): null, or who holds it. */
    lock(thread: string): Promise<LockHolder | null>;
    /** Release `thread`'s lock: its connection closed (the server drops a session's locks with it). */
    unlock(thread: string): void;
    /** Every lock released, the pool's connections closed (the process can end). */
    end(): Promise<void>;
}
/** The runner's saver of `team`'s runs on `url`, its tables made. */
export declare function openDatabaseSaver(url: string, team: string): Promise<DatabaseSaver>;
/** The workspace's store on `url`: LangGraph.js's PostgresStore (its tables made on first use). */
export declare function openDatabaseStore(url: string): PostgresStore;
export {};
