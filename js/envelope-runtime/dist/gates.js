// Human review gates (the definition's `gates`): the same rules as every Envelope target.
// A gate holds the records of its `afterStep`. A person approves, skips or rejects each one;
// `trigger` decides when the gate releases `triggersStep`, which then receives the approved
// records only. `onReject` says what a rejection does and `timeout` bounds the wait. Plain
// logic, no model calls; a gate's state is plain JSON data (it lives in the graph's state).
import { taskJson } from "./placeholders.js";
/** Review rounds per gate; a rerun or escalation starts a new one. */
export const MAX_ROUNDS = 3;
/** The most problems listed for one set of decisions; the rest are counted. */
export const MAX_PROBLEMS = 20;
/** The longest text of what a person gave that a problem quotes. */
export const ECHO_LIMIT = 200;
export const DEFAULT_ACTIONS = [
    { label: "Approve", verb: "approve" },
    { label: "Skip", verb: "skip" },
    { label: "Reject", verb: "reject" },
];
export function newGateState() {
    return { status: "open", round: 0, records: [], waitingSince: null, message: null, problems: [] };
}
export const current = (g) => g.records.filter((r) => r.round === g.round);
export const undecided = (g) => current(g).filter((r) => r.decision === null);
export const approved = (g) => g.records.filter((r) => r.decision === "approve");
/** A new round of records (ids continue across rounds: r1, r2, …). */
export function addRound(g, rows) {
    const start = g.records.length + 1;
    const round = g.round + 1;
    const added = rows.map((data, i) => ({ id: `r${start + i}`, round, data: { ...data }, decision: null, feedback: null, decidedAt: null, decidedBy: null }));
    return { ...g, round, records: [...g.records, ...added], status: "open", waitingSince: null, problems: [] };
}
/** `text` whole when it has at most ECHO_LIMIT characters, else its start and `… (N characters)`. */
export function cut(text) {
    const chars = Array.from(text);
    if (chars.length <= ECHO_LIMIT)
        return text;
    const suffix = `… (${chars.length} characters)`;
    return chars.slice(0, ECHO_LIMIT - suffix.length).join("") + suffix;
}
/** Decisions a gate cannot apply (a manager's naming a record of an earlier round): every problem. */
export class GateDecisionError extends Error {
    problems;
    constructor(problems) {
        super(problems.join("; "));
        this.problems = problems;
        this.name = "GateDecisionError";
    }
}
/** What a person gave, as a problem quotes it. */
export const quoted = (value) => JSON.stringify(cut(typeof value === "string" ? value : String(value)));
function bounded(problems, gate) {
    if (problems.length <= MAX_PROBLEMS)
        return problems;
    return [...problems.slice(0, MAX_PROBLEMS), `gate ${gate}: and ${problems.length - MAX_PROBLEMS} more problems`];
}
export function verbOf(spec, action) {
    const wanted = action.trim().toLowerCase();
    return spec.actions.find((a) => wanted === a.label.toLowerCase() || wanted === a.verb)?.verb;
}
/**
 * Validate every item first; apply them all only if none is wrong. Returns the new state and
 * the problems (the state unchanged when there are any). `system` decisions (a timeout, a
 * manager's escalation) may use approve/skip/reject whatever recordActions offers, and items
 * naming records that do not exist are ignored.
 */
