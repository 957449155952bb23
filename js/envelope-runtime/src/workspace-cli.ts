// The people's commands on the workspace (`npm start -- workspace list|show|edit|import|export|
// archive|delete`), as the Python runners' (workspace.py's workspace_command): people own every
// column; pii columns are masked in listings and exports unless asked (--show-pii), and a
// masked export says which of its values are masks, so importing it leaves the stored values.
// `watch` fires the documents' triggers. Loaded by the runner only for these commands.
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { FileSaver, threadFileName } from "./checkpoint.js";
import { pythonJson, taskJson } from "./placeholders.js";
import { scrubLeftovers } from "./thread-files.js";
import { TRIGGERED } from "./run-context.js";
import { deadlineMessage, resolveInputs, RunProblems } from "./graph.js";
import { contextProblems } from "./models.js";
import { redact, secretValues } from "./redaction.js";
import type { TeamSpec } from "./spec.js";
import { DATABASE_ENV, databaseWhere, DatabaseStore, openWorkspaceStore, serverClient, ServerStore, type ServerClient } from "./workspace-store.js";
import { BUILT_IN, MASK, masked, pyRepr, WorkspaceError, type ColumnSpec, type DocumentSpec, type Firing, type Row, Workspace, type WriteItem, type WriteResult } from "./workspace.js";

/** A masked CSV export heads each pii column (and `id`, when the id column is pii) with this after it. */
export const MASKED_HEADER = " (masked)";
/** A masked JSON export's row lists its masked fields under this key. */
export const MASKED_KEY = "masked";

/** What `delete` looks through besides the store: the runs that may hold what agents read of a row. */
export interface RunRecords {
  /** Where they are kept, for messages. */
  where: string;
  /** The ids of the runs whose records contain any of `needles`. */
  holding(needles: readonly string[]): Promise<string[]>;
  purge(runIds: readonly string[]): Promise<void>;
}

/**
 * The runner's runs (`<runs dir>/threads/`, FileSaver's files): every thread whose checkpoints
 * or pending writes hold a value (the agents' tool answers are in them), deleted whole with
 * its decisions file.
 */
export class SavedRuns implements RunRecords {
  readonly where: string;
  constructor(readonly runsDir: string) {
    this.where = join(runsDir, "threads");
  }

  async holding(needles: readonly string[]): Promise<string[]> {
    const saver = new FileSaver(this.where);
    const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");
    const found = new Set<string>();
    for (const [thread, namespaces] of Object.entries(saver.storage)) {
      const texts = Object.values(namespaces).flatMap((checkpoints) => Object.values(checkpoints).flatMap(([c, m]) => [text(c), text(m)]));
      for (const [key, writes] of Object.entries(saver.writes)) if ((JSON.parse(key) as string[])[0] === thread) texts.push(...Object.values(writes).map(([, channel, value]) => channel + text(value)));
      if (texts.some((t) => needles.some((n) => t.includes(n)))) found.add(thread);
    }
    return [...found].sort();
  }

  async purge(runIds: readonly string[]): Promise<void> {
    const saver = new FileSaver(this.where);
    for (const id of runIds) {
      await saver.deleteThread(id);
      rmSync(join(this.runsDir, `${threadFileName(id)}.decisions.json`), { force: true });
    }
    // A decisions file's write killed before its rename left its temporary (the records' fields).
    scrubLeftovers(this.runsDir);
  }
}

/**
 * The runner's runs in PostgreSQL (DATABASE_URL): every thread whose checkpoints or pending
 * writes hold a value, as workspace_store.py's CheckpointRecords looks through the database's,
 * deleted with the saver's own deleteThread, and its decisions file.
 */
export class DatabaseRuns implements RunRecords {
  readonly where: string;
  constructor(
    readonly url: string,
    readonly runsDir: string,
    readonly team: string,
  ) {
    this.where = databaseWhere(url);
  }

  private async withSaver<T>(fn: (saver: import("./database.js").DatabaseSaver) => Promise<T>): Promise<T> {
    const { openDatabaseSaver } = await import("./database.js");
    const saver = await openDatabaseSaver(this.url, this.team);
    try {
      return await fn(saver);
    } finally {
      await saver.end();
    }
  }

  holding(needles: readonly string[]): Promise<string[]> {
    return this.withSaver(async (saver) => {
      const found = new Set<string>();
      // This team's runs only: the database may hold other teams' (another's serializer among them).
      for await (const item of saver.list({}, { filter: { envelope_team: this.team } })) {
        if ([...texts([item.checkpoint.channel_values, item.pendingWrites ?? []])].some((t) => needles.some((n) => t.includes(n)))) found.add(String(item.config.configurable?.thread_id));
      }
      return [...found].sort();
    });
  }

  purge(runIds: readonly string[]): Promise<void> {
    return this.withSaver(async (saver) => {
      for (const id of runIds) {
        await saver.deleteThread(id);
        rmSync(join(this.runsDir, `${threadFileName(id)}.decisions.json`), { force: true });
      }
    });
  }
}

/** Every text in a server's thread or checkpoint (keys too), as workspace_store.py's holds reads them. */
function* texts(value: unknown): Generator<string> {
  if (typeof value === "string") yield value;
  else if (Array.isArray(value)) for (const item of value) yield* texts(item);
  else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value)) {
      yield key;
      yield* texts(item);
    }
}

