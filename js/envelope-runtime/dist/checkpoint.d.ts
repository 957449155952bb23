import type { RunnableConfig } from "@langchain/core/runnables";
import { MemorySaver, type Checkpoint, type CheckpointMetadata } from "@langchain/langgraph";
type PendingWrite = Parameters<MemorySaver["putWrites"]>[1][number];
export declare class FileSaver extends MemorySaver {
    readonly dir: string;
    /** `dir`: the folder of the threads' files (created on the first write). */
    constructor(dir: string);
    private load;
    private save;
    put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<RunnableConfig>;
    putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void>;
    deleteThread(threadId: string): Promise<void>;
}
export {};
