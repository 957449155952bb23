// The real-path harness (issue 13 §1): an exported team run the way its README says, every
// agent sent to our scripted model server by environment variables alone. Everything here
// looks from the outside — the definition, the command line, the environment and the HTTP
// requests — so it holds for any rewrite of the generated code.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { writeDirectory } from "../../src/export/sinks/directory.js";
import type { PythonEnv } from "../e2e/python-env.js";
import { exportFile } from "../helpers/export.js";
import { type ChatRequest, instanceOf, type JsonSchema, type Reply, textOf } from "./model-server.js";

/** The definition as JSON (only what the harness reads). */
export interface Definition {
  agents: Array<{ key: string; name: string; prompt?: string }>;
  inputs?: Record<string, { type?: string; required?: boolean; enum?: string[]; default?: unknown }>;
  requiredSecrets?: string[];
  requiredVariables?: string[];
  pipeline?: Array<{ key: string; agentKey: string; label?: string; dependsOn?: string[] }>;
}

/** The most a real-path run may take, where its definition does not say (ten minutes). */
export const ROOMY_RUN_MS = 600_000;

/**
 * The definition at `path` as the real path exports it: one that sets no timeout.runMs gets
 * ROOMY_RUN_MS, in a copy of the same name. The default 30 s is spent by a loaded 2-core
 * machine's processes (CrewAI's above all), and the deadline is not what these files test:
 * test/realpath/crewai.test.ts tests it with its own runMs.
 */
export function roomyDefinition(path: string): string {
  const text = readFileSync(path, "utf8");
  const key = `${path}\n${text}`; // a test may write another definition at the same path
  const made = roomyCopies.get(key);
  if (made !== undefined) return made;
  const def = JSON.parse(text) as { timeout?: { runMs?: number } };
  let copy = path;
  if (def.timeout?.runMs === undefined) {
    copy = join(mkdtempSync(join(tmpdir(), "envelope-realpath-def-")), basename(path));
    writeFileSync(copy, JSON.stringify({ ...def, timeout: { ...def.timeout, runMs: ROOMY_RUN_MS } }));
  }
  roomyCopies.set(key, copy);
  return copy;
}
/** One copy a definition, however many projects a test file exports from it (by path and text). */
const roomyCopies = new Map<string, string>();

/** A definition exported for `target` into `dir` (roomyDefinition): its README and its console script. */
export async function exportedProject<D = Definition>(path: string, target: string, dir: string): Promise<{ def: D; readme: string; pkg: string }> {
  await writeDirectory(exportFile(roomyDefinition(path), target), dir);
  const readme = readFileSync(join(dir, "README.md"), "utf8");
  return { def: JSON.parse(readFileSync(path, "utf8")) as D, readme, pkg: /^uv run (\S+)/m.exec(readme)![1]! };
}

/** Known, distinctive values for every secret, variable and required input. */
export function runValues(def: Definition): { env: Record<string, string>; inputs: Record<string, unknown> } {
  const env: Record<string, string> = {};
  for (const name of def.requiredSecrets ?? []) env[name] = `sec-${name.toLowerCase()}-7q`;
  for (const name of def.requiredVariables ?? []) env[name] = `var-${name.toLowerCase()}`;
  // Own properties only: input keys such as "__proto__" are data here.
  const inputs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, spec] of Object.entries(def.inputs ?? {})) {
    if (!spec.required) continue;
    const type = spec.type ?? "string";
    inputs[key] = spec.enum?.length ? spec.enum[0] : type === "number" ? 42 : type === "boolean" ? true : type === "array" ? [`in-${key}`] : type === "object" ? { k: `in-${key}` } : `in-${key} {x} "q"`;
  }
  return { env, inputs };
}

/** runValues, and the run's environment with every model sent to the server at `baseUrl` (OpenAI wire format). */
export function serverRun(def: Definition, baseUrl: string): { env: Record<string, string>; inputs: Record<string, unknown> } {
  const { env, inputs } = runValues(def);
  return { env: { ...env, MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "dummy" }, inputs };
}