/**
 * The runs of an Agent Server, for `workspace --url delete` (run_client.py's ServerThreads):
 * its threads, each searched in its values, metadata and every checkpoint of its history and
 * its subgraphs' (where the agents' tool answers are); deleted with threads.delete.
 */
export class ServerThreads implements RunRecords {
  static readonly PAGE = 100;
  readonly where: string;
  constructor(
    url: string,
    readonly client: ServerClient,
  ) {
    this.where = `threads of the Agent Server at ${url}`;
  }

  private async threads(): Promise<Array<Record<string, unknown>>> {
    const found: Array<Record<string, unknown>> = [];
    // Listed whole first: a purge must not shift the pages.
    for (;;) {
      const page = await this.client.threads.search({ limit: ServerThreads.PAGE, offset: found.length });
      found.push(...page);
      if (page.length < ServerThreads.PAGE) return found;
    }
  }

  private async holds(threadId: string, needles: readonly string[]): Promise<boolean> {
    const has = (value: unknown) => [...texts(value)].some((t) => needles.some((n) => t.includes(n)));
    const namespaces = [""];
    const seen = new Set(namespaces);
    while (namespaces.length) {
      const checkpoint = { checkpoint_ns: namespaces.pop()! };
      let before: unknown;
      for (;;) {
        const page = await this.client.threads.getHistory(threadId, { limit: ServerThreads.PAGE, checkpoint, ...(before !== undefined ? { before } : {}) });
        for (const state of page) {
          if (has(state)) return true;
          for (const task of (state.tasks ?? []) as Array<{ checkpoint?: { checkpoint_ns?: string } | null }>) {
            const ns = task.checkpoint?.checkpoint_ns;
            if (ns && !seen.has(ns)) namespaces.push(ns), seen.add(ns);
          }
        }
        if (page.length < ServerThreads.PAGE) break;
        before = page[page.length - 1]!.checkpoint;
      }
    }
    return false;
  }

  async holding(needles: readonly string[]): Promise<string[]> {
    const found = new Set<string>();
    for (const thread of await this.threads()) {
      const id = String(thread.thread_id);
      if (found.has(id)) continue; // a thread made while the pages were read may be listed twice
      if ([...texts(thread)].some((t) => needles.some((n) => t.includes(n))) || (await this.holds(id, needles))) found.add(id);
    }
    return [...found].sort();
  }

  async purge(runIds: readonly string[]): Promise<void> {
    for (const id of runIds) await this.client.threads.delete(id);
  }
}

/** `--url URL` (or `--url=URL`) among a command's own options (those before a `--`), and the arguments without it; a problem when it has no value. */
export function urlOption(argv: readonly string[]): { url: string | null; rest: string[]; problem?: string } {
  const end = argv.includes("--") ? argv.indexOf("--") : argv.length;
  const own = argv.slice(0, end);
  for (const [i, arg] of own.entries()) {
    if (arg === "--url") {
      const url = own[i + 1];
      if (url === undefined || url.startsWith("--")) return { url: null, rest: [...argv], problem: "--url needs the Agent Server's URL" };
      return { url, rest: [...own.slice(0, i), ...own.slice(i + 2), ...argv.slice(end)] };
    }
    if (arg.startsWith("--url=")) return { url: arg.slice("--url=".length), rest: [...own.slice(0, i), ...own.slice(i + 1), ...argv.slice(end)] };
  }
  return { url: null, rest: [...argv] };
}

/** What `watch --url` gives each run on the server: what the runner's `run` would take of its options. */
type ServedTeam = Pick<TeamSpec, "slug" | "inputs" | "agents" | "recursionLimit" | "runTimeoutMs" | "secrets">;

/**
 * A served run's input (by channel) and context from the run options, checked as the runner's
 * `run` checks them, so a run refused here is not started (the triggers fire again): `--inputs
 * JSON`, `--KEY VALUE` per input (values JSON unless the input is a string), `--model-context
 * JSON`, `--no-interactive` (a served run never reviews at this terminal). The others are
 * refused by name: `--interactive` and `--thread` are the runner's own.
 */
