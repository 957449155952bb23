import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { Command, StateGraph } from "@langchain/langgraph";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { BaseCheckpointSaver, BaseStore, LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";
import * as gates from "./gates.js";
import type { GateSpec } from "./gates.js";
import { type ConnectionsSpec } from "./connections.js";
import { type ModelChoice } from "./models.js";
import type { AgentSpec, StepSpec, TeamSpec } from "./spec.js";
export declare const stepNode: (key: string) => string;
export declare const gateNode: (name: string) => string;
export declare const releasedNode: (name: string) => string;
export declare const escalateNode: (name: string) => string;
type Span = [number, number];
/** The milliseconds of model work a run's spans add up to (its timeout.runMs budget is spent by them). */
export declare const workedMs: (spans: readonly Span[] | null | undefined) => number;
/** Why a run halts once its model work reached timeout.runMs (the runner exits 124 on it). */
export declare const deadlineMessage: (runTimeoutMs: number) => string;
/** The run's own state fields (every run starts them afresh in `prepare`). */
export declare const RUN_FIELDS: {
    inputs: z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>;
    answers: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    records: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    approved: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    gates: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    feedback: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    halted: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodString>>, z.ZodType<string | null, string | null | undefined, z.core.$ZodTypeInternals<string | null, string | null | undefined>>>;
    status: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodString>>, z.ZodType<string | null, string | null | undefined, z.core.$ZodTypeInternals<string | null, string | null | undefined>>>;
    result: z.ZodDefault<z.ZodNullable<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>>;
    work: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodArray<z.ZodTuple<[z.ZodNumber, z.ZodNumber], null>>>>, z.ZodType<Span[], Span[] | null | undefined, z.core.$ZodTypeInternals<Span[], Span[] | null | undefined>>>;
};
/** The graph's output: the same three keys for every run. */
export declare function outputSchema(result: z.ZodObject): z.ZodObject<{
    status: z.ZodNullable<z.ZodEnum<{
        waiting: "waiting";
        halted: "halted";
        done: "done";
    }>>;
    halted: z.ZodNullable<z.ZodString>;
    result: z.ZodNullable<z.ZodObject<z.core.$ZodLooseShape, z.core.$strip>>;
}, z.core.$strip>;
interface RunState {
    inputs: Record<string, unknown>;
    answers: Record<string, unknown>;
    records: Record<string, unknown>;
    approved: Record<string, unknown>;
    gates: Record<string, unknown>;
    feedback: Record<string, unknown>;
    halted: string | null;
    status: string | null;
    result: Record<string, unknown> | null;
    work: Span[] | null;
    [channel: string]: unknown;
}
/** What a gate's interrupt() asks for (its value): the records to decide and how. */
export interface ReviewRequest {
    gate: string;
    type: string;
    step: string;
    triggers: string;
    round: number;
    trigger: gates.Trigger;
    threshold: number | null;
    records: Array<{
        id: string;
        fields: Record<string, unknown>;
    }>;
    actions: Array<{
        label: string;
        verb: gates.Verb;
    }>;
    waiting_since: string | null;
    deadline: string | null;
    /** Why the last decisions were refused (nothing of them was applied). */
    problems: string[];
}
/** Creates an agent's chat model for a run (tests give fake ones). */
export type ModelFor = (agentKey: string, choice: ModelChoice, task: string) => BaseChatModel | Promise<BaseChatModel>;
export interface BuildOptions {
    /** The agents' models; default: initChatModel of each agent's chosen model. */
    modelFor?: ModelFor;
    /** The HTTP transport of http_request, the packs' tools and MCP servers (tests give their own). */
    fetch?: typeof fetch;
    /** The team's connection packs (src/team.ts's CONNECTIONS); their credentials are required before a run. */
    connections?: ConnectionsSpec;
    /** The clock of gate timeouts (tests give their own). */
    now?: () => Date;
    /** The environment: secrets, variables, model overrides, provider keys (default: process.env). */
    env?: Env;
}
export interface TeamSchemas {
    input: z.ZodObject;
    result: z.ZodObject;
    context: z.ZodObject;
}
type Env = Readonly<Record<string, string | undefined>>;
/** A run's refusal before any model call: every problem at once. */
export declare class RunProblems extends Error {
    readonly problems: string[];
    constructor(problems: string[]);
}
/** The run's inputs by key from the graph's channels: checked (type, enum, required), defaults applied. */
export declare function resolveInputs(team: Pick<TeamSpec, "inputs">, state: Readonly<Record<string, unknown>>): Record<string, unknown>;
/** Everything that would fail the run, found before any model call. */
export declare function runProblems(team: TeamSpec, context: Readonly<Record<string, unknown>>, env: Env, checkProviderKeys: boolean, packSecrets?: readonly string[]): string[];
/** The text of a message's content. */
export declare function textOf(message: BaseMessage | undefined): string;
/** The JSON object an answer holds (a ```json fence, or its outermost braces). */
export declare function jsonIn(text: string): unknown;
/** The graph's state: one channel per team input (as the input schema names it), then the run's own fields. */
export declare function teamState(team: TeamSpec): z.ZodObject<{
    inputs: z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>;
    answers: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    records: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    approved: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    gates: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    feedback: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    halted: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodString>>, z.ZodType<string | null, string | null | undefined, z.core.$ZodTypeInternals<string | null, string | null | undefined>>>;
    status: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodString>>, z.ZodType<string | null, string | null | undefined, z.core.$ZodTypeInternals<string | null, string | null | undefined>>>;
    result: z.ZodDefault<z.ZodNullable<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>>;
    work: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodArray<z.ZodTuple<[z.ZodNumber, z.ZodNumber], null>>>>, z.ZodType<Span[], Span[] | null | undefined, z.core.$ZodTypeInternals<Span[], Span[] | null | undefined>>>;
}, z.core.$strip>;
/**
 * The team's edges, in the order graph.ts adds them: START to `prepare`; each step from what it
 * waits for (the steps it takes answers from, the gates before it; none: `prepare`), or
 * `team` for a hierarchy; `finalize` from every last node (a step nothing waits for, a gate
 * no step waits for); `finalize` to END. Gates route themselves (Command).
 */
export declare function teamEdges(team: TeamSpec): Array<[string | string[], string]>;
/** What a node of the team's graph returns: a state update, or a Command (a gate's routing). */
export type TeamUpdate = Partial<RunState> | Command;
/** A node function of the team's graph. */
export type TeamNode = (state: RunState, config: LangGraphRunnableConfig) => Promise<TeamUpdate> | TeamUpdate;
/**
 * The node functions of a team's graph, which an export's graph.ts wires with addNode (and
 * buildTeamGraph alike): `prepare`, `team` (a hierarchy), `step(key)`, `gate(name)`,
 * `escalate(name)`, `released(name)`, `finalize`; the `…Options` give the nodes a gate or an
 * escalation may route to (Command goto), for the drawn graph.
 */
export declare class TeamNodes {
    readonly runtime: TeamRuntime;
    constructor(team: TeamSpec | TeamRuntime, schemas?: TeamSchemas, options?: BuildOptions);
    /** Context, environment and inputs checked before any model call; the run's fields started afresh. */
    readonly prepare: TeamNode;
    /** The team's result, from the final step's (or the hierarchy's) answer. */
    readonly finalize: TeamNode;
    /** A hierarchy: the entry agent, asking its reports as tools. */
    readonly team: TeamNode;
    private stepSpec;
    private gateSpec;
    /** A pipeline step: its agent's answer (records, for a gated step). */
    step(key: string): TeamNode;
    stepOptions(key: string): {
        ends?: string[];
    };
    /** A review gate: pauses with interrupt() until its records are decided. */
    gate(name: string): TeamNode;
    gateOptions(name: string): {
        ends: string[];
    };
    /** Whether the gate has an escalation node (onReject or its timeout escalates). */
    escalates(name: string): boolean;
    /** A gate's escalation: the escalation agent decides what the reviewers did not. */
    escalate(name: string): TeamNode;
    escalateOptions(name: string): {
        ends: string[];
    };
    /** A gate's approved records, released to the steps that wait for it. */
    released(name: string): TeamNode;
}
export declare class TeamRuntime {
    readonly team: TeamSpec;
    readonly schemas: TeamSchemas;
    readonly options: BuildOptions;
    readonly agents: ReadonlyMap<string, AgentSpec>;
    readonly gateSpecs: ReadonlyMap<string, GateSpec>;
    readonly steps: ReadonlyMap<string, StepSpec>;
    readonly env: Env;
    constructor(team: TeamSpec, schemas: TeamSchemas, options?: BuildOptions);
    private now;
    private secrets;
    /** The agent's system prompt for a run: `{{NAME}}` from secrets, variables and the run's inputs (as the Python targets' prompts.py). */
    systemPrompt(agent: AgentSpec, inputs: Readonly<Record<string, unknown>>): string;
    model(agent: AgentSpec, config: RunnableConfig | undefined, task: string): Promise<BaseChatModel>;
    /** What the agent's pack tools read: its policy, the team's secrets and variables, the transport. */
    private packOptions;
    /** The agent's tools: http_request with egress, its OpenAPI packs' tools; in a hierarchy, ask_<report> per report (its MCP servers' tools are listed by converse). */
    tools(agent: AgentSpec, inputs: Readonly<Record<string, unknown>>, config: RunnableConfig | undefined, withReports: boolean): StructuredToolInterface[];
    /** The store of the graph this runs in (a node's config holds the compiled one, or the server's), else the runner's file store (a graph compiled without one). */
    workspaceStore(config: RunnableConfig | undefined): BaseStore;
    private fileStore;
    /** One conversation of an agent on a task (createAgent: its model, tools and rendered prompt). */
    converse(agent: AgentSpec, task: string, inputs: Readonly<Record<string, unknown>>, config: RunnableConfig | undefined, label: string, withReports: boolean, history?: BaseMessage[]): Promise<BaseMessage[]>;
    /** An answer that must be JSON of `schema`: asked once more, in the same conversation, when it is not. */
    structured<T>(agent: AgentSpec, task: string, schema: z.ZodType<T>, inputs: Readonly<Record<string, unknown>>, config: RunnableConfig | undefined, label: string): Promise<T>;
    private recordsSchema;
    private stepTask;
    /** The team's StateGraph, compiled (`checkpointer`, `store`: the runner's; none under the Agent Server, which brings its own). An export's graph.ts writes the same wiring out, node by node. */
    build(compileOptions?: {
        checkpointer?: BaseCheckpointSaver;
        store?: BaseStore;
    }): ReturnType<StateGraph<ReturnType<typeof teamState>>["compile"]>;
    prepare(s: RunState, config: RunnableConfig | undefined): Promise<Partial<RunState>>;
    private checkRun;
    /**
     * A model-calling node's work within what is left of timeout.runMs (the state's `work`
     * spans), its own span added; past the deadline the run halts, as in the Python targets.
     */
    private bounded;
    stepNodeFn(step: StepSpec, s: RunState, config: RunnableConfig | undefined): Promise<Record<string, unknown> | Command<unknown, Record<string, unknown>, string> | Command<unknown, {
        records: {
            [step.key]: unknown;
        };
        answers: {
            [step.key]: string;
        };
    }, string> | {
        answers: {
            [step.key]: unknown;
        };
    }>;
    private step;
    private payload;
    gateNodeFn(spec: GateSpec, s: RunState, _config: RunnableConfig | undefined): Promise<Command<unknown, Record<string, unknown>, "__end__"> | Command<unknown, {
        gates: {
            [spec.name]: gates.GateState;
        };
    }, string>>;
    /** Why the gate halts instead of escalating: the escalation would go to its step's own agent (gates.selfEscalation). */
    private selfEscalation;
    /** The escalation manager (the step agent's manager, else the entry agent) revises rejected records or decides undecided ones; never the step's own agent (selfEscalation halts the gate first). */
    escalateNodeFn(spec: GateSpec, s: RunState, config: RunnableConfig | undefined): Promise<Command<unknown, Record<string, unknown>, string> | Command<unknown, {
        gates: {
            [spec.name]: {
                status: string;
                waitingSince: string;
                round: number;
                records: gates.GateRecord[];
                message: string | null;
                problems: string[];
            };
        };
    }, string> | Command<unknown, {
        gates: {
            [spec.name]: {
                waitingSince: null;
                status: "open" | "waiting" | "released" | "halted";
                round: number;
                records: gates.GateRecord[];
                message: string | null;
                problems: string[];
            };
        };
    }, string>>;
    private escalate;
    teamNode(s: RunState, config: RunnableConfig | undefined): Promise<Record<string, unknown> | Command<unknown, Record<string, unknown>, string> | {
        answers: {
            team: unknown;
        };
    }>;
    private team_;
    finalize(s: RunState): {
        status: string;
        result?: undefined;
    } | {
        result: Record<string, unknown>;
        status: string;
    };
}
/** The team's compiled graph. */
export declare function buildTeamGraph(team: TeamSpec, schemas: TeamSchemas, options?: BuildOptions & {
    checkpointer?: BaseCheckpointSaver;
    store?: BaseStore;
}): import("@langchain/langgraph").CompiledStateGraph<{
    inputs: Record<string, unknown> | null;
    answers: Record<string, unknown> | null | undefined;
    records: Record<string, unknown> | null | undefined;
    approved: Record<string, unknown> | null | undefined;
    gates: Record<string, unknown> | null | undefined;
    feedback: Record<string, unknown> | null | undefined;
    halted: string | null | undefined;
    status: string | null | undefined;
    result: Record<string, unknown> | null;
    work: [number, number][] | null | undefined;
}, {
    inputs?: Record<string, unknown> | null | undefined;
    answers?: {} | import("@langchain/langgraph").OverwriteValue<Record<string, unknown> | null | undefined> | null | undefined;
    records?: {} | import("@langchain/langgraph").OverwriteValue<Record<string, unknown> | null | undefined> | null | undefined;
    approved?: {} | import("@langchain/langgraph").OverwriteValue<Record<string, unknown> | null | undefined> | null | undefined;
    gates?: {} | import("@langchain/langgraph").OverwriteValue<Record<string, unknown> | null | undefined> | null | undefined;
    feedback?: {} | import("@langchain/langgraph").OverwriteValue<Record<string, unknown> | null | undefined> | null | undefined;
    halted?: string | import("@langchain/langgraph").OverwriteValue<string | null | undefined> | null | undefined;
    status?: string | import("@langchain/langgraph").OverwriteValue<string | null | undefined> | null | undefined;
    result?: Record<string, unknown> | null | undefined;
    work?: Span[] | import("@langchain/langgraph").OverwriteValue<[number, number][] | null | undefined> | null | undefined;
}, "__start__", import("@langchain/langgraph/zod").InteropZodToStateDefinition<z.ZodObject<{
    inputs: z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>;
    answers: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    records: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    approved: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    gates: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    feedback: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    halted: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodString>>, z.ZodType<string | null, string | null | undefined, z.core.$ZodTypeInternals<string | null, string | null | undefined>>>;
    status: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodString>>, z.ZodType<string | null, string | null | undefined, z.core.$ZodTypeInternals<string | null, string | null | undefined>>>;
    result: z.ZodDefault<z.ZodNullable<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>>;
    work: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodArray<z.ZodTuple<[z.ZodNumber, z.ZodNumber], null>>>>, z.ZodType<Span[], Span[] | null | undefined, z.core.$ZodTypeInternals<Span[], Span[] | null | undefined>>>;
}, z.core.$strip>, {
    inputs: z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>;
    answers: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    records: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    approved: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    gates: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    feedback: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    halted: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodString>>, z.ZodType<string | null, string | null | undefined, z.core.$ZodTypeInternals<string | null, string | null | undefined>>>;
    status: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodString>>, z.ZodType<string | null, string | null | undefined, z.core.$ZodTypeInternals<string | null, string | null | undefined>>>;
    result: z.ZodDefault<z.ZodNullable<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>>;
    work: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodArray<z.ZodTuple<[z.ZodNumber, z.ZodNumber], null>>>>, z.ZodType<Span[], Span[] | null | undefined, z.core.$ZodTypeInternals<Span[], Span[] | null | undefined>>>;
}>, import("@langchain/langgraph/zod").InteropZodToStateDefinition<z.ZodObject<{
    inputs: z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>;
    answers: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    records: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    approved: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    gates: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    feedback: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    halted: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodString>>, z.ZodType<string | null, string | null | undefined, z.core.$ZodTypeInternals<string | null, string | null | undefined>>>;
    status: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodString>>, z.ZodType<string | null, string | null | undefined, z.core.$ZodTypeInternals<string | null, string | null | undefined>>>;
    result: z.ZodDefault<z.ZodNullable<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>>;
    work: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodArray<z.ZodTuple<[z.ZodNumber, z.ZodNumber], null>>>>, z.ZodType<Span[], Span[] | null | undefined, z.core.$ZodTypeInternals<Span[], Span[] | null | undefined>>>;
}, z.core.$strip>, {
    inputs: z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>;
    answers: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    records: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    approved: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    gates: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    feedback: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>, z.ZodType<{}, Record<string, unknown> | null | undefined, z.core.$ZodTypeInternals<{}, Record<string, unknown> | null | undefined>>>;
    halted: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodString>>, z.ZodType<string | null, string | null | undefined, z.core.$ZodTypeInternals<string | null, string | null | undefined>>>;
    status: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodString>>, z.ZodType<string | null, string | null | undefined, z.core.$ZodTypeInternals<string | null, string | null | undefined>>>;
    result: z.ZodDefault<z.ZodNullable<z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodUnknown>>>>;
    work: import("@langchain/langgraph/zod").ReducedZodChannel<z.ZodDefault<z.ZodNullable<z.ZodArray<z.ZodTuple<[z.ZodNumber, z.ZodNumber], null>>>>, z.ZodType<Span[], Span[] | null | undefined, z.core.$ZodTypeInternals<Span[], Span[] | null | undefined>>>;
}>, import("@langchain/langgraph").StateDefinition, unknown, unknown, unknown, readonly (() => import("@langchain/langgraph").StreamTransformer<any>)[]>;
export {};
