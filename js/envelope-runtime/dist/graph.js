import { HumanMessage } from "@langchain/core/messages";
import { Command, END, interrupt, isGraphBubbleUp, START, StateGraph } from "@langchain/langgraph";
import { registry } from "@langchain/langgraph/zod";
import { randomUUID } from "node:crypto";
import { createAgent, createMiddleware, tool } from "langchain";
import { z } from "zod";
import * as gates from "./gates.js";
import { connectionTools, openMcpTools } from "./connections.js";
import { httpRequestTool } from "./http-tool.js";
import { overrideProblems } from "./model-env.js";
import { chooseModel, contextProblems, createChatModel, missingProviderKeys } from "./models.js";
import { placeholderValues, render, taskJson } from "./placeholders.js";
import { redact, redactValue, secretValues } from "./redaction.js";
import { triggerText } from "./run-context.js";
import { workspaceTools } from "./workspace.js";
import { openWorkspaceStore } from "./workspace-store.js";
export const stepNode = (key) => `step_${key}`;
export const gateNode = (name) => `gate_${name}`;
export const releasedNode = (name) => `released_${name}`;
export const escalateNode = (name) => `escalate_${name}`;
const merge = (a, b) => (b === null || b === undefined ? {} : { ...(a ?? {}), ...b });
const firstReason = (a, b) => (b === null ? null : (a ?? b ?? null));
const settle = (a, b) => (b === null ? null : a === "halted" ? "halted" : (b ?? a ?? null));
const record = () => z.record(z.string(), z.unknown()).nullable();
/** `work`: the union of the nodes' spans (parallel nodes' time counted once, as in Python's add_spans). */
const addSpans = (a, b) => {
    if (b === null)
        return [];
    const merged = [];
    for (const [from, to] of [...(a ?? []), ...(b ?? [])].sort((x, y) => x[0] - y[0])) {
        const last = merged.at(-1);
        if (last && from <= last[1])
            last[1] = Math.max(last[1], to);
        else
            merged.push([from, to]);
    }
    return merged;
};
/** The milliseconds of model work a run's spans add up to (its timeout.runMs budget is spent by them). */
export const workedMs = (spans) => (spans ?? []).reduce((sum, [from, to]) => sum + Math.max(0, to - from), 0);
/** Why a run halts once its model work reached timeout.runMs (the runner exits 124 on it). */
export const deadlineMessage = (runTimeoutMs) => `the team did not finish within ${runTimeoutMs} ms of work (timeout.runMs, counted across a run and its resumes); no further model calls are made`;
/** The run's own state fields (every run starts them afresh in `prepare`). */
export const RUN_FIELDS = {
    inputs: record().default({}),
    answers: record().default({}).register(registry, { reducer: { fn: merge }, default: () => ({}) }),
    records: record().default({}).register(registry, { reducer: { fn: merge }, default: () => ({}) }),
    approved: record().default({}).register(registry, { reducer: { fn: merge }, default: () => ({}) }),
    gates: record().default({}).register(registry, { reducer: { fn: merge }, default: () => ({}) }),
    feedback: record().default({}).register(registry, { reducer: { fn: merge }, default: () => ({}) }),
    halted: z.string().nullable().default(null).register(registry, { reducer: { fn: firstReason }, default: () => null }),
    status: z.string().nullable().default(null).register(registry, { reducer: { fn: settle }, default: () => null }),
    result: record().nullable().default(null),
    // The [start, end] ms of each model-calling node's work: timeout.runMs counted across a
    // run and its resumes wherever the graph runs (the Agent Server too), a reviewer's time not.
    work: z.array(z.tuple([z.number(), z.number()])).nullable().default([]).register(registry, { reducer: { fn: addSpans }, default: () => [] }),
};
/** The graph's output: the same three keys for every run. */
export function outputSchema(result) {
    return z.object({
        status: z.enum(["done", "halted", "waiting"]).nullable().describe("done (result set), halted (why in halted), waiting (a gate waits for review)"),
        halted: z.string().nullable().describe("why the run halted"),
        result: result.nullable().describe("the team's outputs by key"),
    });
}
/** A run's refusal before any model call: every problem at once. */
export class RunProblems extends Error {
    problems;
    constructor(problems) {
        super(problems.join("\n"));
        this.problems = problems;
        this.name = "RunProblems";
    }
}
function typeOk(type, value) {
    switch (type) {
        case "string":
            return typeof value === "string";
        case "number":
            return typeof value === "number" && Number.isFinite(value);
        case "boolean":
            return typeof value === "boolean";
        case "array":
            return Array.isArray(value);
        default:
            return value !== null && typeof value === "object" && !Array.isArray(value);
    }
}
/** The run's inputs by key from the graph's channels: checked (type, enum, required), defaults applied. */
export function resolveInputs(team, state) {
    const problems = [];
    const out = {};
    for (const input of team.inputs) {
        const value = state[input.channel];
        if (value === undefined || value === null) {
            if (input.hasDefault)
                out[input.key] = input.default;
            else if (input.required)
                problems.push(`input ${input.key}: required`);
            continue;
        }
        if (!typeOk(input.type, value))
            problems.push(`input ${input.key}: expected ${input.type}, got ${typeof value === "string" ? gates.quoted(value) : gates.cut(JSON.stringify(value))}`);
        else if (input.enum && !input.enum.includes(String(value)))
            problems.push(`input ${input.key}: ${gates.quoted(String(value))} is not one of ${input.enum.map((e) => JSON.stringify(e)).join(", ")}`);
        else
            out[input.key] = value;
    }
    if (problems.length)
        throw new RunProblems(problems);
    return out;
}
/** Everything that would fail the run, found before any model call. */
export function runProblems(team, context, env, checkProviderKeys, packSecrets = []) {
    const problems = [...contextProblems(team.agents, context), ...overrideProblems(team.agents.map((a) => a.key), env)];
    const missing = [...new Set([...team.secrets, ...team.variables, ...packSecrets])].filter((name) => !(env[name] ?? "").trim());
    if (missing.length)
        problems.push(`missing environment variables: ${missing.join(", ")} (see .env.example)`);
    if (checkProviderKeys && problems.length === 0) {
        const keys = missingProviderKeys(team.agents.map((a) => chooseModel(a, context, env)), env);
        if (keys.length)
            problems.push(`missing provider keys: ${keys.join(", ")}`);
    }
    return problems;
}
/** The text of a message's content. */
export function textOf(message) {
    if (!message)
        return "";
    const content = message.content;
    if (typeof content === "string")
        return content;
    return content.map((p) => (typeof p === "string" ? p : "text" in p && typeof p.text === "string" ? p.text : "")).join("");
}
/** The JSON object an answer holds (a ```json fence, or its outermost braces). */
export function jsonIn(text) {
    const fenced = /```(?:json)?\s*\n([\s\S]*?)\n?```/.exec(text);
    const body = fenced ? fenced[1] : text;
    const start = body.indexOf("{");
    const end = body.lastIndexOf("}");
    if (start < 0 || end < start)
        throw new Error("the answer holds no JSON object");
    return JSON.parse(body.slice(start, end + 1));
}
const contextOf = (config) => (config?.context ?? {});
/**
 * An answer whose id repeats one already in its conversation gets a fresh id. @langchain/openai
 * names an answer by the response's id, and the agent's message list replaces a message of the
 * same id: an OpenAI-compatible server that answers every call with one id (some do) would
 * overwrite the agent's earlier tool calls and lose the conversation.
 */