/** Python's json.dumps (", " and ": " separators, non-ASCII escaped): how non-string inputs reach prompts. */
export function pyJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pyJson).join(", ")}]`;
  if (value !== null && typeof value === "object") return `{${Object.entries(value).map(([k, v]) => `${pyJson(k)}: ${pyJson(v)}`).join(", ")}}`;
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The prompt as the README says it reaches the model: each `{{NAME}}` with a value replaced
 * (variables and secrets, then inputs by key or upper-cased name; non-strings as JSON),
 * everything else byte for byte.
 */
export function expectedPrompt(raw: string, def: Definition, env: Record<string, string>, inputs: Record<string, unknown>): string {
  const values = new Map<string, string>();
  const keys = Object.keys(def.inputs ?? {});
  const all = new Map<string, unknown>([...keys.flatMap((k): Array<[string, unknown]> => (def.inputs![k]!.default !== undefined ? [[k, def.inputs![k]!.default]] : [])), ...Object.entries(inputs)]);
  const targets = new Map<string, string>(keys.map((k) => [k, k]));
  for (const k of keys) {
    const ref = k.toUpperCase().replace(/[^A-Z0-9_]/g, "_");
    if (!targets.has(ref)) targets.set(ref, k);
  }
  for (const [name, key] of targets) if (all.has(key)) values.set(name, typeof all.get(key) === "string" ? (all.get(key) as string) : pyJson(all.get(key)));
  for (const name of [...(def.requiredSecrets ?? []), ...(def.requiredVariables ?? [])]) if (name in env) values.set(name, env[name]!);
  // A lone surrogate in a definition is read as U+FFFD (the model's documented reading).
  const wellFormed = raw.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
  return wellFormed.replace(/\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g, (m, name: string) => values.get(name) ?? m);
}

export const marker = (n: number): string => `rp-${n}-mk`;
const MARKER = /rp-(\d+)-mk/g;

/** Every marker in a text, as response numbers. */
export function markersIn(text: string): number[] {
  return [...text.matchAll(MARKER)].map((m) => Number(m[1]));
}

export interface Exchange {
  n: number;
  request: ChatRequest;
  reply: Reply;
}

/**
 * The default script: structured output gets an instance of its schema (arrays of
 * `records` items, strings carrying the response's marker); a forced tool call calls the
 * offered record/result tool; delegation tools are used once per coworker; else a final
 * answer in CrewAI's ReAct spelling (harmless for LangChain).
 */
export function scriptedReply(request: ChatRequest, n: number, items: number, httpCalls: ReadonlyArray<{ method: string; url: string }> = []): Reply {
  const mk = marker(n);
  // Scripted outbound requests, in order, by whoever holds the http_request tool.
  if (request.tools?.some((t) => t.function.name === "http_request")) {
    const made = request.messages.flatMap((m) => (m.tool_calls ?? []).filter((c) => c.function.name === "http_request").map((c) => c.function.arguments));
    const next = httpCalls.find((call) => !made.some((args) => args.includes(JSON.stringify(call.url))));
    if (next) return { toolCalls: [{ name: "http_request", arguments: { method: next.method, url: next.url } }] };
  }
  const schema = request.response_format?.json_schema?.schema ?? promptedSchema(request);
  if (schema) return { json: instanceOf(schema, mk, schema, "", items) };
  const tools = request.tools ?? [];
  const used = new Set(request.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => `${c.function.name}:${c.function.arguments}`)));
  // CrewAI's manager: one delegation per coworker named in the tool's description.
  const delegate = tools.find((t) => t.function.name === "delegate_work_to_coworker");
  if (delegate) {
    const names = /coworkers: (.*)/.exec(delegate.function.description ?? "")?.[1]?.split(", ") ?? [];
    const asked = request.messages.flatMap((m) => (m.tool_calls ?? []).filter((c) => c.function.name === delegate.function.name).map((c) => (JSON.parse(c.function.arguments) as { coworker?: string }).coworker));
    const next = names.find((name) => !asked.includes(name));
    if (next !== undefined) return { toolCalls: [{ name: delegate.function.name, arguments: { task: `task for ${next} ${mk}`, context: `context ${mk}`, coworker: next } }] };
  }
  // Sub-teams (CrewAI's delegate_to_team) and LangGraph's supervisors (ask_<agent>): once each.
  const once = tools.filter((t) => t.function.name === "delegate_to_team" || (!delegate && t.function.name.startsWith("ask_")));
  for (const tool of once) {
    if (![...used].some((u) => u.startsWith(`${tool.function.name}:`))) return { toolCalls: [{ name: tool.function.name, arguments: { task: `task ${mk}` } }] };
  }
  // A forced tool call: OpenAI's "required" or a named function, Mistral's "any".
  if (request.tool_choice === "required" || request.tool_choice === "any" || (typeof request.tool_choice === "object" && request.tool_choice !== null)) {
    const named = typeof request.tool_choice === "object" ? (request.tool_choice as { function?: { name?: string } }).function?.name : undefined;
    // Unnamed: the answer tool, not the agent's own tools (HTTP, reports, workspace documents).
    const own = (name: string) => name === "http_request" || name.startsWith("ask_") || /^(list|read|write)_\w+_rows?$/.test(name);
    const result = tools.find((t) => t.function.name === named) ?? tools.find((t) => !own(t.function.name)) ?? tools[0];
    if (result) {
      const params = (result.function.parameters ?? {}) as JsonSchema;
      return { toolCalls: [{ name: result.function.name, arguments: instanceOf(params, mk, params, "", items) }] };
    }
  }
  return { text: `Final Answer: answer ${mk}` };
}

/** The schema CrewAI's converter asks for in words when the client has no response_format (LiteLLM). */
function promptedSchema(request: ChatRequest): JsonSchema | undefined {
  const system = systemText(request);
  const at = system.indexOf("according to the following OpenAPI schema: ");
  if (at < 0) return undefined;
  const start = system.indexOf("{", at);
  let depth = 0;
  let inString = false;
  for (let i = start; i < system.length; i++) {
    const c = system[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      const doc = JSON.parse(system.slice(start, i + 1)) as { json_schema?: { schema?: JsonSchema } } & JsonSchema;
      return doc.json_schema?.schema ?? doc;
    }
  }
  return undefined;
}

export interface Invocation {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the team's console-script entry point (`<pkg>` = `<pkg>.main:run`) with `args`. */
export function runTeam(env: PythonEnv, dir: string, pkg: string, args: string[], extraEnv: Record<string, string>, timeoutMs = 240_000): Promise<Invocation> {
  // The e2e suites install projects of the same names into this environment: make sure
  // this project's copy (PYTHONPATH) is the one imported.
  const src = join(dir, "src");
  const launcher = `import sys; sys.argv[0] = ${JSON.stringify(pkg)}; import ${pkg} as p; assert p.__file__.startswith(${JSON.stringify(src)}), p.__file__; from ${pkg}.main import run; sys.exit(run())`;
  return runInProject(env, dir, env.python, ["-c", launcher, ...args], extraEnv, timeoutMs);
}

/**
 * Runs `command` (the environment's python, or a script in its bin folder such as `crewai`)
 * in the project the way runTeam does: cwd the project, HOME and XDG_DATA_HOME under
 * `<dir>/.home`, PYTHONPATH its `src`, telemetry off.
 */
export function runInProject(env: PythonEnv, dir: string, command: string, args: string[], extraEnv: Record<string, string>, timeoutMs = 240_000): Promise<Invocation> {
  const home = join(dir, ".home");
  mkdirSync(home, { recursive: true });
  const src = join(dir, "src");
  const child = spawn(command, args, {
    cwd: dir,
    env: {
      PATH: `${env.bin}:${process.env.PATH}`,
      HOME: home,
      XDG_DATA_HOME: join(home, "data"),
      PYTHONPATH: src,
      PYTHONDONTWRITEBYTECODE: "1",
      NO_COLOR: "1",
      // Telemetry and version checks off: the run must reach nothing but our server.
      CREWAI_DISABLE_TELEMETRY: "true",
      CREWAI_DISABLE_TRACKING: "true",
      CREWAI_TRACING_ENABLED: "false",
      CREWAI_DISABLE_VERSION_CHECK: "true",
      OTEL_SDK_DISABLED: "true",
      LANGSMITH_TRACING: "false",
      LANGCHAIN_TRACING_V2: "false",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** The README's run command for this definition: required inputs as flags, the rest in a file. */
export function runArgs(dir: string, readme: string, inputs: Record<string, unknown>): string[] {
  const command = /```sh\nuv run \S+(.*)\n/.exec(readme.slice(readme.indexOf("## Run")))?.[1] ?? "";
  const flags = [...command.matchAll(/(--[a-z0-9-]+) VALUE/g)].map((m) => m[1]!);
  const args: string[] = [];
  const rest = new Map(Object.entries(inputs));
  for (const flag of flags) {
    const key = Object.keys(inputs).find((k) => `--${k.replace(/_/g, "-")}` === flag);
    if (key === undefined) continue;
    const value = inputs[key];
    args.push(flag, typeof value === "string" ? value : JSON.stringify(value));
    rest.delete(key);
  }
  if (rest.size) {
    writeFileSync(join(dir, "inputs.json"), JSON.stringify(Object.fromEntries(rest)));
    args.push("--inputs", "@inputs.json");
  }
  return args;
}

