// The command-line runner of an exported team: `run` (inputs as flags or JSON), `resume`
// (a decisions file for the gates that wait), `show` (a thread's state), `sweep` (gates past
// their deadline). Runs are kept by a
// FileSaver in .langgraph_runs/threads/ (ENVELOPE_RUNS_DIR), or with DATABASE_URL by LangGraph.js's
// PostgresSaver in that database (database.ts, as the Python runner keeps them), so a gate waits across restarts.
// Standard output carries one JSON object per command; messages go to standard error, each
// naming what it is about (the flag, the input, the file, the gate). Exit codes are the
// Python targets' runner's. As there: one process at a time runs or resumes a thread (a lock
// beside its checkpoints; in PostgreSQL, an advisory lock), timeout.runMs bounds a run's work across its resumes (the time
// worked is kept with the thread), and a run that waits at its gates gets a decisions file
// to fill in, `<runs dir>/<thread>.decisions.json`.
import { existsSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { basename, join } from "node:path";
import { Command } from "@langchain/langgraph";
import { FileSaver, threadFileName } from "./checkpoint.js";
import { applyDecisions, readResume } from "./gates.js";
import { deadlineMessage, resolveInputs, RunProblems, runProblems } from "./graph.js";
import { redact, redactValue, secretValues } from "./redaction.js";
import { reviewAtTerminal, terminalAsk } from "./terminal-review.js";
import { ThreadLock, writeDecisionsTemplate } from "./thread-files.js";
import { DATABASE_ENV, openWorkspaceStore } from "./workspace-store.js";
export const EXIT = { ok: 0, failed: 1, problems: 2, waiting: 3, halted: 4, timeout: 124 };
/** The run's work reached timeout.runMs (counted across its run and resumes). */
class OutOfTime extends Error {
}
function fileRuns(threadsDir) {
    const locks = new Map();
    return {
        where: threadsDir,
        async lock(thread) {
            const lock = new ThreadLock(join(threadsDir, `${threadFileName(thread)}.lock`));
            const holder = lock.acquire();
            if (holder)
                return { ...holder, lock: `lock ${lock.path}` };
            locks.set(thread, lock);
            return null;
        },
        unlock(thread) {
            locks.get(thread)?.release();
            locks.delete(thread);
        },
        saver: async () => new FileSaver(threadsDir),
        threads: async (saver) => Object.keys(saver.storage).sort(),
        close: async () => undefined,
    };
}
/** The runs in PostgreSQL: one DatabaseSaver (its pool) for the command, its lock an advisory lock. */
async function databaseRuns(url, team) {
    const { openDatabaseSaver } = await import("./database.js");
    const saver = await openDatabaseSaver(url, team);
    return {
        where: saver.where,
        async lock(thread) {
            const holder = await saver.lock(thread);
            return holder && { ...holder, lock: `its lock in ${saver.where}` };
        },
        unlock: (thread) => saver.unlock(thread),
        saver: async () => saver,
        threads: () => saver.threads(),
        close: () => saver.end(),
    };
}
function usage(team) {
    const flags = team.inputs.map((i) => `  --${i.key} VALUE   ${i.type}${i.required ? ", required" : ""}${i.description ? `: ${i.description}` : ""}`).join("\n");
    return [
        `${team.name} ${team.version}`,
        "",
        "usage: run [--inputs JSON] [--INPUT VALUE ...] [--thread ID] [--model-context JSON]",
        "       resume --thread ID [--decisions FILE]   (without FILE: reviewed at the terminal; a failed run goes on)",
        "       run and resume: [--interactive | --no-interactive]   (review at the terminal; default: when stdin is one)",
        "       show --thread ID",
        "       sweep   (every waiting thread past a gate's deadline: its timeout applied)",
        ...(team.workspace?.length
            ? ["       workspace list|show|edit|import|export|archive|delete ...   (workspace --help)", "       watch [--once] [--interval S] [-- RUN OPTIONS]   (the workspace's triggers: notify, or run the team)"]
            : []),
        "",
        "inputs:",
        flags || "  (none)",
    ].join("\n");
}
const COMMAND_FLAGS = { run: ["inputs", "thread", "model-context", "interactive"], resume: ["thread", "decisions", "interactive"], show: ["thread"], sweep: [] };
function parseFlags(argv) {
    const positional = [];
    const flags = new Map();
    const problems = [];
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (arg === "--help" || arg === "-h")
            flags.set("help", "");
        else if (arg === "--interactive" || arg === "--no-interactive")
            flags.set("interactive", String(arg === "--interactive"));
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
    // Every problem is said at once: a flag that is not JSON does not hide a missing input.
    // `unread`: inputs given but not readable, not also called missing; null when --inputs was not readable.
    let unread = new Set();
    if (flags.has("inputs")) {
        try {
            const given = parsed(flags.get("inputs"), "--inputs");
            if (isObject(given))
                inputs = { ...given };
            else {
                problems.push(`--inputs: expected a JSON object of inputs by key, got ${JSON.stringify(given)}`);
                unread = null;
            }
        }
        catch (error) {
            if (!(error instanceof RunProblems))
                throw error;
            problems.push(...error.problems);
            unread = null;
        }
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
                unread?.add(input.key);
                delete inputs[input.key];
            }
        }
    }
    for (const key of Object.keys(inputs))
        if (!team.inputs.some((i) => i.key === key))
            problems.push(`--inputs: unknown input ${JSON.stringify(key)}`);
    // The graph's input uses each input's channel.
    const byChannel = Object.fromEntries(team.inputs.filter((i) => Object.hasOwn(inputs, i.key)).map((i) => [i.channel, inputs[i.key]]));
    if (unread) {
        try {
            resolveInputs(team, byChannel);
        }
        catch (error) {
            if (!(error instanceof RunProblems))
                throw error;
            problems.push(...error.problems.filter((p) => ![...unread].some((key) => p.startsWith(`input ${key}:`))));
        }
    }
    if (problems.length)
        throw new RunProblems(problems);
    return byChannel;
}
/** A decisions file `{"<gate>": [decision, ...]}`, checked against the gates waiting on the thread (all problems at once, nothing applied). */
function decisionsOf(team, thread, file, waiting, gateStates) {
    const other = basename(file).endsWith(".decisions.json") ? basename(file).slice(0, -".decisions.json".length) : null;
    if (other !== null && other !== threadFileName(thread)) {
        // The runner's file for another thread: its record ids (r1, r2, …) would match here too.
        const name = safeDecode(other);
        throw new RunProblems([`decisions file ${file}: holds the decisions of thread ${name}, not of ${thread}: resume ${name} with it (or give it another name to use it here)`]);
    }
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
        const read = readResume({ gate, decisions: items }, gate);
        if ("problem" in read)
            problems.push(`decisions file ${file}: ${read.problem}`);
        else if (spec && isObject(gateStates[gate]))
            problems.push(...applyDecisions(spec, gateStates[gate], read.items, new Date(), "reviewer").problems.map((p) => `decisions file ${file}: ${p}`));
    }
    if (problems.length)
        throw new RunProblems(problems);
    return decisions;
}
function safeDecode(text) {
    try {
        return decodeURIComponent(text);
    }
    catch {
        return text;
    }
}
async function report(graph, thread, config) {
    const state = await graph.getState(config);
    const values = (state.values ?? {});
    const waiting = state.tasks.flatMap((t) => t.interrupts.map((i) => ({ id: i.id, ...i.value })));
    // A halt wins over a gate still waiting beside it (one branch halted, another's gate asks),
    // as in the Python runner: the run is over, nothing a reviewer decides would go on.
    let status = values.halted ? "halted" : waiting.length ? "waiting" : (values.status ?? null);
    // Said to wait, yet no gate asks and no step is left: nothing a resume gives would reach it.
    if (status === "waiting" && !state.next?.length)
        status = "stalled";
    return { thread, status, halted: values.halted ?? null, result: values.result ?? null, waiting, gates: values.gates ?? {} };
}
/** Runs the command in `argv`; resolves to the exit code. */
export async function runCli(options) {
    const out = options.out ?? ((t) => process.stdout.write(t + "\n"));
    const err = options.err ?? ((t) => process.stderr.write(t + "\n"));
    const { team } = options;
    const argv = options.argv ?? process.argv.slice(2);
    // The people's commands on the workspace documents (a module of their own, loaded only for them).
    if ((argv[0] === "workspace" || argv[0] === "watch") && team.workspace?.length) {
        if (existsSync(".env") && typeof process.loadEnvFile === "function")
            process.loadEnvFile(".env");
        const { peopleCommand } = await import("./workspace-cli.js");
        // `watch`: each run is this runner's `run` (with --url: one on that server), with the triggering rows in its tasks.
        return peopleCommand(argv, team, { out, err }, (runArgs) => runCli({ ...options, argv: ["run", ...runArgs] }));
    }
    const { positional, flags, problems } = parseFlags(argv);
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
    const interactive = flags.has("interactive") ? flags.get("interactive") === "true" : options.ask !== undefined || (options.argv === undefined && process.stdin.isTTY === true);
    if (problems.length) {
        err(problems.join("\n"));
        return EXIT.problems;
    }
    if (existsSync(".env") && typeof process.loadEnvFile === "function")
        process.loadEnvFile(".env");
    const dir = process.env.ENVELOPE_RUNS_DIR || ".langgraph_runs";
    const threadsDir = join(dir, "threads");
    const clock = options.workClock ?? (() => performance.now());
    const now = () => (options.now ?? (() => new Date()))();
    const thread = flags.get("thread") || randomUUID();
    const decisionsPath = (id) => join(dir, `${threadFileName(id)}.decisions.json`);
    // An error's text can echo what a node was given (a prompt with a secret filled in): redacted, as Python's _failed does.
    const failure = (error) => redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error), secretValues(team.secrets));
    const deadline = deadlineMessage(team.runTimeoutMs);
    /** One part of a run: the graph invoked with what is left of timeout.runMs; the time it took kept with the thread. */
    const advance = async (saver, graph, id, input, config) => {
        // A new run (the graph's input, not a resume) starts afresh, as its prepare node empties the state's work.
        const fresh = input !== null && !(input instanceof Command);
        await saver.readWorked?.(id);
        const left = team.runTimeoutMs - (fresh ? 0 : saver.workedMs(id));
        if (left <= 0)
            throw new OutOfTime(deadline);
        const signal = AbortSignal.timeout(Math.ceil(left));
        saver.startWork(id, clock, fresh);
        let outOfTime = false;
        try {
            await graph.invoke(input, { ...config, signal });
        }
        catch (error) {
            if (!signal.aborted)
                throw error;
            outOfTime = true;
        }
        finally {
            await saver.stopWork(id, outOfTime ? team.runTimeoutMs : 0);
        }
        if (outOfTime)
            throw new OutOfTime(deadline);
    };
    const database = process.env[DATABASE_ENV];
    let runs;
    try {
        runs = database ? await databaseRuns(database, team.slug) : fileRuns(threadsDir);
    }
    catch (error) {
        err(`cannot open the runs in PostgreSQL ($${DATABASE_ENV}): ${redact(error instanceof Error ? error.message : String(error), { [DATABASE_ENV]: database })}`);
        return EXIT.problems;
    }
    // One process at a time on a thread: taken before its checkpoints are read, held until the end.
    const locked = command === "run" || command === "resume";
    const holder = locked ? await runs.lock(thread).catch(async (error) => { await runs.close(); throw error; }) : null;
    if (holder) {
        await runs.close();
        err(`thread ${thread}: ${holder.who} is running or resuming it (${holder.lock}); try again when it has finished${holder.ifGone ? `, or, ${holder.ifGone}` : ""}`);
        return EXIT.problems;
    }
    // Where a run in a database is kept (a file's is the README's .langgraph_runs/), as the Python runner says it.
    if (locked && database)
        err(`thread ${thread} (state: ${runs.where})`);
    const saver = await runs.saver();
    // The workspace's store, the same for every graph this command builds (its lock is per store).
    const store = team.workspace?.length ? openWorkspaceStore() : undefined;
    const graph = options.graph(saver, store);
    let terminal;
    try {
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
        const config = { configurable: { thread_id: thread }, context, recursionLimit: team.recursionLimit };
        /** The decisions file this command read and applied (a template never replaces another's work). */
        let given;
        if (command === "run") {
            // Missing variables and bad MODEL_* overrides are said with the inputs' problems, before
            // the thread's first checkpoint (as the Python runner does); the graph's prepare node
            // checks again (a served run), with the provider keys and the packs' credentials.
            const envProblems = runProblems(team, context, process.env, false);
            let input;
            try {
                input = inputsOf(team, flags);
            }
            catch (error) {
                if (error instanceof RunProblems)
                    throw new RunProblems([...error.problems, ...envProblems]);
                throw error;
            }
            if (envProblems.length)
                throw new RunProblems(envProblems);
            if (flags.has("thread")) {
                // A thread takes a new run only when it is new or its last run ended done: LangGraph
                // starts a run over a waiting gate's interrupt (its reviews lost), and a join of a run
                // that stopped partway keeps the side that arrived, for the next run's join to fire with.
                const state = await graph.getState(config);
                const last = await report(graph, thread, config);
                if (Object.keys(state.values ?? {}).length && (last.result === null || state.next?.length)) {
                    const waits = last.waiting.length ? ` --decisions FILE` : "";
                    const how = last.status === "halted" ? "" : `resume it (resume --thread ${thread}${waits}), or `;
                    throw new RunProblems([`thread ${thread}: its last run has not ended done (${last.status ?? "stopped"}): ${how}start the new run without --thread (a new thread)`]);
                }
            }
            await advance(saver, graph, thread, input, config);
        }
        else if (command === "sweep") {
            // A gate's timeout applies when its node runs again: resume (with no decisions) every
            // thread with a gate past its deadline, as the Python runner's sweep does. Run it from cron.
            const due = (waiting) => waiting.some((w) => typeof w.deadline === "string" && now().getTime() > Date.parse(w.deadline));
            const swept = [];
            let code = EXIT.ok;
            for (const id of await runs.threads(saver)) {
                const threadConfig = { ...config, configurable: { thread_id: id } };
                if (!due((await report(graph, id, threadConfig)).waiting))
                    continue;
                const busy = await runs.lock(id);
                if (busy) {
                    err(`thread ${id}: skipped, ${busy.who} is running or resuming it (${busy.lock})${busy.ifGone ? `; ${busy.ifGone}` : ""}`);
                    continue;
                }
                try {
                    // Read afresh under the lock: another process may have moved it on since.
                    const own = await runs.saver();
                    const ownGraph = options.graph(own, store);
                    const state = await report(ownGraph, id, threadConfig);
                    if (!due(state.waiting))
                        continue;
                    try {
                        await advance(own, ownGraph, id, new Command({ resume: Object.fromEntries(state.waiting.map((w) => [w.id, { gate: w.gate, decisions: [] }])) }), threadConfig);
                    }
                    catch (error) {
                        // One thread's failure does not stop the sweep (as in Python): said, recorded, exit 1 at the end.
                        const timedOut = error instanceof OutOfTime;
                        err(`thread ${id}: ${timedOut ? error.message : `failed: ${failure(error)}`}`);
                        swept.push({ thread: id, status: timedOut ? "timeout" : "failed", halted: null, waiting: state.waiting.map((w) => w.gate ?? "") });
                        if (!timedOut)
                            code = EXIT.failed;
                        else if (code === EXIT.ok)
                            code = EXIT.timeout;
                        continue;
                    }
                    const after = await report(ownGraph, id, threadConfig);
                    if (after.status === "waiting")
                        for (const said of writeDecisionsTemplate(decisionsPath(id), after.waiting, undefined))
                            err(said);
                    swept.push({ thread: id, status: after.status, halted: after.halted, waiting: after.waiting.map((w) => w.gate ?? "") });
                }
                finally {
                    runs.unlock(id);
                }
            }
            out(JSON.stringify({ swept }, null, 2));
            return code;
        }
        else if (command === "resume") {
            // A thread whose time is spent is not resumed, whatever state it stopped in (as in Python).
            await saver.readWorked?.(thread);
            if (saver.workedMs(thread) >= team.runTimeoutMs)
                throw new OutOfTime(deadline);
            // Missing variables are said before anything runs, with the decisions file's problems:
            // a gate released by the decisions, then the next step refused, would leave the thread
            // with its decisions applied and nothing to resume.
            const envProblems = runProblems(team, context, process.env, false);
            const refuse = (problems) => {
                if (problems.length || envProblems.length)
                    throw new RunProblems([...problems, ...envProblems]);
            };
            const before = await report(graph, thread, config);
            if (!before.waiting.length) {
                const stopped = await graph.getState(config);
                const kept = isObject(stopped.values) && Object.keys(stopped.values).length > 0;
                // A run that stopped on an error goes on from its last finished step (as in Python).
                if (!kept || !stopped.next?.length)
                    throw new RunProblems([`thread ${thread}: ${kept ? `no gate waiting for review (status: ${before.status ?? "finished"})` : "no such run"}`]);
                if (flags.has("decisions"))
                    throw new RunProblems([`thread ${thread} is not waiting for review: it stopped on an error; resume it without --decisions`]);
                refuse([]);
                await advance(saver, graph, thread, null, config);
            }
            else if (!flags.get("decisions") && !interactive) {
                refuse(["resume: --decisions FILE is needed (or review at a terminal: --interactive)"]);
            }
            given = flags.get("decisions");
            // Without a file, the gates are reviewed at the terminal (below).
            if (given === undefined)
                refuse([]);
            else {
                let decisions = {};
                try {
                    decisions = decisionsOf(team, thread, given, before.waiting, before.gates);
                }
                catch (error) {
                    if (!(error instanceof RunProblems))
                        throw error;
                    refuse(error.problems);
                }
                refuse([]);
                // A gate past its deadline applies its timeout, not the decisions (as in the Python targets): say so.
                for (const w of before.waiting) {
                    const spec = team.gates.find((g) => g.name === w.gate);
                    if (spec?.timeout && w.deadline && now().getTime() > Date.parse(w.deadline) && Array.isArray(decisions[spec.name]) && decisions[spec.name].length) {
                        err(`decisions file ${given}: gate ${spec.name}: given after its deadline (${w.deadline}: ${spec.timeout.after} from ${w.waiting_since}), not applied; the timeout applies (${spec.timeout.behaviour})`);
                        given = undefined; // not applied: a pause keeps the file from a template
                    }
                }
                // Every pending gate is resumed: one without decisions re-checks its timeout and waits again.
                // LangGraph stores the resume value in the thread's checkpoints: secret values out of it first.
                const secrets = secretValues(team.secrets);
                const resume = Object.fromEntries(before.waiting.map((p) => [p.id, { gate: p.gate, decisions: redactValue(decisions[p.gate ?? ""] ?? [], secrets) }]));
                await advance(saver, graph, thread, new Command({ resume }), config);
            }
        }
        // At a terminal, each waiting gate is reviewed now and the run goes on, until it ends or
        // nobody answers (then the decisions file is written). A reviewer's time is not work.
        let state = await report(graph, thread, config);
        while (interactive && (command === "run" || command === "resume") && state.status === "waiting") {
            terminal ??= options.ask ? { ask: options.ask, close: () => undefined } : terminalAsk();
            const decisions = {};
            for (const w of state.waiting) {
                const spec = team.gates.find((g) => g.name === w.gate);
                const gate = state.gates[w.gate ?? ""];
                if (!spec || !isObject(gate))
                    continue;
                for (const p of w.problems ?? [])
                    err(p);
                const items = await reviewAtTerminal(spec, gate, terminal.ask, err);
                if (items?.length)
                    decisions[spec.name] = items;
            }
            if (!Object.keys(decisions).length)
                break;
            const secrets = secretValues(team.secrets);
            const resume = Object.fromEntries(state.waiting.map((p) => [p.id, { gate: p.gate, decisions: redactValue(decisions[p.gate ?? ""] ?? [], secrets) }]));
            given = undefined;
            await advance(saver, graph, thread, new Command({ resume }), config);
            state = await report(graph, thread, config);
        }
        const { gates: _gates, ...result } = state;
        if (result.status !== "waiting") {
            out(JSON.stringify(result, null, 2));
        }
        else {
            // The decisions file to fill in (show only names it: it writes nothing).
            const path = decisionsPath(thread);
            const said = command === "show" ? [] : writeDecisionsTemplate(path, result.waiting, given);
            out(JSON.stringify({ ...result, decisions_file: path }, null, 2));
            for (const w of result.waiting)
                for (const p of w.problems ?? [])
                    err(p);
            for (const line of said)
                err(line);
            err(`gates waiting for review: ${result.waiting.map((w) => w.gate).join(", ")}; fill in ${path}, then: resume --thread ${thread} --decisions ${path}`);
            return EXIT.waiting;
        }
        // Halted by the graph's own count of timeout.runMs (the nodes'): the runner's timeout.
        if (result.status === "stalled") {
            err(`thread ${thread}: stalled: its state says it waits for review, but no gate is waiting and no step is left to run; nothing can finish it (start a new run)`);
            return EXIT.failed;
        }
        if (result.status === "halted" && result.halted === deadline) {
            err(`thread ${thread}: ${deadline}`);
            return EXIT.timeout;
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
        if (error instanceof OutOfTime) {
            err(`thread ${thread}: ${error.message}`);
            return EXIT.timeout;
        }
        err(`the run failed: ${failure(error)}`);
        // Every finished step and decision is in the thread's checkpoints (as in Python).
        if (command === "run" || command === "resume")
            err(`finished steps and decisions are kept; continue from the last finished step with: resume --thread ${thread}`);
        return EXIT.failed;
    }
    finally {
        terminal?.close();
        if (locked)
            runs.unlock(thread);
        // A database's connections closed, so the process can end.
        await runs.close();
        if (store && "close" in store)
            await store.close();
    }
}
