// Array and object outputs on the real path (issue 14, "Typed outputs survive"): a team
// whose outputs are `type: array` / `type: object` (no item or property schema) is run
// against the scripted server through CrewAI's OpenAI provider. What the server receives
// as `response_format` must be a schema OpenAI's strict structured outputs accept and that
// can carry content (not `items: {}`, not a closed object with no properties), and the
// arrays and objects the server answers with must come out of the run's result intact.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { decide, type Definition, type Exchange, exportedProject, marker, runArgs, runTeam, scriptedReply, serverRun } from "./harness.js";
import { type JsonSchema, startModelServer, type ModelServer } from "./model-server.js";

type TypedDef = Definition & {
  outputs?: Record<string, { type?: string }>;
  gates?: Array<{ name: string; trigger: string; thresholdCount?: number }>;
};

const FIXTURES = [
  // pipeline, gates, two array outputs
  { name: "parallel-gates", target: "crewai" },
  // hierarchy, one object output
  { name: "chargeback-responder", target: "crewai" },
];

/** JSON Schema keywords OpenAI's strict structured outputs accept (anything else is refused). */
const STRICT_KEYWORDS = new Set([
  "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref", "$defs",
  "description", "title", "default",
  "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
]);
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

/** Why OpenAI's strict mode would refuse `schema` (empty when it would accept it). */
function strictProblems(schema: JsonSchema, path = "$"): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(schema)) if (!STRICT_KEYWORDS.has(key)) problems.push(`${path}: ${key} is not supported in strict mode`);
  if (typeof schema.format === "string" && !STRICT_FORMATS.has(schema.format)) problems.push(`${path}: format ${schema.format}`);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type === undefined ? [] : [schema.type as string];
  if (schema.default !== undefined && schema.default !== null && types.length && !types.some((t) => (t === "integer" ? "number" : t) === (Array.isArray(schema.default) ? "array" : typeof schema.default)))
    problems.push(`${path}: default ${JSON.stringify(schema.default)} is no ${types.join("/")}`);
  if (!types.length && !("anyOf" in schema) && !("$ref" in schema) && !("enum" in schema) && !("const" in schema)) problems.push(`${path}: no type`);
  if (types.includes("object")) {
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    if (schema.additionalProperties !== false) problems.push(`${path}: additionalProperties is not false`);
    const required = new Set((schema.required ?? []) as string[]);
    for (const k of Object.keys(props)) if (!required.has(k)) problems.push(`${path}: ${k} is not required`);
    for (const [k, v] of Object.entries(props)) problems.push(...strictProblems(v, `${path}.${k}`));
  }
  if (types.includes("array")) {
    if (schema.items === undefined) problems.push(`${path}: array without items`);
    else problems.push(...strictProblems(schema.items as JsonSchema, `${path}[]`));
  }
  for (const [i, option] of ((schema.anyOf ?? []) as JsonSchema[]).entries()) problems.push(...strictProblems(option, `${path}|${i}`));
  for (const [k, v] of Object.entries((schema.$defs ?? {}) as Record<string, JsonSchema>)) problems.push(...strictProblems(v, `${path}.$defs.${k}`));
  return problems;
}

/** Whether a property's schema can carry arbitrary content: JSON text, typed items, or declared properties. */
function carriesContent(schema: JsonSchema): boolean {
  const options = (schema.anyOf as JsonSchema[] | undefined)?.filter((o) => o.type !== "null");
  if (options) return options.length > 0 && options.every(carriesContent);
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== "null") : schema.type;
  if (type === "string") return true;
  if (type === "array") return typeof (schema.items as JsonSchema | undefined)?.type === "string";
  if (type === "object") return Object.keys((schema.properties ?? {}) as object).length > 0;
  return false;
}

/** Whether the schema asks for a string (OpenAI's SDK keeps `anyOf [string, null]`, CrewAI's converter strips the null). */
function asksForText(schema: JsonSchema): boolean {
  return schema.type === "string" || ((schema.anyOf ?? []) as JsonSchema[]).some((o) => o.type === "string");
}

/** The content the script answers with for an array/object output (nested, so nothing is flattened). */
function contentOf(kind: string, key: string, n: number): unknown {
  const mk = marker(n);
  return kind === "array"
    ? [{ item: `${key} 1 ${mk}`, notes: ["a", "b"] }, `${key} 2 ${mk}`, 3]
    : { summary: `${key} ${mk}`, fields: { receipt: [1, 2], shipped: true } };
}

const DESCRIBE = [
  "import importlib, json, sys",
  "from crewai.utilities.pydantic_schema_utils import generate_model_description",
  "team = importlib.import_module(sys.argv[1] + '.team')",
  "print(json.dumps(generate_model_description(team.TeamResult)))",
].join("\n");

const gate = e2eGate();