/** Fills a decisions file: per gate the first `approve` records approved, the rest skipped. */
export function decide(file: string, approveCount: (gate: string) => number, verbs: (gate: string) => { approve: string; other: string }): Record<string, { approved: string[]; left: string[] }> {
  // CrewAI: {"gates": {gate: {"decisions": [...]}}}; LangGraph: {gate: [...]} (fields nested).
  const doc = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const byGate = (doc.gates ? Object.fromEntries(Object.entries(doc.gates as Record<string, { decisions: unknown[] }>).map(([g, v]) => [g, v.decisions])) : doc) as Record<string, Array<Record<string, unknown>>>;
  const chosen: Record<string, { approved: string[]; left: string[] }> = {};
  for (const [gate, decisions] of Object.entries(byGate)) {
    const k = approveCount(gate);
    const { approve, other } = verbs(gate);
    chosen[gate] = { approved: [], left: [] };
    decisions.forEach((d, i) => {
      // A gate without a `skip` action gets every record approved (other === approve).
      const approved = i < k || other === approve;
      d.action = approved ? approve : other;
      const { record: _r, action: _a, feedback: _f, ...fields } = d;
      chosen[gate]![approved ? "approved" : "left"].push(...stringsIn(fields));
    });
  }
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return chosen;
}

/** Every string with a marker inside a JSON value. */
function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return markersIn(value).length ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return [];
}

