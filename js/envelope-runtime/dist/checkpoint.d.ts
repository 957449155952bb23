import type { RunnableConfig } from "@langchain/core/runnables";
import { MemorySaver, type Checkpoint, type CheckpointMetadata } from "@langchain/langgraph";
type PendingWrite = Parameters<MemorySaver["putWrites"]>[1][number];
/** A thread's id encoded so that any id is one plain file name (its checkpoints, lock, decisions). */
export declare const threadFileName: (thread: string) => string;
/** Each thread's worked time (ms, for timeout.runMs across resumes): what a saver kept, and the work this process counts now. */
export declare class WorkTime {
    /** Each thread's worked time before the work counted now. */
    readonly kept: Record<string, number>;
    /** The thread being worked on in this process, since when (`clock` ms). */
    private working;
    /** The time `thread`'s runs have worked (the work counted now included). */
    of(thread: string): number;
    /** Count the time from now (`clock`, ms) as `thread`'s work, until stop; `fresh`: a new run, its earlier runs' time dropped. */
    start(thread: string, clock: () => number, fresh?: boolean): void;
    /** Stop counting: the thread's worked time, at least `atLeast` ms. */
    stop(thread: string, atLeast?: number): number;
}
export declare class FileSaver extends MemorySaver {
    readonly dir: string;
    private readonly time;
    /** `dir`: the folder of the threads' files (created on the first write). */
    constructor(dir: string);
    private load;
    private save;
    /** The time `thread`'s runs have worked, in ms (the work counted now included). */
    workedMs(thread: string): number;
    /** Count the time from now (`clock`, ms) as `thread`'s work, until stopWork; `fresh`: a new run, its earlier runs' time dropped. */
    startWork(thread: string, clock: () => number, fresh?: boolean): void;
    /** Stop counting: the thread's worked time, at least `atLeast` ms, kept in its file (if it has one). */
    stopWork(thread: string, atLeast?: number): number;
    put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<RunnableConfig>;
    putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void>;
    deleteThread(threadId: string): Promise<void>;
}
export {};
