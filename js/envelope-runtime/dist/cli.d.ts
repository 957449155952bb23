import { type BaseCheckpointSaver, type BaseStore } from "@langchain/langgraph";
import type { TeamSpec } from "./spec.js";
import { type Ask } from "./terminal-review.js";
export declare const EXIT: {
    readonly ok: 0;
    readonly failed: 1;
    readonly problems: 2;
    readonly waiting: 3;
    readonly halted: 4;
    readonly timeout: 124;
};
/** What the runner needs of the team's graph: invoke, its state, and its pending interrupts. */
export interface RunnableGraph {
    invoke(input: unknown, config: Record<string, unknown>): Promise<unknown>;
    getState(config: Record<string, unknown>): Promise<{
        values: unknown;
        next?: ReadonlyArray<string>;
        tasks: ReadonlyArray<{
            interrupts: ReadonlyArray<{
                id?: string;
                value?: unknown;
            }>;
        }>;
    }>;
}
export interface CliOptions {
    team: TeamSpec;
    /** `store`: the workspace's (openWorkspaceStore), for a team with workspace documents. */
    graph: (checkpointer: BaseCheckpointSaver, store?: BaseStore) => RunnableGraph;
    argv?: readonly string[];
    out?: (text: string) => void;
    err?: (text: string) => void;
    /** The clock a gate's deadline is compared with: the graph's (tests give their own). */
    now?: () => Date;
    /** The clock a run's work is counted with, in ms (default: performance.now; tests give their own). */
    workClock?: () => number;
    /**
     * Where a reviewer answers at the terminal (gates reviewed right away, as the Python runner
     * does). Default: standard input when it is a terminal and the runner reads the process's own
     * arguments (`argv` not given); `--no-interactive` turns it off, `--interactive` on.
     */
    ask?: Ask;
}
/** Runs the command in `argv`; resolves to the exit code. */
export declare function runCli(options: CliOptions): Promise<number>;