describe.runIf(gate.run)("array and object outputs through CrewAI's strict response_format", () => {
  let env: PythonEnv;
  const servers: ModelServer[] = [];
  const work = mkdtempSync(join(tmpdir(), "envelope-realpath-typed-"));
  beforeAll(() => {
    env = ensureEnv("crewai", gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it.each(FIXTURES)("$name: the schema sent can carry them and the result holds them", async ({ name, target }) => {
    const dir = join(work, name);
    const { def, readme, pkg } = await exportedProject<TypedDef>(join(ROOT, "test/fixtures/valid", `${name}.envelope.json`), target, dir);
    const typed = Object.entries(def.outputs ?? {}).filter(([, o]) => o.type === "array" || o.type === "object");
    expect(typed.length).toBeGreaterThan(0);
    const gates = def.pipeline ? (def.gates ?? []) : [];
    const items = Math.max(3, ...gates.map((g) => (g.thresholdCount ?? 1) + 2));

    // Requests whose response format is the team's result (it holds every typed output).
    const resultRequests: Array<{ n: number; schema: JsonSchema; sent: Record<string, unknown> }> = [];
    const exchanges: Exchange[] = [];
    const server = await startModelServer((request) => {
      const n = exchanges.length + 1;
      let reply = scriptedReply(request, n, items);
      const schema = request.response_format?.json_schema?.schema;
      const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
      if (schema && "json" in reply && typed.every(([key]) => key in props)) {
        // The answer a model under this schema could give: JSON text where the schema asks
        // for a string, the value itself where it asks for an array or object.
        const json = { ...(reply.json as Record<string, unknown>) };
        const sent: Record<string, unknown> = {};
        for (const [key, o] of typed) {
          sent[key] = contentOf(o.type!, key, n);
          json[key] = asksForText(props[key]!) ? JSON.stringify(sent[key]) : sent[key];
        }
        resultRequests.push({ n, schema, sent });
        reply = { json };
      }
      exchanges.push({ n, request, reply });
      return reply;
    });
    servers.push(server);

    const { env: runEnv, inputs } = serverRun(def, server.baseUrl);
    let args = runArgs(dir, readme, inputs);
    let run = await runTeam(env, dir, pkg, args, runEnv);
    for (let round = 0; run.code === 3 && round < 8; round++) {
      const waiting = JSON.parse(run.stdout) as { decisions_file: string; resume: string };
      const byGate = new Map(gates.map((g) => [g.name, g]));
      decide(
        resolve(dir, waiting.decisions_file),
        (g) => (byGate.get(g)?.trigger === "threshold" ? (byGate.get(g)!.thresholdCount ?? 1) : 1),
        () => ({ approve: "approve", other: "skip" }),
      );
      args = waiting.resume.split(" ").slice(1);
      run = await runTeam(env, dir, pkg, args, runEnv);
    }
    writeFileSync(join(dir, "realpath-exchanges.json"), JSON.stringify(exchanges, null, 1));
    const transcript = `exit ${run.code}\n${run.stdout.slice(-1500)}\n${run.stderr.slice(-2500)}\n(requests: ${join(dir, "realpath-exchanges.json")})`;
    expect(run.code, transcript).toBe(0);

    // (1) The team's result was asked for with a strict response_format that OpenAI accepts
    // and in which each typed output can carry content.
    expect(resultRequests.length, `no request asked for the team's result\n${transcript}`).toBeGreaterThan(0);
    for (const { n, schema } of resultRequests) {
      expect(exchanges[n - 1]!.request.response_format?.json_schema?.strict, `request ${n}`).toBe(true);
      expect(strictProblems(schema), `request ${n}: ${JSON.stringify(schema)}`).toEqual([]);
      const props = schema.properties as Record<string, JsonSchema>;
      for (const [key] of typed) {
        expect(carriesContent(props[key]!), `request ${n}: ${key}: ${JSON.stringify(props[key])}`).toBe(true);
        // A model told "string" must be told what the string holds.
        if (asksForText(props[key]!)) expect(props[key]!.description, `request ${n}: ${key}`).toMatch(/JSON text of an? (array|object)\.\)?$/);
      }
    }

    // CrewAI's own converter (generate_model_description: a task's response_format when the
    // OpenAI SDK does not convert the model itself) gives a strict schema that carries them too.
    const described = execFileSync(env.python, ["-c", DESCRIBE, pkg], { env: { ...process.env, PYTHONPATH: join(dir, "src") }, encoding: "utf8" });
    const own = (JSON.parse(described) as { json_schema: { strict: boolean; schema: JsonSchema } }).json_schema;
    expect(own.strict).toBe(true);
    expect(strictProblems(own.schema), described).toEqual([]);
    for (const [key] of typed) expect(carriesContent((own.schema.properties as Record<string, JsonSchema>)[key]!), `${key}: ${described}`).toBe(true);

    // (2) The run's result holds what the server sent for them, parsed back into values.
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    const last = resultRequests[resultRequests.length - 1]!;
    for (const [key] of typed) expect(result[key], `${key}\n${transcript}`).toEqual(last.sent[key]);
  }, 900_000);
});

describe("strictProblems (OpenAI strict structured outputs, as this test reads them)", () => {
  it("refuses what CrewAI makes of list[Any] and dict[str, Any] only where strict mode does", () => {
    const closed = { type: "object", properties: {}, required: [], additionalProperties: false };
    expect(strictProblems({ ...closed, properties: { a: { type: "array", items: {} } }, required: ["a"] })).toEqual(["$.a[]: no type"]);
    expect(strictProblems({ ...closed, properties: { a: { type: "string", contentMediaType: "application/json" } }, required: ["a"] })).toEqual([
      "$.a: contentMediaType is not supported in strict mode",
    ]);
    expect(strictProblems({ type: "object", properties: { a: { type: "string" } } })).toEqual(["$: additionalProperties is not false", "$: a is not required"]);
    expect(strictProblems({ ...closed, properties: { a: { type: "string", default: null } }, required: ["a"] })).toEqual([]);
    expect(strictProblems({ ...closed, properties: { a: { type: "string", default: ["d"] } }, required: ["a"] })).toEqual(['$.a: default ["d"] is no string']);
    // A closed object with no properties is accepted, and can only ever be {}.
    expect(strictProblems(closed)).toEqual([]);
    expect(carriesContent(closed)).toBe(false);
    expect(carriesContent({ type: "array", items: {} })).toBe(false);
  });
});
