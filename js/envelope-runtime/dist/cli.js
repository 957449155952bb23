// The command-line runner of an exported team: `run` (inputs as flags or JSON), `resume`
// (a decisions file for the gates that wait), `show` (a thread's state). Runs are kept by a
// FileSaver in .langgraph_runs/ (ENVELOPE_RUNS_DIR), so a gate waits across restarts.
// Standard output carries one JSON object per command; messages go to standard error.
import { existsSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { Command } from "@langchain/langgraph";
import { FileSaver } from "./checkpoint.js";
import { RunProblems } from "./graph.js";
export const EXIT = { ok: 0, problems: 1, usage: 2, halted: 3 };
function usage(team) {
    const flags = team.inputs.map((i) => `  --${i.key} VALUE   ${i.type}${i.required ? ", required" : ""}${i.description ? `: ${i.description}` : ""}`).join("\n");
    return [
        `${team.name} ${team.version}`,
        "",
        "usage: run [--inputs JSON] [--INPUT VALUE ...] [--thread ID] [--model-context JSON]",
        "       resume --thread ID --decisions FILE",
        "       show --thread ID",
        "",
        "inputs:",
        flags || "  (none)",
    ].join("\n");
}
function parseFlags(argv) {
    const positional = [];
    const flags = new Map();
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (arg.startsWith("--")) {
            const eq = arg.indexOf("=");
            if (eq > 0)
                flags.set(arg.slice(2, eq), arg.slice(eq + 1));
            else
                flags.set(arg.slice(2), argv[++i] ?? "");
        }
        else
            positional.push(arg);
    }
    return { positional, flags };
}
function inputsOf(team, flags) {
    const inputs = flags.has("inputs") ? JSON.parse(flags.get("inputs")) : {};
    for (const input of team.inputs) {
        const raw = flags.get(input.key);
        if (raw === undefined)
            continue;
        inputs[input.key] = input.type === "string" ? raw : JSON.parse(raw);
    }
    const unknown = Object.keys(inputs).filter((k) => !team.inputs.some((i) => i.key === k));
    if (unknown.length)
        throw new RunProblems(unknown.map((k) => `unknown input ${JSON.stringify(k)}`));
    // The graph's input uses each input's channel.
    return Object.fromEntries(team.inputs.filter((i) => Object.hasOwn(inputs, i.key)).map((i) => [i.channel, inputs[i.key]]));
}
async function report(graph, thread, config) {
    const state = await graph.getState(config);
    const values = (state.values ?? {});
    const waiting = state.tasks.flatMap((t) => t.interrupts.map((i) => ({ id: i.id, ...i.value })));
    const status = waiting.length ? "waiting" : (values.status ?? null);
    return { thread, status, halted: values.halted ?? null, result: values.result ?? null, waiting };
}
/** Runs the command in `argv`; resolves to the exit code. */
export async function runCli(options) {
    const out = options.out ?? ((t) => process.stdout.write(t + "\n"));
    const err = options.err ?? ((t) => process.stderr.write(t + "\n"));
    const { team } = options;
    const { positional, flags } = parseFlags(options.argv ?? process.argv.slice(2));
    const command = positional[0];
    if (!command || flags.has("help") || !["run", "resume", "show"].includes(command)) {
        (command || flags.has("help") ? out : err)(usage(team));
        return command || flags.has("help") ? EXIT.ok : EXIT.usage;
    }
    if (existsSync(".env") && typeof process.loadEnvFile === "function")
        process.loadEnvFile(".env");
    const dir = process.env.ENVELOPE_RUNS_DIR || ".langgraph_runs";
    const graph = options.graph(new FileSaver(join(dir, "checkpoints.json")));
    try {
        const thread = flags.get("thread") || randomUUID();
        const context = flags.has("model-context") ? JSON.parse(flags.get("model-context")) : {};
        const config = { configurable: { thread_id: thread }, context, recursionLimit: team.recursionLimit, signal: AbortSignal.timeout(team.runTimeoutMs) };
        if (command === "run") {
            await graph.invoke(inputsOf(team, flags), config);
        }
        else if (command === "resume") {
            const file = flags.get("decisions");
            if (!file || !flags.get("thread")) {
                err("resume needs --thread ID and --decisions FILE");
                return EXIT.usage;
            }
            const decisions = JSON.parse(readFileSync(file, "utf8"));
            const pending = (await report(graph, thread, config)).waiting;
            if (!pending.length) {
                err(`thread ${thread} has no gate waiting for review`);
                return EXIT.usage;
            }
            // Every pending gate is resumed: one without decisions waits again.
            const resume = Object.fromEntries(pending.map((p) => [p.id, { decisions: decisions[p.gate ?? ""] ?? [] }]));
            await graph.invoke(new Command({ resume }), config);
        }
        const result = await report(graph, thread, config);
        out(JSON.stringify(result, null, 2));
        if (result.status === "waiting")
            err(`gates waiting for review: ${result.waiting.map((w) => w.gate).join(", ")}; resume with: resume --thread ${thread} --decisions FILE`);
        return result.status === "halted" ? EXIT.halted : EXIT.ok;
    }
    catch (error) {
        if (error instanceof RunProblems || error instanceof SyntaxError) {
            err(error.message);
            return EXIT.problems;
        }
        throw error;
    }
}