const UNIQUE_MESSAGE_IDS = createMiddleware({
    name: "EnvelopeUniqueMessageIds",
    wrapModelCall: async (request, handler) => {
        const answer = await handler(request);
        if (answer instanceof Command)
            return answer;
        if (answer.id !== undefined && request.messages.some((m) => m.id === answer.id))
            answer.id = `${answer.id}-${randomUUID()}`;
        return answer;
    },
});
/** The graph's state: one channel per team input (as the input schema names it), then the run's own fields. */
export function teamState(team) {
    const inputFields = Object.fromEntries(team.inputs.map((i) => [i.channel, z.unknown().optional()]));
    return z.object({ ...inputFields, ...RUN_FIELDS });
}
/**
 * The team's edges, in the order graph.ts adds them: START to `prepare`; each step from what it
 * waits for (the steps it takes answers from, the gates before it; none: `prepare`), or
 * `team` for a hierarchy; `finalize` from every last node (a step nothing waits for, a gate
 * no step waits for); `finalize` to END. Gates route themselves (Command).
 */
export function teamEdges(team) {
    const edges = [[START, "prepare"]];
    if (team.mode === "hierarchy")
        edges.push(["prepare", "team"], ["team", "finalize"]);
    else {
        const sinks = [];
        for (const spec of team.gates)
            if (!team.steps.some((s) => s.gatesBefore.includes(spec.name)))
                sinks.push(releasedNode(spec.name));
        for (const step of team.steps) {
            const waits = [...step.answersFrom.map(stepNode), ...step.gatesBefore.map(releasedNode)];
            edges.push([waits.length === 0 ? "prepare" : waits.length === 1 ? waits[0] : waits, stepNode(step.key)]);
            if (!step.gatesAfter.length && !team.steps.some((s) => s.answersFrom.includes(step.key)))
                sinks.push(stepNode(step.key));
        }
        edges.push([sinks.length === 1 ? sinks[0] : sinks, "finalize"]);
    }
    edges.push(["finalize", END]);
    return edges;
}
/**
 * The node functions of a team's graph, which an export's graph.ts wires with addNode (and
 * buildTeamGraph alike): `prepare`, `team` (a hierarchy), `step(key)`, `gate(name)`,
 * `escalate(name)`, `released(name)`, `finalize`; the `…Options` give the nodes a gate or an
 * escalation may route to (Command goto), for the drawn graph.
 */