function serverRun(team: ServedTeam, runArgs: readonly string[]): { input: Record<string, unknown>; context: Record<string, unknown> | null } | string {
  const given: Record<string, unknown> = {};
  let context: Record<string, unknown> | null = null;
  const sent = ["--inputs JSON", ...team.inputs.map((x) => `--${x.key}`), "--model-context JSON", "--no-interactive"].join(", ");
  for (let i = 0; i < runArgs.length; i++) {
    const arg = runArgs[i]!;
    const [name, inline] = arg.includes("=") ? [arg.slice(2, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg.slice(2), undefined];
    const input = team.inputs.find((x) => x.key === name);
    if (arg === "--no-interactive") continue;
    if (arg === "--interactive") return "--interactive: a run watch --url starts is reviewed on the server (a run waiting at a gate is resumed there), not at this terminal";
    if (arg.startsWith("--") && name === "thread") return "--thread: watch --url starts each run on a new thread of the server";
    if (!arg.startsWith("--") || (name !== "inputs" && name !== "model-context" && !input)) return `${JSON.stringify(arg)} is not a run option watch --url sends to the server (${sent})`;
    const text = inline ?? runArgs[++i];
    if (text === undefined) return `--${name} needs a value`;
    let value: unknown;
    try {
      value = input?.type === "string" ? text : JSON.parse(text);
    } catch {
      return `--${name}: not JSON: ${JSON.stringify(text)}`;
    }
    if (input) given[name] = value;
    else if (value === null || typeof value !== "object" || Array.isArray(value)) return `--${name}: expected a JSON object${name === "inputs" ? " of inputs by key" : ""}`;
    else if (name === "inputs") Object.assign(given, value);
    else context = value as Record<string, unknown>;
  }
  const unknown = Object.keys(given).filter((k) => !team.inputs.some((x) => x.key === k));
  if (unknown.length) return `--inputs: unknown input ${JSON.stringify(unknown[0])}`;
  const input = Object.fromEntries(team.inputs.filter((x) => Object.hasOwn(given, x.key)).map((x) => [x.channel, given[x.key]]));
  const fields = ["model", ...team.agents.map((a) => a.contextField)];
  const problems = Object.keys(context ?? {})
    .filter((k) => !fields.includes(k))
    .map((k) => `--model-context: unknown field ${JSON.stringify(k)} (fields: ${fields.join(", ")})`);
  problems.push(...contextProblems(team.agents, context ?? {}));
  try {
    resolveInputs(team, input);
  } catch (error) {
    if (!(error instanceof RunProblems)) throw error;
    problems.unshift(...error.problems);
  }
  return problems.length ? problems.join("\n") : { input, context };
}

/**
 * One triggered run on the Agent Server (`watch --url`): a new thread there, the run's inputs,
 * its model context (`--model-context`), the team's recursion limit (as the runner's `run`
 * gives it) and the triggering rows (TRIGGERED, set by watchOnce) in its config
 * (`configurable.envelope_triggered`), waited for. Its exit code as the runner's `run`: 0 done,
 * 1 failed, 2 not started (bad options, server unreachable: the triggers fire again), 3
 * waiting at a gate (resume it on the server), 4 halted, 124 out of timeout.runMs (the graph
 * counts it on the server too).
 */
export async function runOnServer(client: ServerClient, team: ServedTeam, runArgs: readonly string[], url: string, io: Io, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  const run = serverRun(team, runArgs);
  if (typeof run === "string") {
    io.err(run.split("\n").map((line) => `watch: ${line}`).join("\n"));
    return RUN_NOT_STARTED;
  }
  let thread: string;
  let runId: string;
  try {
    thread = (await client.threads.create()).thread_id;
    const config = { configurable: { envelope_triggered: [...TRIGGERED] }, recursion_limit: team.recursionLimit };
    runId = (await client.runs.create(thread, team.slug, { input: run.input, config, ...(run.context ? { context: run.context } : {}) })).run_id;
  } catch (error) {
    io.err(`watch: cannot start a run on the Agent Server at ${url} (${(error as Error).message})`);
    return RUN_NOT_STARTED;
  }
  io.out(`watch: run ${runId} on thread ${thread} of the Agent Server at ${url}`);
  const joined = await client.runs.join(thread, runId);
  const ran = await client.runs.get(thread, runId);
  if (ran.status !== "success" && ran.status !== "interrupted") {
    // The server answers the join of a failed run with its error (`__error__`, as the SDK's
    // runs.wait reads it); said as the runner says a failed run's, secrets out (its text can
    // echo what a node was given).
    const error = (joined as { __error__?: { error?: unknown; message?: unknown } } | null)?.__error__;
    const why = error ? redact(`${String(error.error ?? "Error")}: ${String(error.message ?? "")}`, secretValues(team.secrets, env)) : "the server gave no error";
    io.err(`watch: run ${runId} on thread ${thread}: the run failed (${ran.status}): ${why}`);
    return 1;
  }
  const state = await client.threads.getState(thread);
  const values = (state.values ?? {}) as { status?: string | null; halted?: string | null };
  // A halt wins over a gate still waiting beside it, as in the runner's report.
  const waiting = !values.halted && state.tasks.some((t) => (t.interrupts ?? []).length > 0);
  const status = values.halted ? "halted" : waiting ? "waiting" : (values.status ?? "done");
  io.out(`watch: thread ${thread}: ${status}`);
  if (status !== "halted") return waiting ? 3 : 0;
  io.err(`watch: thread ${thread}: ${values.halted === deadlineMessage(team.runTimeoutMs) ? values.halted : `halted: ${values.halted ?? "(no reason given)"}`}`);
  return values.halted === deadlineMessage(team.runTimeoutMs) ? 124 : 4;
}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

export const WORKSPACE_USAGE = [
  "usage: workspace list [DOCUMENT] [--status S] [--archived] [--show-pii]",
  "       workspace show DOCUMENT ID [--show-pii]",
  "       workspace edit DOCUMENT ID COLUMN=VALUE ... [--version N]",
  "       workspace import DOCUMENT FILE   (rows.csv or rows.json)",
  "       workspace export DOCUMENT [--format json|csv] [--out FILE] [--archived] [--show-pii | --include-pii]",
  "       workspace archive DOCUMENT ID [--undo]",
  "       workspace delete DOCUMENT ID [--purge-runs | --keep-runs]",
  "  --url URL   (any action) the Agent Server serving the team (langgraphjs dev, a deployment): the documents are in",
  "              its store, and `delete` looks through its threads (the runs there) instead of the runner's",
].join("\n");

/** Each action's positional arguments (`...` takes the rest), boolean flags and flags with a value. */
const ACTIONS: Readonly<Record<string, { args: readonly string[]; min: number; switches: readonly string[]; values: readonly string[] }>> = {
  list: { args: ["document"], min: 0, switches: ["archived", "show-pii"], values: ["status"] },
  show: { args: ["document", "id"], min: 2, switches: ["show-pii"], values: [] },
  edit: { args: ["document", "id", "..."], min: 3, switches: [], values: ["version"] },
  import: { args: ["document", "file"], min: 2, switches: [], values: [] },
  export: { args: ["document"], min: 1, switches: ["archived", "show-pii", "include-pii"], values: ["format", "out"] },
  archive: { args: ["document", "id"], min: 2, switches: ["undo"], values: [] },
  delete: { args: ["document", "id"], min: 2, switches: ["purge-runs", "keep-runs"], values: [] },
};

interface Parsed {
  action: string;
  positional: string[];
  switches: Set<string>;
  values: Map<string, string>;
}

function parse(argv: readonly string[]): Parsed | string {
  const [action, ...rest] = argv;
  const spec = action === undefined ? undefined : ACTIONS[action];
  if (!spec) return action === undefined ? "an action is needed" : `unknown action ${JSON.stringify(action)}`;
  const positional: string[] = [];
  const switches = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (!arg.startsWith("--") || arg === "--") {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.includes("=") ? [arg.slice(2, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg.slice(2), undefined];
    if (spec.switches.includes(name)) switches.add(name);
    else if (spec.values.includes(name)) {
      const value = inline ?? rest[++i];
      if (value === undefined) return `${action}: --${name} needs a value`;
      values.set(name, value);
    } else return `${action}: unknown flag --${name}`;
  }
  const most = spec.args.includes("...") ? Infinity : spec.args.length;
  if (positional.length < spec.min) return `${action}: needs ${spec.args.filter((a) => a !== "...").map((a) => a.toUpperCase()).join(" ")}${spec.args.includes("...") ? " COLUMN=VALUE ..." : ""}`;
  if (positional.length > most) return `${action}: unexpected argument ${JSON.stringify(positional[most])}`;
  if (switches.has("purge-runs") && switches.has("keep-runs")) return "delete: --purge-runs and --keep-runs are one or the other";
  const format = values.get("format");
  if (format !== undefined && format !== "json" && format !== "csv") return `export: --format is json or csv, not ${JSON.stringify(format)}`;
  const version = values.get("version");
  if (version !== undefined && !/^-?\d+$/.test(version)) return `edit: --version is a number, not ${JSON.stringify(version)}`;
  return { action: action!, positional, switches, values };
}

/** A value given as text (a command line, a CSV cell) in the column's type; "" is unset. */
export function coerce(column: ColumnSpec, text: string): unknown {
  if (text === "") return null;
  if (column.type === "number") {
    const number = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text) ? Number(text) : NaN;
    if (Number.isNaN(number)) throw new WorkspaceError(`column ${pyRepr(column.name)} is a number, not ${pyRepr(text)}`);
    if (!Number.isFinite(number)) throw new WorkspaceError(`column ${pyRepr(column.name)} is a finite number, not ${pyRepr(text)}`);
    return number;
  }
  if (column.type === "boolean") {
    if (["true", "yes", "1"].includes(text.toLowerCase())) return true;
    if (["false", "no", "0"].includes(text.toLowerCase())) return false;
    throw new WorkspaceError(`column ${pyRepr(column.name)} is true or false, not ${pyRepr(text)}`);
  }
  return text;
}

const columnOf = (spec: DocumentSpec, name: string) => spec.columns.find((c) => c.name === name);
const idColumnOf = (spec: DocumentSpec) => spec.columns.find((c) => c.id)?.name ?? null;
const unset = (v: unknown) => v === null || v === undefined || v === "";

/** The fields `masked` masks in this row: `id` (when the id column is pii), then its pii columns that hold a value. */
export function maskedFields(spec: DocumentSpec, row: Row): string[] {
  const pii = spec.columns.filter((c) => c.pii).map((c) => c.name);
  const idColumn = idColumnOf(spec);
  return [...(idColumn !== null && pii.includes(idColumn) ? ["id"] : []), ...pii.filter((n) => !unset(row.data[n]))];
}

function rowLine(row: Row): string {
  const values = Object.entries(row.data)
    .map(([k, v]) => `${k}=${pythonJson(v, { ensureAscii: false })}`)
    .join(" ");
  return `${row.id} v${row.version}${row.archived ? " (archived)" : ""} ${values}`.trimEnd();
}

/** One CSV cell as Python's csv.writer writes it (quoted only when it must be). */
function cell(value: unknown): string {
  const text = value === null || value === undefined ? "" : typeof value === "string" ? value : typeof value === "number" ? pythonJson(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The rows as JSON or CSV; masked unless `showPii`, saying which values are masks. */
export function exportRows(spec: DocumentSpec, rows: readonly Row[], format: "json" | "csv", showPii: boolean): string {
  if (format === "json") {
    const shown = rows.map((row) => {
      const marks = showPii ? [] : maskedFields(spec, row);
      return marks.length ? { ...masked(spec, row), [MASKED_KEY]: marks } : row;
    });
    return taskJson(shown) + "\n";
  }
  const names = spec.columns.map((c) => c.name);
  const pii = new Set(showPii ? [] : spec.columns.filter((c) => c.pii).map((c) => c.name));
  const idColumn = idColumnOf(spec);
  const header = [`id${idColumn !== null && pii.has(idColumn) ? MASKED_HEADER : ""}`, ...names.map((n) => (pii.has(n) ? n + MASKED_HEADER : n)), "archived", "version", "created_at", "updated_at"];
  const clash = header.find((h) => h.endsWith(MASKED_HEADER) && columnOf(spec, h) !== undefined);
  if (clash !== undefined) throw new WorkspaceError(`a masked CSV export would head a masked column ${pyRepr(clash)}, the name of another column of ${pyRepr(spec.name)}: export --format json, or with --show-pii`);
  const lines = [header.map(cell).join(",")];
  for (const row of showPii ? rows : rows.map((r) => masked(spec, r))) {
    lines.push([row.id, ...names.map((n) => row.data[n] ?? null), String(row.archived), row.version, row.created_at, row.updated_at].map((v) => cell(typeof v === "boolean" ? String(v) : v)).join(","));
  }
  return lines.join("\n") + "\n";
}

/** RFC 4180 as Python's csv module reads it: quoted cells (with `""`, commas and line breaks in them), rows by line. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let value = "";
  let quoted = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        value += '"';
        i++;
      } else if (c === '"') quoted = false;
      else value += c;
    } else if (c === '"') {
      quoted = true;
      started = true;
    } else if (c === ",") {
      row.push(value);
      value = "";
      started = true;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      if (started || value !== "" || row.length) {
        row.push(value);
        rows.push(row);
      }
      [row, value, started] = [[], "", false];
    } else {
      value += c;
      started = true;
    }
  }
  if (started || value !== "" || row.length) {
    row.push(value);
    rows.push(row);
  }
  return rows;
}

/** A row of an import file: what to write, and the fields the file marks as masked whose mask was left out. */
interface ImportRow {
  item: WriteItem & { data: Record<string, unknown> };
  masked: Set<string>;
}

function readCsv(spec: DocumentSpec, text: string): ImportRow[] {
  const [headers = [], ...records] = parseCsv(text);
  // A header naming a masked column: header -> field (a header that names a column as it is stays that column).
  const masks = new Map<string, string>();
  for (const h of headers) {
    const base = h.endsWith(MASKED_HEADER) ? h.slice(0, -MASKED_HEADER.length) : null;
    if (columnOf(spec, h) === undefined && base && (base === "id" || columnOf(spec, base))) masks.set(h, base);
  }
  return records.map((record) => {
    const cells = new Map<string, string>();
    const maskedHere = new Set<string>();
    headers.forEach((header, n) => {
      if (!header) return; // cells beyond the header
      const value = record[n] ?? "";
      const name = masks.get(header) ?? header;
      if (masks.has(header) && value === MASK) maskedHere.add(name);
      else cells.set(name, value); // what a person typed into a masked column is a value
    });
    const data: Record<string, unknown> = {};
    for (const [name, value] of cells) {
      const column = columnOf(spec, name);
      if (column) {
        const v = coerce(column, value);
        if (v !== null) data[name] = v;
      } else if (!(BUILT_IN as readonly string[]).includes(name)) data[name] = value;
    }
    const item: ImportRow["item"] = { data };
    if (cells.get("id")) item.id = cells.get("id")!;
    if (cells.get("archived")) item.archived = ["true", "1", "yes"].includes(cells.get("archived")!.toLowerCase());
    return { item, masked: maskedHere };
  });
}

function readJson(path: string, text: string): ImportRow[] {
  let loaded: unknown;
  try {
    loaded = JSON.parse(text);
  } catch (error) {
    // Say which file and what an import takes, not only where the parser stopped (as workspace.py does).
    throw new WorkspaceError(`${path}: not JSON (${(error as Error).message}): an import is a .csv file or a JSON list of rows`);
  }
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!Array.isArray(loaded) || !loaded.every(isObject)) throw new WorkspaceError(`${path}: a JSON import is a list of rows (objects)`);
  return loaded.map((row, n) => {
    // not `version`: an import (a restore, too) writes what the file holds
    const hasData = "data" in row;
    const data = hasData ? row.data : row;
    if (!isObject(data)) throw new WorkspaceError(`${path}: row ${n}: its data is an object of columns`);
    const item: ImportRow["item"] = { data: { ...data } };
    if (hasData && "id" in row) item.id = row.id as string;
    if ("archived" in row) {
      if (typeof row.archived !== "boolean") throw new WorkspaceError(`${path}: row ${n}: archived is true or false`);
      item.archived = row.archived;
    }
    const maskedHere = new Set<string>();
    const marks = hasData ? (row[MASKED_KEY] ?? []) : [];
    if (!Array.isArray(marks) || !marks.every((m) => typeof m === "string")) throw new WorkspaceError(`${path}: row ${n}: ${MASKED_KEY} is a list of field names`);
    for (const name of marks) {
      const holder: Record<string, unknown> = name === "id" ? (item as unknown as Record<string, unknown>) : item.data;
      if (holder[name] === MASK) {
        delete holder[name];
        maskedHere.add(name);
      }
    }
    return { item, masked: maskedHere };
  });
}

/** The rows' outcomes, one line each (written: standard output; else standard error); 1 when any was not written. */
function reportResults(results: readonly WriteResult[], io: Io): number {
  let failed = 0;
  for (const r of results) {
    const line = `${r.row}: ${r.outcome}${r.version !== undefined ? ` (version ${r.version})` : ""}${r.message ? `: ${r.message}` : ""}`;
    (r.outcome === "written" ? io.out : io.err)(line);
    if (r.outcome !== "written") failed++;
  }
  return failed ? 1 : 0;
}

async function importRows(workspace: Workspace, spec: DocumentSpec, path: string, io: Io): Promise<number> {
  // A spreadsheet's "CSV UTF-8" starts with a BOM.
  const text = readFileSync(path, "utf8").replace(/^\uFEFF/, "");
  const rows = extname(path).toLowerCase() === ".csv" ? readCsv(spec, text) : readJson(path, text);
  const results: WriteResult[] = [];
  const skipped = new Map<string, number>([["id", 0], ...spec.columns.map((c) => [c.name, 0] as [string, number])]);
  const idColumn = idColumnOf(spec);
  for (const [n, row] of rows.entries()) {
    for (const name of row.masked) skipped.set(name, (skipped.get(name) ?? 0) + 1);
    const addressed = !unset(row.item.id) || (idColumn !== null && !unset(row.item.data[idColumn]));
    if (!addressed && (row.masked.has("id") || (idColumn !== null && row.masked.has(idColumn)))) {
      results.push({ row: `row ${n + 1}`, outcome: "refused", message: "its id is masked in this file (an export without --show-pii), so it addresses no row: nothing written; import a --show-pii export instead" });
      continue;
    }
    results.push(...(await workspace.write(spec.name, [row.item], "human")));
  }
  const cells = [...skipped].filter(([, count]) => count).map(([name, count]) => `${name} (${count})`);
  if (cells.length) io.err(`workspace: ${basename(path)} is a masked export: the masked cells of ${cells.join(", ")} were left as they are, not stored as ${pyRepr(MASK)} (a --show-pii export restores them)`);
  return reportResults(results, io);
}

/** How a row's pii values may be written in a stored run: as they are and JSON-escaped up to 3 times over; values under 4 characters are left out (they would match unrelated runs). */
export function piiNeedles(spec: DocumentSpec, row: Row): string[] {
  const found = new Set<string>();
  for (const c of spec.columns.filter((x) => x.pii)) {
    const value = row.data[c.name];
    if (typeof value !== "string" || value.length < 4) continue;
    let forms = new Set([value]);
    for (let i = 0; i < 3; i++) forms = new Set([...forms, ...[...forms].flatMap((f) => [pythonJson(f).slice(1, -1), pythonJson(f, { ensureAscii: false }).slice(1, -1)])]);
    for (const f of forms) found.add(f);
  }
  return [...found].sort();
}

async function deleteRow(workspace: Workspace, spec: DocumentSpec, id: string, parsed: Parsed, io: Io, runs: RunRecords | undefined): Promise<number> {
  const row = await workspace.row(spec.name, id);
  if (row === null) throw new WorkspaceError(`${pyRepr(spec.name)} has no row ${pyRepr(id)}`);
  const needles = runs ? piiNeedles(spec, row) : [];
  const held = runs && needles.length ? await runs.holding(needles) : [];
  const [purge, keep] = [parsed.switches.has("purge-runs"), parsed.switches.has("keep-runs")];
  if (held.length && !purge && !keep) {
    io.err(`${held.length} stored runs (${runs!.where}) hold pii values of ${pyRepr(id)}: ${held.join(", ")}. Nothing deleted: add --purge-runs to delete them with the row, or --keep-runs to delete the row only`);
    return 2;
  }
  await workspace.delete(spec.name, id);
  io.out(`${id}: deleted`);
  if (held.length && runs) {
    if (purge) await runs.purge(held);
    io.out(`${purge ? "deleted" : "kept"} ${held.length} stored runs holding its pii values (${runs.where}):`);
    io.out("  " + held.join(", "));
  }
  return 0;
}

/** `workspace list|show|edit|import|export|archive|delete ...`; `runs`: the stored runs `delete` also looks through. Resolves to the exit code (2: a refused request). */
export async function workspaceCommand(argv: readonly string[], workspace: Workspace, io: Io, runs?: RunRecords): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.out(WORKSPACE_USAGE);
    return 0;
  }
  const parsed = parse(argv);
  if (typeof parsed === "string") {
    io.err(`workspace: ${parsed}\n\n${WORKSPACE_USAGE}`);
    return 2;
  }
  const [document, id] = parsed.positional;
  const showPii = parsed.switches.has("show-pii") || parsed.switches.has("include-pii");
  try {
    if (parsed.action === "list" && document === undefined) {
      for (const spec of workspace.specs.values()) io.out(`${spec.name}${spec.type ? ` (${spec.type})` : ""}: ${(await workspace.rows(spec.name)).length} rows`);
      return 0;
    }
    const spec = workspace.spec(document!);
    switch (parsed.action) {
      case "list": {
        // `#N`: the row's place among the non-archived rows, the N of watch's `*** (#N listed)`
        // (Firing.position), whatever the filter; an archived row has none: `-` (as workspace.py).
        const places = new Map((await workspace.rows(spec.name)).map((r, n) => [r.id, `#${n + 1}`]));
        for (const row of await workspace.rows(spec.name, { status: parsed.values.get("status") ?? null, archived: parsed.switches.has("archived") })) io.out(`${places.get(row.id) ?? "-"} ${rowLine(showPii ? row : masked(spec, row))}`);
        return 0;
      }
      case "show": {
        const row = await workspace.row(spec.name, id!);
        if (row === null) throw new WorkspaceError(`${pyRepr(spec.name)} has no row ${pyRepr(id)}`);
        io.out(taskJson(showPii ? row : masked(spec, row)));
        return 0;
      }
      case "edit": {
        const data: Record<string, unknown> = {};
        for (const pair of parsed.positional.slice(2)) {
          const at = pair.indexOf("=");
          const column = at < 0 ? undefined : columnOf(spec, pair.slice(0, at));
          if (!column) throw new WorkspaceError(`${pyRepr(pair)}: give COLUMN=VALUE with a column of ${pyRepr(spec.name)}`);
          data[column.name] = coerce(column, pair.slice(at + 1));
        }
        const version = parsed.values.get("version");
        return reportResults(await workspace.write(spec.name, [{ id: id!, data, ...(version !== undefined ? { version: Number(version) } : {}) }], "human"), io);
      }
      case "import":
        return await importRows(workspace, spec, parsed.positional[1]!, io);
      case "export": {
        const text = exportRows(spec, await workspace.rows(spec.name, { archived: parsed.switches.has("archived") }), parsed.values.get("format") === "csv" ? "csv" : "json", showPii);
        const out = parsed.values.get("out");
        if (out && showPii && spec.columns.some((c) => c.pii)) {
          // Its pii values unmasked: as private as the store's own files (an existing file's mode too).
          writeFileSync(out, text, { encoding: "utf8", mode: 0o600 });
          chmodSync(out, 0o600);
        } else if (out) writeFileSync(out, text, "utf8");
        else io.out(text.slice(0, -1));
        return 0;
      }
      case "archive":
        return reportResults([await workspace.archive(spec.name, id!, !parsed.switches.has("undo"))], io);
      default:
        return await deleteRow(workspace, spec, id!, parsed, io, runs);
    }
  } catch (error) {
    // A refused request, a file that is not JSON, a file that cannot be read.
    if (error instanceof WorkspaceError || error instanceof SyntaxError || (error as NodeJS.ErrnoException).code !== undefined) {
      io.err(`workspace: ${(error as Error).message}`);
      return 2;
    }
    throw error;
  }
}