export function applyDecisions(spec, gate, items, now, reviewer, system = false) {
    const byId = new Map(gate.records.map((r) => [r.id, r]));
    const problems = [];
    const planned = [];
    for (const item of items) {
        const action = typeof item.action === "string" ? item.action : "";
        if (!action.trim())
            continue;
        const record = byId.get(String(item.record));
        const sys = action.trim().toLowerCase();
        const verb = system ? (sys === "approve" || sys === "skip" || sys === "reject" ? sys : undefined) : verbOf(spec, action);
        if (record === undefined && system)
            continue;
        if (record === undefined)
            problems.push(`gate ${spec.name}: unknown record ${quoted(item.record)}`);
        else if (record.round !== gate.round)
            problems.push(`gate ${spec.name}: record ${record.id} was reviewed already`);
        else if (verb === undefined) {
            const allowed = spec.actions.map((a) => `${JSON.stringify(a.label)} (${a.verb})`).join(", ");
            problems.push(`gate ${spec.name}: record ${record.id}: unknown action ${quoted(action)}; use one of ${allowed}`);
        }
        else
            planned.push([record.id, verb, typeof item.feedback === "string" ? item.feedback.trim() : ""]);
    }
    if (problems.length > 0)
        return { gate, problems: bounded(problems, spec.name) };
    const records = gate.records.map((r) => ({ ...r }));
    const index = new Map(records.map((r) => [r.id, r]));
    for (const [id, verb, feedback] of planned) {
        const record = index.get(id);
        if (verb === "reset") {
            Object.assign(record, { decision: null, feedback: null, decidedAt: null, decidedBy: null });
            continue;
        }
        Object.assign(record, { decision: verb, feedback: feedback || null, decidedAt: now.toISOString(), decidedBy: reviewer });
    }
    return { gate: { ...gate, records }, problems: [] };
}
export function triggerMet(spec, gate) {
    const count = approved(gate).length;
    if (spec.trigger === "any_approved")
        return count >= 1;
    if (spec.trigger === "threshold")
        return count >= (spec.thresholdCount ?? 1);
    // all_resolved; `scheduled` has no clock in a v1 definition and is treated as all_resolved.
    return gate.records.every((r) => r.decision !== null);
}
/** What the gate does next, from the decisions made so far, and why. */
export function evaluate(spec, gate) {
    const rejected = current(gate).filter((r) => r.decision === "reject");
    if (rejected.length > 0 && spec.onReject === "halt")
        return ["halted", `gate ${spec.name}: rejected ${rejected.map((r) => r.id).join(", ")} (onReject: halt)`];
    const met = triggerMet(spec, gate);
    if (met && (spec.trigger === "any_approved" || spec.trigger === "threshold"))
        return ["released", `gate ${spec.name}: ${approved(gate).length} record(s) approved`];
    const open = undecided(gate);
    if (open.length > 0)
        return ["waiting", `gate ${spec.name}: ${open.length} record(s) to review`];
    const sentBack = rejected.length > 0 && (spec.onReject === "rerun" || spec.onReject === "escalate");
    if (sentBack && gate.round < MAX_ROUNDS)
        return ["revise", `gate ${spec.name}: ${rejected.length} record(s) rejected`];
    if (met)
        return ["released", `gate ${spec.name}: every record resolved`];
    const needed = spec.trigger === "threshold" ? spec.thresholdCount : 1;
    const last = sentBack ? ` after ${MAX_ROUNDS} rounds, the most a gate runs` : "";
    return ["halted", `gate ${spec.name}: not released${last} (${approved(gate).length} approved, ${needed} needed)`];
}
/**
 * Why a gate after `step` halts instead of escalating: its escalation would go to `manager`,
 * the step's own agent (it reports to nobody and is the entry agent), and no agent decides on
 * its own work. Null when the manager is another agent.
 */
export function selfEscalation(step, agent, manager) {
    if (manager !== agent)
        return null;
    return `the escalation would go to ${agent}, the agent of step ${step} itself (it reports to nobody and is the first root), and nobody else can decide: run halted, no agent approves its own work`;
}
/** timeout.behaviour proceed: the undecided records released as if approved by the timeout. */
export function proceed(spec, gate, now) {
    const items = undecided(gate).map((r) => ({ record: r.id, action: "approve" }));
    const { gate: next } = applyDecisions(spec, gate, items, now, "timeout", true);
    return { ...next, status: "released", problems: [], message: `gate ${spec.name}: no decision within ${spec.timeout?.after} (proceed: ${items.length} undecided record(s) released)` };
}
/** Whether a waiting gate has waited longer than its timeout. */
export function timedOut(spec, gate, now) {
    return spec.timeout !== null && gate.status === "waiting" && gate.waitingSince !== null && now.getTime() - Date.parse(gate.waitingSince) > spec.timeout.afterMs;
}
/** How a step is handed a gate's approved records; an empty release says why. */
export function releasedText(spec, gate) {
    const records = approved(gate).map((r) => ({ id: r.id, ...r.data }));
    let text = `Records of step ${spec.afterStep} approved at gate ${spec.name} (JSON):\n${taskJson(records)}`;
    if (records.length === 0)
        text += `\n\nNo record was approved at gate ${spec.name} (${gate.message ?? "nothing was released"}).`;
    return text;
}
/**
 * Read a resume value `{"gate": "<name>", "decisions": [...]}`: the items, or the problem that
 * refuses it whole (nothing applied). The value must name its gate: gates that wait at once
 * all receive a resume value not keyed by interrupt id, and record ids (r1, …) repeat across
 * gates, so a value for one gate would otherwise decide the other's records too.
 */
export function readResume(value, gate) {
    if (value === null || typeof value !== "object" || Array.isArray(value) || !Array.isArray(value.decisions)) {
        return { problem: `gate ${gate}: expected {"gate": ${JSON.stringify(gate)}, "decisions": [{"record": "r1", "action": "approve", "feedback": ""}]}, got ${quoted(JSON.stringify(value) ?? String(value))}` };
    }
    const named = value.gate;
    if (named !== gate) {
        const why = named === undefined ? "does not name its gate" : `is for gate ${quoted(typeof named === "string" ? named : JSON.stringify(named))}`;
        return { problem: `gate ${gate}: the resume value ${why}, nothing applied; resume each waiting gate by its interrupt id with {"gate": ${JSON.stringify(gate)}, "decisions": [...]}` };
    }
    const items = [];
    for (const [i, item] of (value.decisions).entries()) {
        if (item === null || typeof item !== "object" || typeof item.record !== "string") {
            return { problem: `gate ${gate}: decision ${i + 1} is not {"record": "<id>", "action": "<label or verb>"}: ${quoted(JSON.stringify(item) ?? String(item))}` };
        }
        const d = item;
        items.push({ record: d.record, action: typeof d.action === "string" ? d.action : "", feedback: typeof d.feedback === "string" ? d.feedback : "" });
    }
    return { items };
}
