// Shared by the server tests: start `envelope serve` in-process on a free port with its log
// captured, and call it through one function that checks every answer against the server's
// own /openapi.json (status documented, media type documented, body valid against the schema).
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { Writable } from "node:stream";
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect } from "vitest";
import { createServer, type EnvelopeServer } from "../../src/serve/server.js";
import { resolveSettings, type ServeSettings } from "../../src/serve/settings.js";
import { ROOT } from "../helpers/cli.js";

export const EXAMPLE_PATH = join(ROOT, "examples/support-tier.envelope.json");
export const EXAMPLE = readFileSync(EXAMPLE_PATH);

export interface Served {
  url: string;
  server: EnvelopeServer;
  /** Every log line the server wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The raw log text, for scans (tokens, bodies). */
  logText: () => string;
  close(): Promise<void>;
}

export async function serve(overrides: Partial<ServeSettings> = {}): Promise<Served> {
  const settings = { ...resolveSettings({}), port: 0, workers: 1, logLevel: "info" as const, ...overrides };
  let text = "";
  const logs: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      for (const line of chunk.toString().split("\n").filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  const server = await createServer(settings, { logStream: stream });
  const url = (await server.listen()).replace(/\/$/, "");
  return { url, server, logs, logText: () => text, close: () => server.close() };
}

export interface Answer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

type OpenApi = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };

/** Checks answers against the OpenAPI document the server serves. */
export class ContractChecker {
  readonly violations: string[] = [];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ReturnType<Ajv2020["compile"]>>();

  constructor(readonly doc: OpenApi) {
    this.ajv.addSchema(doc as object, "openapi.json");
  }

  check(method: string, path: string, a: Answer): void {
    const where = `${method} ${path} → ${a.status}`;
    const item = this.doc.paths[path];
    if (!item) return void this.violations.push(`${where}: path not in openapi.json`);
    const op = item[method === "HEAD" ? "get" : method.toLowerCase()];
    if (!op) return void this.violations.push(`${where}: method not in openapi.json`);
    const status = String(a.status);
    const response = op.responses[status] ?? op.responses.default;
    if (!response) return void this.violations.push(`${where}: status not documented`);
    if (method === "HEAD" || !response.content) return;
    const type = (a.headers.get("content-type") ?? "").split(";")[0]!.trim();
    if (!Object.hasOwn(response.content, type)) return void this.violations.push(`${where}: content-type ${type} not documented (${Object.keys(response.content).join(", ")})`);
    if (!type.endsWith("json")) return;
    const pointer = `openapi.json#/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method === "HEAD" ? "get" : method.toLowerCase()}/responses/${op.responses[status] ? status : "default"}/content/${type.replace(/~/g, "~0").replace(/\//g, "~1")}/schema`;
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: pointer });
      this.validators.set(pointer, validate);
    }
    if (!validate(a.json)) this.violations.push(`${where}: body does not match the schema: ${this.ajv.errorsText(validate.errors)}`);
  }
}

const checkers = new WeakMap<Served, ContractChecker>();

export async function contractOf(s: Served): Promise<ContractChecker> {
  let c = checkers.get(s);
  if (!c) {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as OpenApi;
    c = new ContractChecker(doc);
    checkers.set(s, c);
  }
  return c;
}

export interface CallOptions {
  body?: Uint8Array | string;
  headers?: Record<string, string>;
  /** Skip the contract check (for answers Node's HTTP layer gives, like 408). */
  unchecked?: boolean;
}

/** One request; the answer is checked against openapi.json, and any violation fails the test. */
export async function call(s: Served, method: string, pathAndQuery: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.body !== undefined ? { "content-type": "application/json" } : {}), ...options.headers };
  const res = await fetch(s.url + pathAndQuery, { method, headers, ...(options.body !== undefined ? { body: options.body } : {}) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString("utf8");
  let json: unknown;
  if ((res.headers.get("content-type") ?? "").includes("json") && text) json = JSON.parse(text);
  const answer: Answer = { status: res.status, headers: res.headers, bytes, text, json };
  if (!options.unchecked) {
    const contract = await contractOf(s);
    const before = contract.violations.length;
    contract.check(method, pathAndQuery.split("?")[0]!, answer);
    expect(contract.violations.slice(before), `${method} ${pathAndQuery}`).toEqual([]);
  }
  return answer;
}

/** Bytes written to the server's socket as they are; everything it answers until it closes. */
export function rawRequest(s: Served, request: string): Promise<string> {
  const url = new URL(s.url);
  const sock = connect(Number(url.port), url.hostname);
  const text = new Promise<string>((resolve) => {
    let data = "";
    sock.on("data", (d) => (data += d.toString()));
    sock.on("close", () => resolve(data));
    sock.on("error", () => resolve(data));
  });
  sock.write(request);
  return text;
}

export function post(s: Served, pathAndQuery: string, body: Uint8Array | string, headers: Record<string, string> = {}): Promise<Answer> {
  return call(s, "POST", pathAndQuery, { body, headers });
}

/** A team of `agents` agents in a 10-ary hierarchy: about 290 bytes per agent, slow to export when large. */
export function bigTeam(agents: number, description = "A large team."): string {
  const list = Array.from({ length: agents }, (_, i) => ({
    key: `agent-${i}`,
    name: `Agent ${i}`,
    title: `Specialist ${i}`,
    role: i === 0 ? "manager" : "specialist",
    model: "anthropic:claude-sonnet-4-5",
    prompt: `You are agent ${i}. Work and report to your lead.`,
    ...(i === 0 ? {} : { reportsToKey: `agent-${Math.floor((i - 1) / 10)}` }),
  }));
  return JSON.stringify({ $schema: "https://schema.openenvelope.org/team/v1.json", name: "Big Team", slug: "big-team", version: "1.0.0", description, visibility: "private", agents: list }, null, 2);
}