// --- watch ---------------------------------------------------------------------------------

/** Where `watch` posts each `notify` trigger that fires (JSON), besides its line. */
export const WEBHOOK_ENV = "ENVELOPE_WORKSPACE_WEBHOOK_URL";
/** The runner's exit code for a run refused before it started (inputs, flags, environment). */
export const RUN_NOT_STARTED = 2;

export const WATCH_USAGE = [
  "usage: watch [--url URL] [--once] [--interval S] [-- RUN OPTIONS]   (RUN OPTIONS: what `run` takes, e.g. --inputs JSON)",
  "  --url URL   the Agent Server serving the team: the triggers are read from its store, and each run starts there",
  "              on a new thread with the run options --inputs, --INPUT and --model-context (checked first, as `run`",
  "              checks them) and the team's recursion limit; --thread and --interactive are refused (reviewed there)",
].join("\n");

/**
 * `workspace <doc>: row <id> has <column>=<status>`. An id that is pii is masked and the row
 * named by its place in `workspace list`, where its other values show (a hash of the id would
 * name it nowhere a person can look).
 */
function firedLine(spec: DocumentSpec, firing: Firing): string {
  const pii = spec.columns.some((c) => c.id && c.pii);
  return `workspace ${firing.document}: row ${pii ? `${MASK} (#${firing.position} listed)` : firing.row.id} has ${firing.trigger.column}=${firing.trigger.status}`;
}

/** What a `notify` trigger prints: the document, the row and the pair (no pii). */
export function notifyLine(spec: DocumentSpec, firing: Firing): string {
  return `${firedLine(spec, firing)} (notify)`;
}

async function post(url: string, body: unknown, io: Io, fetcher: typeof fetch): Promise<void> {
  try {
    const answer = await fetcher(url, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" }, signal: AbortSignal.timeout(10_000) });
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
  } catch (error) {
    // A bad URL or a failed post never stops watch.
    io.err(`watch: the webhook ${WEBHOOK_ENV} failed: ${(error as Error).message}`);
  }
}

const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** Where a triggered run's stop signals come from, and how the process then ends (the process's own; a test's). */
export interface Stops {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  end(signal: NodeJS.Signals): void;
}

const PROCESS_STOPS: Stops = {
  on: (signal, listener) => process.on(signal, listener),
  off: (signal, listener) => process.off(signal, listener),
  // With no listener left, the signal again ends the process as it would have.
  end: (signal) => process.kill(process.pid, signal),
};

/**
 * Evaluate the triggers once: print (and post) each `notify`, run the team once with the rows
 * of every `run` trigger that fired. Fired triggers are recorded first, so a status change
 * fires once even when the run fails; a run refused before it started (exit 2) leaves them to
 * fire again.
 */
export async function watchOnce(
  workspace: Workspace,
  runTeam: () => Promise<number>,
  io: Io,
  env: Readonly<Record<string, string | undefined>> = process.env,
  fetcher: typeof fetch = fetch,
  stops: Stops = PROCESS_STOPS,
): Promise<number> {
  const firings = await workspace.evaluate();
  const runs: Firing[] = [];
  for (const firing of firings) {
    const spec = workspace.spec(firing.document);
    if (firing.trigger.action !== "notify") {
      runs.push(firing);
      continue;
    }
    io.out(notifyLine(spec, firing));
    const url = env[WEBHOOK_ENV];
    if (url) {
      const pii = new Set(spec.columns.filter((c) => c.pii).map((c) => c.name));
      const data = Object.fromEntries(Object.entries(firing.row.data).filter(([k]) => !pii.has(k)));
      await post(url, { document: firing.document, column: firing.trigger.column, status: firing.trigger.status, row: { ...masked(spec, firing.row), data } }, io, fetcher);
    }
  }
  if (!runs.length) return 0;
  for (const f of runs) io.out(`${firedLine(workspace.spec(f.document), f)}: running the team`);
  TRIGGERED.splice(0, TRIGGERED.length, ...runs.map((f) => ({ document: f.document, trigger: { column: f.trigger.column, status: f.trigger.status }, row: f.row })));
  // Ctrl-C or a stop (SIGTERM) before the run ended: the triggers stay due, as a crash leaves
  // them (workspace.py's KeyboardInterrupt), then the process ends as the signal ends it.
  const stopped = (signal: NodeJS.Signals) => {
    for (const s of STOP_SIGNALS) stops.off(s, stopped);
    void workspace.unfire(runs).finally(() => stops.end(signal));
  };
  for (const s of STOP_SIGNALS) stops.on(s, stopped);
  let code: number;
  try {
    code = await runTeam();
  } catch (error) {
    // A crash before the run ended: the triggers stay due.
    await workspace.unfire(runs);
    throw error;
  } finally {
    TRIGGERED.length = 0;
    for (const s of STOP_SIGNALS) stops.off(s, stopped);
  }
  if (code === RUN_NOT_STARTED) {
    await workspace.unfire(runs);
    io.err("watch: the run did not start (exit 2): these triggers fire again on the next check");
  }
  return code;
}

/** `watch [--once] [--interval S] [-- RUN OPTIONS]`: options before `--` that watch does not know go to the runs too. */
export async function watchCommand(argv: readonly string[], workspace: Workspace, runTeam: (runArgs: string[]) => Promise<number>, io: Io): Promise<number> {
  const cut = argv.includes("--") ? argv.indexOf("--") : argv.length;
  let once = false;
  let interval = 60;
  const runArgs: string[] = [];
  const own = argv.slice(0, cut);
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]!;
    if (arg === "--help" || arg === "-h") {
      io.out(WATCH_USAGE);
      return 0;
    }
    if (arg === "--once") once = true;
    else if (arg === "--interval" || arg.startsWith("--interval=")) {
      const text = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : own[++i];
      interval = Number(text);
      if (text === undefined || !Number.isFinite(interval) || interval <= 0) {
        io.err(`watch: --interval is a number of seconds above 0, not ${JSON.stringify(text ?? "")}\n\n${WATCH_USAGE}`);
        return 2;
      }
    } else runArgs.push(arg);
  }
  runArgs.push(...argv.slice(cut + 1));
  let code = 0;
  for (;;) {
    code = (await watchOnce(workspace, () => runTeam(runArgs), io)) || code;
    if (once) return code;
    await new Promise((done) => setTimeout(done, interval * 1000));
  }
}

