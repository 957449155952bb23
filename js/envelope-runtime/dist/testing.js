import { FakeListChatModel } from "@langchain/core/utils/testing";
import { Command } from "@langchain/langgraph";
/** Every record of a review decided with `action` (a label or verb of the gate). */
export const decideAll = (action, feedback = "") => (review) => review.records.map((r) => ({ record: r.id, action, feedback }));
/** Every record of every review approved. */
export const approveAll = decideAll("approve");
/** The graph's nodes as drawn (LangGraph's own __start__/__end__ left out), sorted. */
export function drawnNodes(graph) {
    return Object.keys(graph.getGraph().nodes)
        .filter((n) => !n.startsWith("__"))
        .sort();
}
/** The graph's edges as drawn, `from -> to` (` ?` for a conditional one), sorted. */
export function drawnEdges(graph) {
    return graph
        .getGraph()
        .edges.map((e) => `${e.source} -> ${e.target}${e.conditional ? " ?" : ""}`)
        .sort();
}
/** A value for every secret and variable the team needs: `test-<name in lower case>`. */
export function sampleEnv(team) {
    return Object.fromEntries([...team.secrets, ...team.variables].map((name) => [name, `test-${name.toLowerCase()}`]));
}
/**
 * What each gated step's agent answers: as many records as its gates' largest threshold (at
 * least one), each with every field its gates review (`<field> <n>`).
 */
export function sampleRecords(team) {
    const out = {};
    for (const step of team.steps) {
        const gated = team.gates.filter((g) => step.gatesAfter.includes(g.name));
        if (!gated.length)
            continue;
        const count = Math.max(1, ...gated.map((g) => g.thresholdCount ?? 1));
        const fields = [...new Set(gated.flatMap((g) => g.fields))];
        out[step.key] = { records: Array.from({ length: count }, (_, n) => Object.fromEntries(fields.map((f) => [f, `${f} ${n + 1}`]))) };
    }
    return out;
}
/**
 * A reviewer that lets `gate`'s deadline pass with nobody deciding its first review, once it is
 * the only gate waiting (another gate waiting then would time out with it), and approves
 * every other review.
 */
export function lettingTimeOut(team, gate, clock) {
    const timeout = team.gates.find((g) => g.name === gate)?.timeout;
    if (!timeout)
        throw new Error(`gate ${JSON.stringify(gate)} has no timeout`);
    let late = false;
    return (review, waiting) => {
        if (review.gate !== gate || late)
            return approveAll(review, waiting);
        if (waiting.length > 1)
            return [];
        late = true;
        clock.advance(timeout.afterMs + 1);
        return [];
    };
}
/** A reviewer that rejects every record of `gate`'s first round and approves every other review. */
export function rejectingFirstRound(gate, feedback = "rejected by the test") {
    return (review, waiting) => (review.gate === gate && review.round === 1 ? decideAll("reject", feedback) : approveAll)(review, waiting);
}
/** A clock for gate timeouts that moves only when a test moves it. */
export class TestClock {
    ms;
    constructor(start = "2026-01-01T00:00:00.000Z") {
        this.ms = Date.parse(start);
    }
    now = () => new Date(this.ms);
    advance(ms) {
        this.ms += ms;
    }
}
/**
 * Fake models for a whole team, answering by task: `answers[task]` when given (a string as it
 * is, anything else as JSON); else the hierarchy (`team`) and the final step the result; a
 * gated step, and the manager revising its records (`revise:<gate>`), sampleRecords; the
 * manager deciding for a timed-out gate (`escalate:<gate>`) approves the first round's
 * records; any other task a line of text.
 */
export function fakeTeam(team, result, answers = {}) {
    const records = sampleRecords(team);
    const gateStep = (gate) => team.gates.find((g) => g.name === gate)?.afterStep ?? "";
    const answerFor = (task) => {
        if (Object.hasOwn(answers, task))
            return typeof answers[task] === "string" ? answers[task] : JSON.stringify(answers[task]);
        if (task === "team" || task === team.finalStep)
            return JSON.stringify(result);
        if (task in records)
            return JSON.stringify(records[task]);
        if (task.startsWith("revise:"))
            return JSON.stringify(records[gateStep(task.slice(7))] ?? { records: [] });
        if (task.startsWith("escalate:")) {
            const count = records[gateStep(task.slice(9))]?.records.length ?? 0;
            return JSON.stringify({ decisions: Array.from({ length: count }, (_, i) => ({ record: `r${i + 1}`, action: "approve", feedback: "" })) });
        }
        return `The answer of ${task}.`;
    };
    const tasks = [];
    const clock = new TestClock();
    const env = sampleEnv(team);
    const modelFor = (_agent, _choice, task) => {
        tasks.push(task);
        return new FakeListChatModel({ responses: [answerFor(task)] });
    };
    return { tasks, env, clock, options: { modelFor, env, now: clock.now } };
}
/**
 * Runs `input` on a fresh thread, then resumes every gate that waits with what `reviewer`
 * decides, until no gate waits (at most `maxResumes` times: a reviewer that never decides
 * fails the test instead of looping). `callbacks` see every model call (each agent's task
 * label is its run's metadata `envelope_task`).
 */
export async function runTeam(graph, input, reviewer = approveAll, options = {}) {
    const config = { configurable: { thread_id: options.thread ?? "test" }, ...(options.context ? { context: options.context } : {}), ...(options.callbacks ? { callbacks: options.callbacks } : {}) };
    const max = options.maxResumes ?? 50;
    let output = (await graph.invoke(input, config));
    const reviews = [];
    for (let resumes = 0;; resumes++) {
        const state = await graph.getState(config);
        const pending = state.tasks.flatMap((t) => t.interrupts);
        if (pending.length === 0) {
            const values = (state.values ?? {});
            return { output, reviews, values, gates: (values.gates ?? {}) };
        }
        const asked = pending.map((i) => ({ ...i.value, id: i.id ?? "" }));
        if (resumes >= max)
            throw new Error(`gates still waiting after ${max} resumes: ${asked.map((r) => r.gate).join(", ")}`);
        reviews.push(...asked);
        // Each value names its gate (gates.readResume refuses one that does not).
        const resume = Object.fromEntries(asked.map((review) => [review.id, { gate: review.gate, decisions: reviewer(review, asked) ?? [] }]));
        output = (await graph.invoke(new Command({ resume }), config));
    }
}