export function systemText(request: ChatRequest): string {
  return request.messages.filter((m) => m.role === "system").map((m) => textOf(m.content)).join("\n");
}

export function userText(request: ChatRequest): string {
  return request.messages.filter((m) => m.role === "user").map((m) => textOf(m.content)).join("\n");
}

/** Where `[[envelope-` occurs in a text: up to `max` excerpts (empty when nowhere). */
export function envelopeMarkers(text: string, max = 5): string[] {
  const found: string[] = [];
  for (let at = text.indexOf("[[envelope-"); at >= 0 && found.length < max; at = text.indexOf("[[envelope-", at + 1)) {
    found.push(text.slice(at, at + 60).split("\n")[0]!);
  }
  return found;
}

/** Every string inside a JSON value, one per line: what a dumped event or log says. */
export function jsonStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(jsonStrings);
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...jsonStrings(v)]);
  return [];
}

/**
 * A recording HTTP proxy on 127.0.0.1 (HTTPS_PROXY / HTTP_PROXY) that answers every plain
 * request itself with `body` and refuses every CONNECT: nothing is ever forwarded.
 */
export async function recordingProxy(body = "answered by the realpath proxy"): Promise<{ url: string; hosts: string[]; urls: string[]; server: Server }> {
  const hosts: string[] = [];
  const urls: string[] = [];
  const server = createServer((req, res) => {
    hosts.push(new URL(req.url ?? "", "http://x").host);
    urls.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    res.end(body);
  });
  server.on("connect", (req, socket) => {
    hosts.push(req.url ?? "");
    socket.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hosts, urls, server };
}

/** The environment that sends outbound HTTP to `proxyUrl` and model calls straight to 127.0.0.1. */
export function proxyEnv(proxyUrl: string): Record<string, string> {
  return { HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl, https_proxy: proxyUrl, http_proxy: proxyUrl, NO_PROXY: "127.0.0.1,localhost", no_proxy: "127.0.0.1,localhost" };
}