/**
 * The runner's `workspace ...` and `watch ...` (argv[0]): on the runner's store, or with
 * `--url URL` on the store of the Agent Server serving the team, where `delete` looks through
 * the server's threads and each `watch` run starts (run_client.py's workspace_command).
 * `runHere`: the runner's own `run` with these options.
 */
export async function peopleCommand(argv: readonly string[], team: ServedTeam & Pick<TeamSpec, "workspace">, io: Io, runHere: (runArgs: string[]) => Promise<number>, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  const [command, ...args] = argv;
  const { url, rest, problem } = urlOption(args);
  if (problem) {
    io.err(`${command}: ${problem}\n\n${command === "watch" ? WATCH_USAGE : WORKSPACE_USAGE}`);
    return 2;
  }
  const client = url === null ? null : await serverClient(url);
  return peopleOn(command!, rest, team, io, runHere, env, url, client);
}

/** peopleCommand once the store is chosen (`client`: the server's, a test's fake). */
export async function peopleOn(command: string, args: readonly string[], team: ServedTeam & Pick<TeamSpec, "workspace">, io: Io, runHere: (runArgs: string[]) => Promise<number>, env: Readonly<Record<string, string | undefined>>, url: string | null, client: ServerClient | null): Promise<number> {
  const store = client ? new ServerStore(client) : openWorkspaceStore(env);
  const workspace = new Workspace(team.workspace ?? [], store);
  const runsDir = env.ENVELOPE_RUNS_DIR || ".langgraph_runs";
  const database = env[DATABASE_ENV];
  try {
    if (command === "watch") return await watchCommand(args, workspace, client ? (runArgs) => runOnServer(client, team, runArgs, url!, io, env) : runHere, io);
    return await workspaceCommand(args, workspace, io, client ? new ServerThreads(url!, client) : database ? new DatabaseRuns(database, runsDir, team.slug) : new SavedRuns(runsDir));
  } catch (error) {
    // The server down or the URL wrong: say so in a line, not a stack (run_client.py's unreachable).
    if (client && (error instanceof TypeError || (error as { cause?: { code?: string } }).cause?.code !== undefined)) {
      io.err(`cannot reach the Agent Server at ${url} (${(error as Error).message})`);
      return 2;
    }
    throw error;
  } finally {
    // A database's connections closed, so the process can end.
    if (store instanceof DatabaseStore) await store.close();
  }
}
