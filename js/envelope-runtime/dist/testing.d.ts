import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { RunnableGraph } from "./cli.js";
import type { DecisionItem, GateState } from "./gates.js";
import type { BuildOptions, ReviewRequest } from "./graph.js";
import type { TeamSpec } from "./spec.js";
/** A gate's review as a test sees it: the interrupt's value and its id. */
export type Review = ReviewRequest & {
    id: string;
};
/**
 * What a test decides for one review (`waiting`: every review asked at the same time, this one
 * among them); undefined or [] resumes without a decision (the gate asks again, or times out).
 */
export type Reviewer = (review: Review, waiting: readonly Review[]) => DecisionItem[] | undefined;
/** Every record of a review decided with `action` (a label or verb of the gate). */
export declare const decideAll: (action: string, feedback?: string) => Reviewer;
/** Every record of every review approved. */
export declare const approveAll: Reviewer;
interface Drawable {
    getGraph(): {
        nodes: Record<string, unknown>;
        edges: ReadonlyArray<{
            source: string;
            target: string;
            conditional?: boolean;
        }>;
    };
}
/** The graph's nodes as drawn (LangGraph's own __start__/__end__ left out), sorted. */
export declare function drawnNodes(graph: Drawable): string[];
/** The graph's edges as drawn, `from -> to` (` ?` for a conditional one), sorted. */
export declare function drawnEdges(graph: Drawable): string[];
/** A value for every secret and variable the team needs: `test-<name in lower case>`. */
export declare function sampleEnv(team: TeamSpec): Record<string, string>;
/**
 * What each gated step's agent answers: as many records as its gates' largest threshold (at
 * least one), each with every field its gates review (`<field> <n>`).
 */
export declare function sampleRecords(team: TeamSpec): Record<string, {
    records: Array<Record<string, string>>;
}>;
/**
 * A reviewer that lets `gate`'s deadline pass with nobody deciding its first review, once it is
 * the only gate waiting (another gate waiting then would time out with it), and approves
 * every other review.
 */
export declare function lettingTimeOut(team: TeamSpec, gate: string, clock: TestClock): Reviewer;
/** A reviewer that rejects every record of `gate`'s first round and approves every other review. */
export declare function rejectingFirstRound(gate: string, feedback?: string): Reviewer;
/** A clock for gate timeouts that moves only when a test moves it. */
export declare class TestClock {
    private ms;
    constructor(start?: string);
    readonly now: () => Date;
    advance(ms: number): void;
}
/** A team run offline: its build options (fake models, the environment, a clock) and the tasks its agents were given. */
export interface FakeTeam {
    /** Each conversation's task label, in order (a step's key, `team`, `revise:<gate>`, `escalate:<gate>`, `ask:<agent>`). */
    tasks: string[];
    env: Record<string, string>;
    clock: TestClock;
    options: Required<Pick<BuildOptions, "modelFor" | "env" | "now">>;
}
/**
 * Fake models for a whole team, answering by task: `answers[task]` when given (a string as it
 * is, anything else as JSON); else the hierarchy (`team`) and the final step the result; a
 * gated step, and the manager revising its records (`revise:<gate>`), sampleRecords; the
 * manager deciding for a timed-out gate (`escalate:<gate>`) approves the first round's
 * records; any other task a line of text.
 */
export declare function fakeTeam(team: TeamSpec, result: Record<string, unknown>, answers?: Readonly<Record<string, unknown>>): FakeTeam;
/** A finished (or halted) run: the graph's last output, every review it asked for in order, its final state and gates. */
export interface TeamRun {
    output: Record<string, unknown>;
    reviews: Review[];
    values: Record<string, unknown>;
    gates: Record<string, GateState>;
}
/**
 * Runs `input` on a fresh thread, then resumes every gate that waits with what `reviewer`
 * decides, until no gate waits (at most `maxResumes` times: a reviewer that never decides
 * fails the test instead of looping). `callbacks` see every model call (each agent's task
 * label is its run's metadata `envelope_task`).
 */
export declare function runTeam(graph: RunnableGraph, input: unknown, reviewer?: Reviewer, options?: {
    thread?: string;
    context?: Record<string, unknown>;
    callbacks?: Callbacks;
    maxResumes?: number;
}): Promise<TeamRun>;
export {};
