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
import type { TeamSpec } from "./spec.js";

export const EXIT = { ok: 0, problems: 1, usage: 2, halted: 3 } as const;

/** What the runner needs of the team's graph: invoke, its state, and its pending interrupts. */
export interface RunnableGraph {
  invoke(input: unknown, config: Record<string, unknown>): Promise<unknown>;
  getState(config: Record<string, unknown>): Promise<{ values: unknown; tasks: ReadonlyArray<{ interrupts: ReadonlyArray<{ id?: string; value?: unknown }> }> }>;
}

export interface CliOptions {
  team: TeamSpec;
  graph: (checkpointer: FileSaver) => RunnableGraph;
  argv?: readonly string[];
  out?: (text: string) => void;
  err?: (text: string) => void;
}

function usage(team: TeamSpec): string {
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

function parseFlags(argv: readonly string[]): { positional: string[]; flags: Map<string, string> } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      if (eq > 0) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
      else flags.set(arg.slice(2), argv[++i] ?? "");
    } else positional.push(arg);
  }
  return { positional, flags };
}

function inputsOf(team: TeamSpec, flags: Map<string, string>): Record<string, unknown> {
  const inputs: Record<string, unknown> = flags.has("inputs") ? (JSON.parse(flags.get("inputs")!) as Record<string, unknown>) : {};
  for (const input of team.inputs) {
    const raw = flags.get(input.key);
    if (raw === undefined) continue;
    inputs[input.key] = input.type === "string" ? raw : JSON.parse(raw);
  }
  const unknown = Object.keys(inputs).filter((k) => !team.inputs.some((i) => i.key === k));
  if (unknown.length) throw new RunProblems(unknown.map((k) => `unknown input ${JSON.stringify(k)}`));
  // The graph's input uses each input's channel.
  return Object.fromEntries(team.inputs.filter((i) => Object.hasOwn(inputs, i.key)).map((i) => [i.channel, inputs[i.key]]));
}

async function report(graph: RunnableGraph, thread: string, config: Record<string, unknown>) {
  const state = await graph.getState(config);
  const values = (state.values ?? {}) as { status?: string | null; halted?: string | null; result?: unknown };
  const waiting = state.tasks.flatMap((t) => t.interrupts.map((i) => ({ id: i.id, ...(i.value as object) })));
  const status = waiting.length ? "waiting" : (values.status ?? null);
  return { thread, status, halted: values.halted ?? null, result: values.result ?? null, waiting };
}

/** Runs the command in `argv`; resolves to the exit code. */
export async function runCli(options: CliOptions): Promise<number> {
  const out = options.out ?? ((t: string) => process.stdout.write(t + "\n"));
  const err = options.err ?? ((t: string) => process.stderr.write(t + "\n"));
  const { team } = options;
  const { positional, flags } = parseFlags(options.argv ?? process.argv.slice(2));
  const command = positional[0];
  if (!command || flags.has("help") || !["run", "resume", "show"].includes(command)) {
    (command || flags.has("help") ? out : err)(usage(team));
    return command || flags.has("help") ? EXIT.ok : EXIT.usage;
  }
  if (existsSync(".env") && typeof process.loadEnvFile === "function") process.loadEnvFile(".env");
  const dir = process.env.ENVELOPE_RUNS_DIR || ".langgraph_runs";
  const graph = options.graph(new FileSaver(join(dir, "checkpoints.json")));
  try {
    const thread = flags.get("thread") || randomUUID();
    const context = flags.has("model-context") ? (JSON.parse(flags.get("model-context")!) as Record<string, unknown>) : {};
    const config = { configurable: { thread_id: thread }, context, recursionLimit: team.recursionLimit, signal: AbortSignal.timeout(team.runTimeoutMs) };
    if (command === "run") {
      await graph.invoke(inputsOf(team, flags), config);
    } else if (command === "resume") {
      const file = flags.get("decisions");
      if (!file || !flags.get("thread")) {
        err("resume needs --thread ID and --decisions FILE");
        return EXIT.usage;
      }
      const decisions = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      const pending = (await report(graph, thread, config)).waiting;
      if (!pending.length) {
        err(`thread ${thread} has no gate waiting for review`);
        return EXIT.usage;
      }
      // Every pending gate is resumed: one without decisions waits again.
      const resume = Object.fromEntries(pending.map((p) => [p.id, { decisions: (decisions as Record<string, unknown>)[(p as { gate?: string }).gate ?? ""] ?? [] }]));
      await graph.invoke(new Command({ resume }), config);
    }
    const result = await report(graph, thread, config);
    out(JSON.stringify(result, null, 2));
    if (result.status === "waiting") err(`gates waiting for review: ${result.waiting.map((w) => (w as { gate?: string }).gate).join(", ")}; resume with: resume --thread ${thread} --decisions FILE`);
    return result.status === "halted" ? EXIT.halted : EXIT.ok;
  } catch (error) {
    if (error instanceof RunProblems || error instanceof SyntaxError) {
      err(error.message);
      return EXIT.problems;
    }
    throw error;
  }
}
