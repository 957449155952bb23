// The command-line runner of an exported team: `run` (inputs as flags or JSON), `resume`
// (a decisions file for the gates that wait), `show` (a thread's state), `sweep` (gates past
// their deadline). Runs are kept by a
// FileSaver in .langgraph_runs/threads/ (ENVELOPE_RUNS_DIR), so a gate waits across restarts.
// Standard output carries one JSON object per command; messages go to standard error, each
// naming what it is about (the flag, the input, the file, the gate). Exit codes are the
// Python targets' runner's.
import { existsSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { Command } from "@langchain/langgraph";
import { FileSaver } from "./checkpoint.js";
import { applyDecisions, readResume } from "./gates.js";
import { resolveInputs, RunProblems } from "./graph.js";
import { redactValue, secretValues } from "./redaction.js";
export const EXIT = { ok: 0, failed: 1, problems: 2, waiting: 3, halted: 4, timeout: 124 };
function usage(team) {
    const flags = team.inputs.map((i) => `  --${i.key} VALUE   ${i.type}${i.required ? ", required" : ""}${i.description ? `: ${i.description}` : ""}`).join("\n");
    return [
        `${team.name} ${team.version}`,
        "",
        "usage: run [--inputs JSON] [--INPUT VALUE ...] [--thread ID] [--model-context JSON]",
        "       resume --thread ID --decisions FILE",
        "       show --thread ID",
        "       sweep   (every waiting thread past a gate's deadline: its timeout applied)",
        "",
        "inputs:",
        flags || "  (none)",
    ].join("\n");
}
const COMMAND_FLAGS = { run: ["inputs", "thread", "model-context"], resume: ["thread", "decisions"], show: ["thread"], sweep: [] };
function parseFlags(argv) {
    const positional = [];
    const flags = new Map();
    const problems = [];
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (arg === "--help" || arg === "-h")
            flags.set("help", "");
        else if (arg.startsWith("--")) {
            const eq = arg.indexOf("=");
            if (eq > 0)
                flags.set(arg.slice(2, eq), arg.slice(eq + 1));
            else if (i + 1 < argv.length && !argv[i + 1].startsWith("--"))
                flags.set(arg.slice(2), argv[++i]);
            else
                problems.push(`${arg}: needs a value`);
        }
        else
            positional.push(arg);
    }
    return { positional, flags, problems };
}
/** JSON of a flag or a file, or a problem naming where it came from. */
function parsed(text, where) {
    try {
        return JSON.parse(text);
    }
    catch (error) {
        throw new RunProblems([`${where}: not JSON (${error.message.split("\n")[0]})`]);
    }
}
function isObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}
/** The graph's input (by channel) from --inputs and one flag per input, checked as `prepare` checks it. */
function inputsOf(team, flags) {
    const problems = [];
    let inputs = {};
    if (flags.has("inputs")) {
        const given = parsed(flags.get("inputs"), "--inputs");
        if (isObject(given))
            inputs = { ...given };
        else
            problems.push(`--inputs: expected a JSON object of inputs by key, got ${JSON.stringify(given)}`);
    }
    for (const input of team.inputs) {
        const raw = flags.get(input.key);
        if (raw === undefined)
            continue;
        if (input.type === "string")
            inputs[input.key] = raw;
        else {
            try {
                inputs[input.key] = JSON.parse(raw);
            }
            catch {
                problems.push(`--${input.key}: expected ${input.type} as JSON, got ${JSON.stringify(raw)}`);
            }
        }
    }
    for (const key of Object.keys(inputs))
        if (!team.inputs.some((i) => i.key === key))
            problems.push(`--inputs: unknown input ${JSON.stringify(key)}`);
    if (problems.length)
        throw new RunProblems(problems);
    // The graph's input uses each input's channel.
    const byChannel = Object.fromEntries(team.inputs.filter((i) => Object.hasOwn(inputs, i.key)).map((i) => [i.channel, inputs[i.key]]));
    resolveInputs(team, byChannel);
    return byChannel;
}
/** A decisions file `{"<gate>": [decision, ...]}`, checked against the gates waiting on the thread (all problems at once, nothing applied). */
function decisionsOf(team, file, waiting, gateStates) {
    let text;
    try {
        text = readFileSync(file, "utf8");
    }
    catch (error) {
        throw new RunProblems([`decisions file ${file}: cannot be read (${error.code ?? error.message})`]);
    }
    const decisions = parsed(text, `decisions file ${file}`);
    if (!isObject(decisions))
        throw new RunProblems([`decisions file ${file}: expected {"<gate>": [{"record": "r1", "action": "approve"}]}, got ${JSON.stringify(decisions).slice(0, 200)}`]);
    const names = waiting.map((w) => w.gate ?? "");
    const problems = [];
    for (const [gate, items] of Object.entries(decisions)) {
        const spec = team.gates.find((g) => g.name === gate);
        if (!names.includes(gate)) {
            problems.push(`decisions file ${file}: ${spec ? "gate" : "no gate"} ${JSON.stringify(gate)} ${spec ? "is not waiting" : "in this team"} (waiting: ${names.join(", ")})`);
            continue;
        }
        const read = readResume({ decisions: items }, gate);
        if ("problem" in read)
            problems.push(`decisions file ${file}: ${read.problem}`);
        else if (spec && isObject(gateStates[gate]))
            problems.push(...applyDecisions(spec, gateStates[gate], read.items, new Date(), "reviewer").problems.map((p) => `decisions file ${file}: ${p}`));
    }
    if (problems.length)
        throw new RunProblems(problems);
    return decisions;
}
async function report(graph, thread, config) {
    const state = await graph.getState(config);
    const values = (state.values ?? {});
    const waiting = state.tasks.flatMap((t) => t.interrupts.map((i) => ({ id: i.id, ...i.value })));
    const status = waiting.length ? "waiting" : (values.status ?? null);
    return { thread, status, halted: values.halted ?? null, result: values.result ?? null, waiting, gates: values.gates ?? {} };
}
/** Runs the command in `argv`; resolves to the exit code. */
export async function runCli(options) {
    const out = options.out ?? ((t) => process.stdout.write(t + "\n"));
    const err = options.err ?? ((t) => process.stderr.write(t + "\n"));
    const { team } = options;
    const { positional, flags, problems } = parseFlags(options.argv ?? process.argv.slice(2));
    const command = positional[0];
    if (flags.has("help")) {
        out(usage(team));
        return EXIT.ok;
    }
    if (!command || !COMMAND_FLAGS[command]) {
        err(`${command ? `unknown command ${JSON.stringify(command)}` : "a command is needed"}\n\n${usage(team)}`);
        return EXIT.problems;
    }
    const allowed = new Set([...COMMAND_FLAGS[command], ...(command === "run" ? team.inputs.map((i) => i.key) : [])]);
    problems.push(...positional.slice(1).map((p) => `${command}: unexpected argument ${JSON.stringify(p)}`));
    problems.push(...[...flags.keys()].filter((f) => !allowed.has(f)).map((f) => `${command}: unknown flag --${f} (${command === "run" ? "inputs and flags" : "flags"}: ${[...allowed].map((a) => `--${a}`).join(", ")})`));
    if ((command === "resume" || command === "show") && !flags.get("thread"))
        problems.push(`${command}: --thread ID is needed`);
    if (command === "resume" && !flags.get("decisions"))
        problems.push("resume: --decisions FILE is needed");
    if (problems.length) {
        err(problems.join("\n"));
        return EXIT.problems;
    }
    if (existsSync(".env") && typeof process.loadEnvFile === "function")
        process.loadEnvFile(".env");
    const dir = process.env.ENVELOPE_RUNS_DIR || ".langgraph_runs";
    const saver = new FileSaver(join(dir, "threads"));
    const graph = options.graph(saver);
    const signal = AbortSignal.timeout(team.runTimeoutMs);
    try {
        const thread = flags.get("thread") || randomUUID();
        let context = {};
        if (flags.has("model-context")) {
            const given = parsed(flags.get("model-context"), "--model-context");
            if (!isObject(given))
                throw new RunProblems([`--model-context: expected a JSON object, got ${JSON.stringify(given)}`]);
            const fields = ["model", ...team.agents.map((a) => a.contextField)];
            const unknown = Object.keys(given).filter((k) => !fields.includes(k));
            if (unknown.length)
                throw new RunProblems(unknown.map((k) => `--model-context: unknown field ${JSON.stringify(k)} (fields: ${fields.join(", ")})`));
            context = given;
        }
        const config = { configurable: { thread_id: thread }, context, recursionLimit: team.recursionLimit, signal };
        if (command === "run") {
            await graph.invoke(inputsOf(team, flags), config);
        }
        else if (command === "sweep") {
            // A gate's timeout applies when its node runs again: resume (with no decisions) every
            // thread with a gate past its deadline, as the Python runner's sweep does. Run it from cron.
            const now = (options.now ?? (() => new Date()))().getTime();
            const swept = [];
            for (const id of Object.keys(saver.storage).sort()) {
                const threadConfig = { ...config, configurable: { thread_id: id } };
                const state = await report(graph, id, threadConfig);
                const due = state.waiting.some((w) => typeof w.deadline === "string" && now > Date.parse(w.deadline));
                if (!due)
                    continue;
                await graph.invoke(new Command({ resume: Object.fromEntries(state.waiting.map((w) => [w.id, { decisions: [] }])) }), threadConfig);
                const after = await report(graph, id, threadConfig);
                swept.push({ thread: id, status: after.status, halted: after.halted, waiting: after.waiting.map((w) => w.gate ?? "") });
            }
            out(JSON.stringify({ swept }, null, 2));
            return EXIT.ok;
        }
        else if (command === "resume") {
            const before = await report(graph, thread, config);
            if (!before.waiting.length)
                throw new RunProblems([`thread ${thread}: ${before.status === null ? "no such run" : `no gate waiting for review (status: ${before.status})`}`]);
            const decisions = decisionsOf(team, flags.get("decisions"), before.waiting, before.gates);
            // A gate past its deadline applies its timeout, not the decisions (as in the Python targets): say so.
            const now = (options.now ?? (() => new Date()))().getTime();
            for (const w of before.waiting) {
                const spec = team.gates.find((g) => g.name === w.gate);
                if (spec?.timeout && w.deadline && now > Date.parse(w.deadline) && Array.isArray(decisions[spec.name]) && decisions[spec.name].length) {
                    err(`decisions file ${flags.get("decisions")}: gate ${spec.name}: given after its deadline (${w.deadline}: ${spec.timeout.after} from ${w.waiting_since}), not applied; the timeout applies (${spec.timeout.behaviour})`);
                }
            }
            // Every pending gate is resumed: one without decisions re-checks its timeout and waits again.
            // LangGraph stores the resume value in the thread's checkpoints: secret values out of it first.
            const secrets = secretValues(team.secrets);
            const resume = Object.fromEntries(before.waiting.map((p) => [p.id, { decisions: redactValue(decisions[p.gate ?? ""] ?? [], secrets) }]));
            await graph.invoke(new Command({ resume }), config);
        }
        const { gates: _gates, ...result } = await report(graph, thread, config);
        out(JSON.stringify(result, null, 2));
        if (result.status === "waiting") {
            for (const w of result.waiting)
                for (const p of w.problems ?? [])
                    err(p);
            err(`gates waiting for review: ${result.waiting.map((w) => w.gate).join(", ")}; resume with: resume --thread ${thread} --decisions FILE`);
            return EXIT.waiting;
        }
        if (result.status === "halted")
            err(`halted: ${result.halted}`);
        return result.status === "halted" ? EXIT.halted : EXIT.ok;
    }
    catch (error) {
        if (error instanceof RunProblems) {
            err(error.message);
            return EXIT.problems;
        }
        if (signal.aborted) {
            err(`the run took longer than ${team.runTimeoutMs} ms (the team's timeout.runMs) and was stopped; resume it or run it again`);
            return EXIT.timeout;
        }
        err(`the run failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
        return EXIT.failed;
    }
}
