export type Verb = "approve" | "skip" | "reject" | "reset";
export type Trigger = "any_approved" | "all_resolved" | "threshold" | "scheduled";
export type OnReject = "skip" | "rerun" | "escalate" | "halt";
export type TimeoutBehaviour = "escalate" | "halt" | "proceed";
export type Outcome = "released" | "waiting" | "revise" | "halted";
/** Review rounds per gate; a rerun or escalation starts a new one. */
export declare const MAX_ROUNDS = 3;
/** The most problems listed for one set of decisions; the rest are counted. */
export declare const MAX_PROBLEMS = 20;
/** The longest text of what a person gave that a problem quotes. */
export declare const ECHO_LIMIT = 200;
export interface RecordAction {
    label: string;
    verb: Verb;
}
export declare const DEFAULT_ACTIONS: readonly RecordAction[];
export interface GateSpec {
    name: string;
    type: string;
    afterStep: string;
    triggersStep: string;
    fields: readonly string[];
    trigger: Trigger;
    thresholdCount: number | null;
    onReject: OnReject;
    actions: readonly RecordAction[];
    timeout: {
        after: string;
        afterMs: number;
        behaviour: TimeoutBehaviour;
    } | null;
}
export interface GateRecord {
    id: string;
    round: number;
    data: Record<string, unknown>;
    decision: "approve" | "skip" | "reject" | null;
    feedback: string | null;
    decidedAt: string | null;
    decidedBy: string | null;
}
export interface GateState {
    status: "open" | "waiting" | "released" | "halted";
    round: number;
    records: GateRecord[];
    waitingSince: string | null;
    message: string | null;
    /** Why the last decisions were refused (nothing of them was applied). */
    problems: string[];
}
/** One decision: a record id, an action (a recordActions label or verb; empty leaves it undecided), feedback. */
export interface DecisionItem {
    record: string;
    action?: string;
    feedback?: string;
}
export declare function newGateState(): GateState;
export declare const current: (g: GateState) => GateRecord[];
export declare const undecided: (g: GateState) => GateRecord[];
export declare const approved: (g: GateState) => GateRecord[];
/** A new round of records (ids continue across rounds: r1, r2, …). */
export declare function addRound(g: GateState, rows: ReadonlyArray<Record<string, unknown>>): GateState;
/** `text` whole when it has at most ECHO_LIMIT characters, else its start and `… (N characters)`. */
export declare function cut(text: string): string;
/** Decisions a gate cannot apply (a manager's naming a record of an earlier round): every problem. */
export declare class GateDecisionError extends Error {
    readonly problems: string[];
    constructor(problems: string[]);
}
/** What a person gave, as a problem quotes it. */
export declare const quoted: (value: unknown) => string;
export declare function verbOf(spec: GateSpec, action: string): Verb | undefined;
/**
 * Validate every item first; apply them all only if none is wrong. Returns the new state and
 * the problems (the state unchanged when there are any). `system` decisions (a timeout, a
 * manager's escalation) may use approve/skip/reject whatever recordActions offers, and items
 * naming records that do not exist are ignored.
 */
export declare function applyDecisions(spec: GateSpec, gate: GateState, items: readonly DecisionItem[], now: Date, reviewer: string, system?: boolean): {
    gate: GateState;
    problems: string[];
};
export declare function triggerMet(spec: GateSpec, gate: GateState): boolean;
/** What the gate does next, from the decisions made so far, and why. */
export declare function evaluate(spec: GateSpec, gate: GateState): [Outcome, string];
/**
 * Why a gate after `step` halts instead of escalating: its escalation would go to `manager`,
 * the step's own agent (it reports to nobody and is the entry agent), and no agent decides on
 * its own work. Null when the manager is another agent.
 */
export declare function selfEscalation(step: string, agent: string, manager: string): string | null;
/** timeout.behaviour proceed: the undecided records released as if approved by the timeout. */
export declare function proceed(spec: GateSpec, gate: GateState, now: Date): GateState;
/** Whether a waiting gate has waited longer than its timeout. */
export declare function timedOut(spec: GateSpec, gate: GateState, now: Date): boolean;
/** How a step is handed a gate's approved records; an empty release says why. */
export declare function releasedText(spec: GateSpec, gate: GateState): string;
/**
 * Read a resume value `{"gate": "<name>", "decisions": [...]}`: the items, or the problem that
 * refuses it whole (nothing applied). The value must name its gate: gates that wait at once
 * all receive a resume value not keyed by interrupt id, and record ids (r1, …) repeat across
 * gates, so a value for one gate would otherwise decide the other's records too.
 */
export declare function readResume(value: unknown, gate: string): {
    items: DecisionItem[];
} | {
    problem: string;
};