export class TeamNodes {
    runtime;
    constructor(team, schemas, options = {}) {
        this.runtime = team instanceof TeamRuntime ? team : new TeamRuntime(team, schemas, options);
    }
    /** Context, environment and inputs checked before any model call; the run's fields started afresh. */
    prepare = (s, config) => this.runtime.prepare(s, config);
    /** The team's result, from the final step's (or the hierarchy's) answer. */
    finalize = (s) => this.runtime.finalize(s);
    /** A hierarchy: the entry agent, asking its reports as tools. */
    team = (s, config) => this.runtime.teamNode(s, config);
    stepSpec(key) {
        const step = this.runtime.team.steps.find((s) => s.key === key);
        if (!step)
            throw new Error(`no step ${JSON.stringify(key)} in the team`);
        return step;
    }
    gateSpec(name) {
        const spec = this.runtime.team.gates.find((g) => g.name === name);
        if (!spec)
            throw new Error(`no gate ${JSON.stringify(name)} in the team`);
        return spec;
    }
    /** A pipeline step: its agent's answer (records, for a gated step). */
    step(key) {
        const step = this.stepSpec(key);
        return (s, config) => this.runtime.stepNodeFn(step, s, config);
    }
    stepOptions(key) {
        const after = this.stepSpec(key).gatesAfter.map(gateNode);
        return after.length ? { ends: after } : {};
    }
    /** A review gate: pauses with interrupt() until its records are decided. */
    gate(name) {
        const spec = this.gateSpec(name);
        return (s, config) => this.runtime.gateNodeFn(spec, s, config);
    }
    gateOptions(name) {
        const spec = this.gateSpec(name);
        return { ends: [gateNode(name), releasedNode(name), END, ...(spec.onReject === "rerun" ? [stepNode(spec.afterStep)] : []), ...(this.escalates(name) ? [escalateNode(name)] : [])] };
    }
    /** Whether the gate has an escalation node (onReject or its timeout escalates). */
    escalates(name) {
        const spec = this.gateSpec(name);
        return spec.onReject === "escalate" || spec.timeout?.behaviour === "escalate";
    }
    /** A gate's escalation: the escalation agent decides what the reviewers did not. */
    escalate(name) {
        const spec = this.gateSpec(name);
        return (s, config) => this.runtime.escalateNodeFn(spec, s, config);
    }
    escalateOptions(name) {
        this.gateSpec(name);
        return { ends: [gateNode(name), END] };
    }
    /** A gate's approved records, released to the steps that wait for it. */
    released(name) {
        const spec = this.gateSpec(name);
        return (s) => ({ approved: { [spec.name]: gates.releasedText(spec, s.gates[spec.name]) } });
    }
}
export class TeamRuntime {
    team;
    schemas;
    options;
    agents;
    gateSpecs;
    steps;
    env;
    constructor(team, schemas, options = {}) {
        this.team = team;
        this.schemas = schemas;
        this.options = options;
        this.env = options.env ?? process.env;
        this.agents = new Map(team.agents.map((a) => [a.key, a]));
        this.gateSpecs = new Map(team.gates.map((g) => [g.name, g]));
        this.steps = new Map(team.steps.map((s) => [s.key, s]));
    }
    now() {
        return this.options.now ? this.options.now() : new Date();
    }
    secrets() {
        return secretValues(this.team.secrets, this.env);
    }
    /** The agent's system prompt for a run: `{{NAME}}` from secrets, variables and the run's inputs (as the Python targets' prompts.py). */
    systemPrompt(agent, inputs) {
        const values = placeholderValues([...this.team.secrets, ...this.team.variables], this.env, inputs, this.team.inputs.map((i) => i.key));
        return render(agent.prompt, values);
    }
    async model(agent, config, task) {
        const choice = chooseModel(agent, contextOf(config), this.env);
        return this.options.modelFor ? this.options.modelFor(agent.key, choice, task) : createChatModel(choice, this.env);
    }
    /** What the agent's pack tools read: its policy, the team's secrets and variables, the transport. */
    packOptions(agent, policy) {
        return { agentKey: agent.key, policy, names: [...this.team.secrets, ...this.team.variables], env: this.env, timeoutMs: agent.timeoutMs, ...(this.options.fetch ? { fetch: this.options.fetch } : {}) };
    }
    /** The agent's tools: http_request with egress, its OpenAPI packs' tools; in a hierarchy, ask_<report> per report (its MCP servers' tools are listed by converse). */
    tools(agent, inputs, config, withReports) {
        const out = [];
        if (agent.policy)
            out.push(httpRequestTool({ policy: agent.policy, variables: this.team.variables, secrets: this.team.secrets, env: this.env, timeoutMs: agent.timeoutMs, ...(this.options.fetch ? { fetch: this.options.fetch } : {}) }));
        // A pack goes only to an agent with a policy (envelope-export refuses it otherwise).
        if (agent.policy)
            out.push(...connectionTools(this.options.connections, this.packOptions(agent, agent.policy)));
        // The workspace's documents it has: on the graph's store (a server's own), else the runner's.
        if (this.team.workspace?.length)
            out.push(...workspaceTools(this.team.workspace, agent.key, () => this.workspaceStore(config)));
        if (withReports) {
            for (const key of agent.reports) {
                const report = this.agents.get(key);
                const ask = tool(async ({ task }) => {
                    const messages = await this.converse(report, task, inputs, config, `ask:${report.key}`, true);
                    return redact(textOf(messages.at(-1)), this.secrets());
                }, {
                    name: `ask_${key.replace(/[^A-Za-z0-9_]/g, "_")}`,
                    // As the Python targets describe a report (capabilities included: nothing else reads them).
                    description: `Delegate a task to your report ${report.name}: ${report.title} (${report.role}).${report.capabilities.length ? ` Capabilities: ${report.capabilities.join(", ")}.` : ""} Returns the answer.`.slice(0, 1000),
                    schema: z.object({ task: z.string().describe("The task, with everything needed to do it: they cannot see your conversation.") }),
                });
                out.push(ask);
            }
        }
        return out;
    }
    /** The store of the graph this runs in (a node's config holds the compiled one, or the server's), else the runner's file store (a graph compiled without one). */
    workspaceStore(config) {
        return config?.store ?? (this.fileStore ??= openWorkspaceStore(this.env));
    }
    fileStore;
    /** One conversation of an agent on a task (createAgent: its model, tools and rendered prompt). */
    async converse(agent, task, inputs, config, label, withReports, history = []) {
        const prompt = this.systemPrompt(agent, inputs);
        const model = await this.model(agent, config, label);
        // Its MCP servers' tools, listed for this conversation (never when the graph is built).
        const mcp = agent.policy ? await openMcpTools(this.options.connections, this.packOptions(agent, agent.policy)) : { tools: [], close: async () => { } };
        const runnable = createAgent({
            model,
            tools: [...this.tools(agent, inputs, config, withReports), ...mcp.tools],
            ...(prompt ? { systemPrompt: prompt } : {}),
            name: agent.key,
            middleware: [UNIQUE_MESSAGE_IDS],
            // Not the run's checkpointer: a graph invoked in a node would be checkpointed as its
            // subgraph, keeping the conversation (answers before redaction, tool results) in the
            // run's checkpoints. The node's own update is what the run keeps.
            checkpointer: false,
        });
        const messages = history.length ? history : [new HumanMessage(task)];
        try {
            const result = await runnable.invoke({ messages }, { recursionLimit: this.team.recursionLimit, metadata: { envelope_task: label }, ...(config?.callbacks ? { callbacks: config.callbacks } : {}), ...(config?.signal ? { signal: config.signal } : {}) });
            return result.messages;
        }
        catch (error) {
            // A provider's error ("Connection error.", a 401) names no agent: say whose call failed.
            if (isGraphBubbleUp(error) || config?.signal?.aborted)
                throw error;
            // Its text can echo the prompt with a secret filled in: redacted before anyone prints or
            // stores it. Not kept as `cause`, which a log's util.inspect prints whole.
            throw new Error(`agent ${agent.key} (${label}): ${redact(error instanceof Error ? error.message : String(error), this.secrets())}`);
        }
        finally {
            await mcp.close();
        }
    }
    /** An answer that must be JSON of `schema`: asked once more, in the same conversation, when it is not. */
    async structured(agent, task, schema, inputs, config, label) {
        const instructions = `${task}\n\nFinish with only a JSON object matching this JSON schema:\n${JSON.stringify(z.toJSONSchema(schema))}`;
        let messages = await this.converse(agent, instructions, inputs, config, label, this.team.mode === "hierarchy");
        let problem = "";
        for (let attempt = 0; attempt < 2; attempt++) {
            try {
                return schema.parse(jsonIn(textOf(messages.at(-1))));
            }
            catch (error) {
                problem = error instanceof Error ? error.message : String(error);
                if (attempt === 1)
                    break;
                messages = await this.converse(agent, instructions, inputs, config, label, this.team.mode === "hierarchy", [...messages, new HumanMessage(`That answer is not the JSON object asked for (${problem.slice(0, 1000)}). Answer again with only the JSON object.`)]);
            }
        }
        throw new Error(`agent ${agent.key} (${label}): no valid JSON answer after 2 attempts: ${problem.slice(0, 1000)}`);
    }
    recordsSchema(gated) {
        const fields = [...new Set(gated.flatMap((g) => g.fields))];
        const row = fields.length ? z.object(Object.fromEntries(fields.map((f) => [f, z.unknown()]))).catchall(z.unknown()) : z.record(z.string(), z.unknown());
        return z.object({ records: z.array(row) });
    }
    stepTask(step, state) {
        const parts = [`Task: ${step.label ?? step.key}`, `Team: ${this.team.name}. ${this.team.description}`, `Run inputs (JSON):\n${taskJson(state.inputs)}${triggerText()}`];
        for (const dep of step.answersFrom)
            parts.push(`Output of step ${dep} (${this.steps.get(dep)?.label ?? dep}):\n${String(state.answers[dep] ?? "")}`);
        for (const gate of step.gatesBefore)
            parts.push(String(state.approved[gate] ?? ""));
        for (const g of step.gatesAfter) {
            const feedback = state.feedback[g];
            if (typeof feedback === "string" && feedback)
                parts.push(`The reviewers at gate ${g} rejected these records of your last answer, with their feedback (JSON):\n${feedback}`);
        }
        return parts.join("\n\n");
    }
    /** The team's StateGraph, compiled (`checkpointer`, `store`: the runner's; none under the Agent Server, which brings its own). An export's graph.ts writes the same wiring out, node by node. */
    build(compileOptions = {}) {
        const team = this.team;
        const nodes = new TeamNodes(this);
        // The StateGraph's generics follow the schemas; this module builds graphs of any team.
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const graph = new StateGraph({ state: teamState(team), input: this.schemas.input, output: outputSchema(this.schemas.result), context: this.schemas.context });
        graph.addNode("prepare", nodes.prepare);
        if (team.mode === "hierarchy")
            graph.addNode("team", nodes.team);
        else {
            // Every node first: an edge may name a gate's node that a later step's gate adds.
            for (const step of team.steps)
                graph.addNode(stepNode(step.key), nodes.step(step.key), nodes.stepOptions(step.key));
            for (const spec of team.gates) {
                graph.addNode(gateNode(spec.name), nodes.gate(spec.name), nodes.gateOptions(spec.name));
                if (nodes.escalates(spec.name))
                    graph.addNode(escalateNode(spec.name), nodes.escalate(spec.name), nodes.escalateOptions(spec.name));
                graph.addNode(releasedNode(spec.name), nodes.released(spec.name));
            }
        }
        graph.addNode("finalize", nodes.finalize);
        for (const [from, to] of teamEdges(team))
            graph.addEdge(from, to);
        return graph.compile({ ...compileOptions, name: team.slug });
    }
    async prepare(s, config) {
        const problems = runProblems(this.team, contextOf(config), this.env, !this.options.modelFor, this.options.connections?.secrets);
        if (problems.length)
            throw new RunProblems(problems);
        const inputs = resolveInputs(this.team, s);
        // A new run on a thread that ran before starts afresh: null empties each reducer's field,
        // and each input's channel once read (the run keeps `inputs`), so that the next run's
        // input not naming it gets its default, not this run's value (a channel keeps its last).
        const channels = Object.fromEntries(this.team.inputs.map((i) => [i.channel, null]));
        return { ...channels, inputs, answers: null, records: null, approved: null, gates: null, feedback: null, halted: null, status: null, result: null, work: null };
    }
    checkRun(config) {
        const problems = runProblems(this.team, contextOf(config), this.env, !this.options.modelFor, this.options.connections?.secrets);
        if (problems.length)
            throw new RunProblems(problems);
    }
    /**
     * A model-calling node's work within what is left of timeout.runMs (the state's `work`
     * spans), its own span added; past the deadline the run halts, as in the Python targets.
     */
    async bounded(s, config, work) {
        const halt = (spans) => ({ halted: deadlineMessage(this.team.runTimeoutMs), status: "halted", work: spans });
        const left = this.team.runTimeoutMs - workedMs(s.work);
        if (left <= 0)
            return halt([]);
        // A controller whose timer and listener go with the node: AbortSignal.timeout with
        // AbortSignal.any kept every node's signal (and what listens to it) until runMs passed.
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(new DOMException(deadlineMessage(this.team.runTimeoutMs), "TimeoutError")), Math.ceil(left));
        const parent = config?.signal;
        const follow = () => controller.abort(parent?.reason);
        if (parent?.aborted)
            follow();
        else
            parent?.addEventListener("abort", follow, { once: true });
        // The span's length from the monotonic clock: a wall-clock jump mid-node counts nothing.
        const started = Date.now();
        const since = performance.now();
        const span = () => [[started, started + (performance.now() - since)]];
        let outcome;
        try {
            outcome = await work({ ...config, signal: controller.signal });
        }
        catch (error) {
            if (controller.signal.aborted && !parent?.aborted && !isGraphBubbleUp(error))
                return halt(span());
            throw error;
        }
        finally {
            clearTimeout(timer);
            parent?.removeEventListener("abort", follow);
        }
        if (outcome instanceof Command)
            return new Command({ update: { ...outcome.update, work: span() }, goto: outcome.goto });
        return { ...outcome, work: span() };
    }
    async stepNodeFn(step, s, config) {
        if (s.halted)
            return {};
        this.checkRun(config);
        return this.bounded(s, config, (bounded) => this.step(step, s, bounded));
    }
    async step(step, s, config) {
        const agent = this.agents.get(step.agent);
        const task = this.stepTask(step, s);
        const secrets = this.secrets();
        const gated = step.gatesAfter.map((g) => this.gateSpecs.get(g));
        if (step.key === this.team.finalStep && gated.length === 0) {
            const answer = await this.structured(agent, task, this.schemas.result, s.inputs, config, step.key);
            return { answers: { [step.key]: redactValue(answer, secrets) } };
        }
        if (gated.length) {
            const { records } = await this.structured(agent, `${task}\n\nYour answer is reviewed record by record at ${gated.map((g) => `gate ${g.name} (fields: ${g.fields.join(", ")})`).join("; ")}.`, this.recordsSchema(gated), s.inputs, config, step.key);
            const rows = redactValue(records, secrets);
            // A rerun goes back to the gate that sent it back; the first run to every gate.
            const rejecting = step.gatesAfter.filter((g) => s.gates[g]?.status === "open" && s.gates[g].round > 0);
            const goto = (rejecting.length ? rejecting : step.gatesAfter).map(gateNode);
            return new Command({ update: { records: { [step.key]: rows }, answers: { [step.key]: taskJson(rows) } }, goto });
        }
        const messages = await this.converse(agent, task, s.inputs, config, step.key, false);
        return { answers: { [step.key]: redact(textOf(messages.at(-1)), secrets) } };
    }
    payload(spec, g) {
        const deadline = spec.timeout && g.waitingSince ? new Date(Date.parse(g.waitingSince) + spec.timeout.afterMs).toISOString() : null;
        return {
            gate: spec.name,
            type: spec.type,
            step: spec.afterStep,
            triggers: spec.triggersStep,
            round: g.round,
            trigger: spec.trigger,
            threshold: spec.thresholdCount,
            records: gates.undecided(g).map((r) => ({ id: r.id, fields: Object.fromEntries(spec.fields.map((f) => [f, r.data[f] ?? null])) })),
            actions: spec.actions.map((a) => ({ label: a.label, verb: a.verb })),
            waiting_since: g.waitingSince,
            deadline,
            problems: g.problems,
        };
    }
    async gateNodeFn(spec, s, _config) {
        const self = gateNode(spec.name);
        if (s.halted)
            return new Command({ goto: END });
        let g = s.gates[spec.name] ?? gates.newGateState();
        const update = (next, goto, extra = {}) => new Command({ update: { gates: { [spec.name]: next }, ...extra }, goto });
        if (g.round === 0 || g.status === "open") {
            const rows = s.records[spec.afterStep] ?? [];
            g = gates.addRound(g, rows);
            return update({ ...g, status: "waiting", waitingSince: this.now().toISOString() }, self, { status: "waiting" });
        }
        const now = this.now();
        if (gates.timedOut(spec, g, now)) {
            const behaviour = spec.timeout.behaviour;
            if (behaviour === "proceed")
                return update(gates.proceed(spec, g, now), releasedNode(spec.name));
            if (behaviour === "escalate") {
                const message = `gate ${spec.name}: no decision within ${spec.timeout.after} (escalate)`;
                const own = this.selfEscalation(spec);
                if (!own)
                    return update({ ...g, message }, escalateNode(spec.name));
                const why = `${message}; ${own}`;
                return update({ ...g, status: "halted", message: why }, END, { halted: why, status: "halted" });
            }
            const why = `gate ${spec.name}: no decision within ${spec.timeout.after} (halt)`;
            return update({ ...g, status: "halted", message: why }, END, { halted: why, status: "halted" });
        }
        let [outcome, why] = gates.evaluate(spec, g);
        const secrets = this.secrets();
        if (outcome === "waiting") {
            const value = interrupt(this.payload(spec, g));
            // What a reviewer wrote (feedback, a refused value quoted back) is stored: secrets out first.
            const read = gates.readResume(value, spec.name);
            if ("problem" in read)
                return update({ ...g, problems: [redact(read.problem, secrets)] }, self);
            const items = read.items.map((i) => ({ ...i, feedback: redact(i.feedback ?? "", secrets) }));
            const applied = gates.applyDecisions(spec, g, items, now, "reviewer");
            if (applied.problems.length)
                return update({ ...g, problems: applied.problems.map((p) => redact(p, secrets)) }, self);
            g = { ...applied.gate, problems: [] };
            [outcome, why] = gates.evaluate(spec, g);
        }
        const own = outcome === "revise" && spec.onReject === "escalate" ? this.selfEscalation(spec) : null;
        if (own)
            [outcome, why] = ["halted", `${why}; ${own}`];
        switch (outcome) {
            case "released":
                return update({ ...g, status: "released", message: why }, releasedNode(spec.name));
            case "waiting":
                return update(g, self);
            case "revise": {
                const rejected = gates.current(g).filter((r) => r.decision === "reject").map((r) => ({ id: r.id, ...r.data, feedback: r.feedback }));
                const feedback = redact(taskJson(rejected), secrets);
                const next = { ...g, status: "open", message: why };
                return update(next, spec.onReject === "rerun" ? stepNode(spec.afterStep) : escalateNode(spec.name), { feedback: { [spec.name]: feedback } });
            }
            default:
                return update({ ...g, status: "halted", message: why }, END, { halted: why, status: "halted" });
        }
    }
    /** Why the gate halts instead of escalating: the escalation would go to its step's own agent (gates.selfEscalation). */
    selfEscalation(spec) {
        const agent = this.steps.get(spec.afterStep).agent;
        return gates.selfEscalation(spec.afterStep, agent, this.agents.get(agent).reportsTo ?? this.team.entryAgent);
    }
    /** The escalation manager (the step agent's manager, else the entry agent) revises rejected records or decides undecided ones; never the step's own agent (selfEscalation halts the gate first). */
    async escalateNodeFn(spec, s, config) {
        if (s.halted)
            return new Command({ goto: END });
        this.checkRun(config);
        const outcome = await this.bounded(s, config, (bounded) => this.escalate(spec, s, bounded));
        // Halted on the deadline: nothing more of the gate runs.
        return outcome instanceof Command ? outcome : new Command({ update: outcome, goto: END });
    }
    async escalate(spec, s, config) {
        const step = this.steps.get(spec.afterStep);
        const worker = this.agents.get(step.agent);
        const manager = this.agents.get(worker.reportsTo ?? this.team.entryAgent);
        let g = s.gates[spec.name];
        const context = `Step ${step.key} worked from:\n${this.stepTask(step, s)}`;
        if (g.status === "open") {
            const rejected = gates.current(g).filter((r) => r.decision === "reject").map((r) => ({ id: r.id, feedback: r.feedback, ...r.data }));
            const task = `Reviewers at gate ${spec.name} rejected these records of step ${step.key} (JSON):\n${taskJson(rejected)}\n\n${context}\n\nWrite revised records.`;
            const { records } = await this.structured(manager, task, this.recordsSchema([spec]), s.inputs, config, `revise:${spec.name}`);
            g = gates.addRound(g, redactValue(records, this.secrets()));
            return new Command({ update: { gates: { [spec.name]: { ...g, status: "waiting", waitingSince: this.now().toISOString() } } }, goto: gateNode(spec.name) });
        }
        const pending = gates.undecided(g).map((r) => ({ id: r.id, ...r.data }));
        const schema = z.object({ decisions: z.array(z.object({ record: z.string(), action: z.enum(["approve", "skip", "reject"]), feedback: z.string().default("") })) });
        const task = `Nobody reviewed these records of step ${step.key} at gate ${spec.name} in time; decide each one (approve, skip or reject) (JSON):\n${taskJson(pending)}\n\n${context}`;
        const { decisions } = await this.structured(manager, task, schema, s.inputs, config, `escalate:${spec.name}`);
        const now = this.now();
        // Applied all or none, as a reviewer's are: a decision the gate refuses (a record of an
        // earlier round) fails the node, as in the Python targets, rather than every other one
        // of the manager's decisions being dropped and its records skipped.
        const decided = gates.applyDecisions(spec, g, decisions, now, `agent:${manager.key}`, true);
        if (decided.problems.length)
            throw new gates.GateDecisionError(decided.problems);
        g = decided.gate;
        g = gates.applyDecisions(spec, g, gates.undecided(g).map((r) => ({ record: r.id, action: "skip" })), now, "timeout", true).gate;
        // Every record is decided now: the gate routes it as it routes reviewers' decisions (a
        // rejection reruns the step or escalates again, as onReject says), as the Python targets do.
        return new Command({ update: { gates: { [spec.name]: { ...g, waitingSince: null } } }, goto: gateNode(spec.name) });
    }
    async teamNode(s, config) {
        if (s.halted)
            return {};
        this.checkRun(config);
        return this.bounded(s, config, (bounded) => this.team_(s, bounded));
    }
    async team_(s, config) {
        const entry = this.agents.get(this.team.entryAgent);
        const task = `Team: ${this.team.name}. ${this.team.description}\n\nRun inputs (JSON):\n${taskJson(s.inputs)}${triggerText()}\n\nAsk your reports (your ask_ tools) for what they know, then give the team's result.`;
        const answer = await this.structured(entry, task, this.schemas.result, s.inputs, config, "team");
        return { answers: { team: redactValue(answer, this.secrets()) } };
    }
    finalize(s) {
        if (s.halted)
            return { status: "halted" };
        const key = this.team.mode === "hierarchy" ? "team" : this.team.finalStep;
        const result = this.schemas.result.parse(s.answers[key] ?? {});
        return { result: result, status: "done" };
    }
}
/** The team's compiled graph. */
export function buildTeamGraph(team, schemas, options = {}) {
    const { checkpointer, store, ...rest } = options;
    return new TeamRuntime(team, schemas, rest).build({ ...(checkpointer ? { checkpointer } : {}), ...(store ? { store } : {}) });
}
