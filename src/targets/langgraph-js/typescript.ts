// The langgraph-js target's TypeScript, built as a ts-morph project in memory: statements
// through ts-morph's structures, every value from the definition through `literal` (the
// TypeScript printer's own string, number and object literals), then each file's parse
// checked for syntax errors. ts-morph (and the TypeScript compiler in it) is loaded on first
// use only, so other targets never pay for it.
import { loadTsMorph } from "./load-ts-morph.js";
import type { LanggraphJsView } from "./view.js";

type TsMorph = typeof import("ts-morph");
let loaded: TsMorph | undefined;
function tsMorph(): TsMorph {
  return (loaded ??= loadTsMorph(import.meta.url));
}

/** A JSON value as TypeScript source: strings, numbers, booleans, null, arrays and objects only. */
export function literal(value: unknown): string {
  const { ts } = tsMorph();
  const f = ts.factory;
  const build = (v: unknown): import("ts-morph").ts.Expression => {
    if (v === null || v === undefined) return f.createNull();
    if (typeof v === "string") return f.createStringLiteral(v);
    if (typeof v === "boolean") return v ? f.createTrue() : f.createFalse();
    if (typeof v === "number") {
      if (!Number.isFinite(v)) throw new Error(`not a JSON number: ${v}`);
      return v < 0 || Object.is(v, -0) ? f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, f.createNumericLiteral(String(-v))) : f.createNumericLiteral(String(v));
    }
    if (Array.isArray(v)) return f.createArrayLiteralExpression(v.map(build), v.length > 0);
    if (typeof v === "object") {
      const entries = Object.entries(v as Record<string, unknown>);
      // `"__proto__": x` would set the object's prototype: that key is written computed.
      return f.createObjectLiteralExpression(entries.map(([k, x]) => f.createPropertyAssignment(k === "__proto__" ? f.createComputedPropertyName(f.createStringLiteral(k)) : f.createStringLiteral(k), build(x))), entries.length > 0);
    }
    throw new Error(`not a JSON value: ${typeof v}`);
  };
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const file = ts.createSourceFile("literal.ts", "", ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  // The printer escapes every character outside ASCII but leaves DEL (U+007F) raw; it can
  // only be inside a string literal here.
  return printer.printNode(ts.EmitHint.Expression, build(value), file).replace(/\x7f/g, "\\u007F");
}

/** An object literal's key: a string literal, computed for `__proto__` (which would set the prototype). */
export function propertyKey(key: string): string {
  return key === "__proto__" ? `[${literal(key)}]` : literal(key);
}

/** Text for a comment: the string literal's escaped form (no line break), with a closing `*` `/` broken. */
function docText(text: string): string {
  return literal(text).slice(1, -1).replace(/\*\//g, "*\\/");
}

const stepNodeName = (key: string) => `step_${key}`;
const gateNodeName = (name: string) => `gate_${name}`;
const releasedNodeName = (name: string) => `released_${name}`;
const escalateNodeName = (name: string) => `escalate_${name}`;

/**
 * The StateGraph, node by node and edge by edge, as envelope-runtime-js's buildTeamGraph wires
 * the same TeamSpec (its teamEdges; the export's tests check the two draw the same graph).
 */
function graphChain(team: LanggraphJsView["team"], withStore: boolean): string {
  const lines: string[] = ["new StateGraph({ state: teamState(TEAM), input: InputSchema, output: outputSchema(ResultSchema), context: ContextSchema })"];
  const add = (comment: string, node: string, fn: string, ends?: string[]) =>
    lines.push(`// ${comment}`, `.addNode(${literal(node)}, ${fn}${ends?.length ? `, { ends: [${ends.map((e) => (e === "END" ? e : literal(e))).join(", ")}] }` : ""})`);
  add("context, environment and inputs checked before any model call", "prepare", "nodes.prepare");
  if (team.mode === "hierarchy") add(`the hierarchy: ${docText(team.entryAgent ?? "")} asks its reports (agents as tools)`, "team", "nodes.team");
  else {
    team.steps.forEach((step, i) => {
      add(`pipeline[${i}] ${docText(step.key)} (agent ${docText(step.agent)})`, stepNodeName(step.key), `nodes.step(${literal(step.key)})`, step.gatesAfter.map(gateNodeName));
    });
    team.gates.forEach((g, i) => {
      const escalates = g.onReject === "escalate" || g.timeout?.behaviour === "escalate";
      const ends = [gateNodeName(g.name), releasedNodeName(g.name), "END", ...(g.onReject === "rerun" ? [stepNodeName(g.afterStep)] : []), ...(escalates ? [escalateNodeName(g.name)] : [])];
      add(`gates[${i}] ${docText(g.name)}: after step ${docText(g.afterStep)}, onReject ${docText(g.onReject)}`, gateNodeName(g.name), `nodes.gate(${literal(g.name)})`, ends);
      if (escalates) add(`gates[${i}] ${docText(g.name)}: its escalation`, escalateNodeName(g.name), `nodes.escalate(${literal(g.name)})`, [gateNodeName(g.name), "END"]);
      add(`gates[${i}] ${docText(g.name)}: the approved records, released`, releasedNodeName(g.name), `nodes.released(${literal(g.name)})`);
    });
  }
  add("outputs: the team's result", "finalize", "nodes.finalize");
  const node = (n: string | string[]) => (Array.isArray(n) ? `[${n.map((x) => literal(x)).join(", ")}]` : n === "START" || n === "END" ? n : literal(n));
  const edge = (comment: string, from: string | string[], to: string) => lines.push(`// ${comment}`, `.addEdge(${node(from)}, ${node(to)})`);
  edge("the run starts with its checks", "START", "prepare");
  if (team.mode === "hierarchy") {
    edge("then the hierarchy", "prepare", "team");
    edge("the result", "team", "finalize");
  } else {
    const sinks: string[] = [];
    for (const g of team.gates) if (!team.steps.some((s) => s.gatesBefore.includes(g.name))) sinks.push(releasedNodeName(g.name));
    team.steps.forEach((step, i) => {
      const waits = [...step.answersFrom.map(stepNodeName), ...step.gatesBefore.map(releasedNodeName)];
      const what = waits.length ? `waits for ${[...step.answersFrom.map((k) => `step ${docText(k)}`), ...step.gatesBefore.map((g) => `gate ${docText(g)}`)].join(", ")}` : "a first step";
      edge(`pipeline[${i}] ${docText(step.key)}: ${what}`, waits.length === 0 ? "prepare" : waits.length === 1 ? waits[0]! : waits, stepNodeName(step.key));
      if (!step.gatesAfter.length && !team.steps.some((s) => s.answersFrom.includes(step.key))) sinks.push(stepNodeName(step.key));
    });
    edge("the result, once every last node is done", sinks.length === 1 ? sinks[0]! : sinks, "finalize");
  }
  edge("the end", "finalize", "END");
  if (withStore) lines.push("// an explicit name (TEAM.slug) for the compiled graph; the workspace's store, which the agents' workspace tools use", ".compile({ checkpointer, store, name: TEAM.slug })");
  else lines.push("// an explicit name (TEAM.slug) for the compiled graph", ".compile({ checkpointer, name: TEAM.slug })");
  // Bound to the graph, so a run the Agent Server, Studio or the SDK starts without one gets it
  // too (LangGraph's default, 25 super-steps, is less than a gated pipeline's review rounds need).
  lines.push("// the team's recursion limit, whoever starts the run", ".withConfig({ recursionLimit: TEAM.recursionLimit })");
  return lines.join("\n");
}

const HEADER = "Generated by envelope-export from the team's Envelope definition (src/envelope.json).";

function zodOf(field: { type: string; enum?: readonly string[] | null; description?: string | null }): string {
  let base: string;
  if (field.enum?.length) base = `z.enum(${literal(field.enum)})`;
  else if (field.type === "number") base = "z.number()";
  else if (field.type === "boolean") base = "z.boolean()";
  else if (field.type === "array") base = "z.array(z.unknown())";
  else if (field.type === "object") base = "z.record(z.string(), z.unknown())";
  else base = "z.string()";
  return field.description ? `${base}.describe(${literal(field.description)})` : base;
}

export interface TsFile {
  path: string;
  text: string;
}

/** The project's TypeScript files, unformatted (prettier formats them next). */
export function buildTypeScript(view: LanggraphJsView): TsFile[] {
  const { Project, VariableDeclarationKind, ts } = tsMorph();
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, noLib: true } });
  const team = view.team;
  // Each file's first line: what it is (inserted above its imports once they are all added).
  const headers = new Map<import("ts-morph").SourceFile, string>();

  const teamTs = project.createSourceFile("src/team.ts");
  headers.set(teamTs, `// ${HEADER} The team as data: envelope-runtime-js builds its graph from it.`);
  const packs = view.connections.spec;
  teamTs.addImportDeclaration({ isTypeOnly: true, namedImports: [...(packs ? ["ConnectionsSpec"] : []), "TeamSpec"], moduleSpecifier: "envelope-runtime-js" });
  teamTs.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [`${team.mode === "pipeline" ? "A pipeline" : "A hierarchy"} of ${team.agents.length} agent(s)${team.gates.length ? ` with ${team.gates.length} review gate(s)` : ""}.`],
    declarations: [{ name: "TEAM", type: "TeamSpec", initializer: literal(team) }],
  });
  if (packs) {
    teamTs.addVariableStatement({
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [
        "--connections: the connection packs an agent got (OpenAPI operations, one tool each; MCP servers, whose tools are listed when the agent starts a conversation), which agent has which, and the credentials' variables, required before a run. Every request is checked against the agent's access policy and the pack's apiHosts; credentials are read from the environment, never written here.",
      ],
      declarations: [{ name: "CONNECTIONS", type: "ConnectionsSpec", initializer: literal(packs) }],
    });
  }

  const state = project.createSourceFile("src/state.ts");
  headers.set(state, `// ${HEADER} The graph's input and result schemas (zod, as LangGraph.js reads them).`);
  state.addImportDeclaration({ namedImports: ["z"], moduleSpecifier: "zod" });
  const inputFields = team.inputs.map((i) => `${propertyKey(i.channel)}: ${zodOf(i)}${i.required && !i.hasDefault ? "" : ".optional()"}`);
  state.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ["The graph's input: one key per team input (Studio renders it as a form)."],
    declarations: [{ name: "InputSchema", initializer: `z.object({${inputFields.join(",\n")}})` }],
  });
  const outputs = team.outputs.length ? team.outputs : [{ key: "answer", type: "string", required: true, description: "the team's final answer" }];
  // An output's default fills a result that leaves it out (finalize parses the answer with ResultSchema).
  // (view.model.outputs[i] is team.outputs[i]'s model: the same order.)
  const resultFields = outputs.map((o, i) => {
    const m = team.outputs.length ? view.model.outputs[i] : undefined;
    return `${propertyKey(o.key)}: ${zodOf({ ...o, enum: m?.enum ?? null })}${m?.hasDefault ? `.default(${literal(m.default ?? null)})` : o.required ? "" : ".optional()"}`;
  });
  state.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ["The team's result: its outputs by key (the graph output's `result`)."],
    declarations: [{ name: "ResultSchema", initializer: `z.object({${resultFields.join(",\n")}})` }],
  });
  state.addTypeAlias({ isExported: true, name: "TeamInputs", type: "z.infer<typeof InputSchema>" });
  state.addTypeAlias({ isExported: true, name: "TeamResult", type: "z.infer<typeof ResultSchema>" });

  const context = project.createSourceFile("src/context.ts");
  headers.set(context, `// ${HEADER} The run's context: each agent's model for one run (provider:model).`);
  context.addImportDeclaration({ namedImports: ["z"], moduleSpecifier: "zod" });
  const contextEntries = [
    `model: z.string().optional().describe(${literal("provider:model for every agent of this run, e.g. openai:gpt-4.1-mini")})`,
    ...view.contextFields.map(({ key, field }) => `${propertyKey(field)}: z.string().optional().describe(${literal(`provider:model for agent ${key} in this run`)})`),
  ];
  context.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ["An assistant or a run sets it; unset fields fall back to MODEL_<AGENT>, MODEL_OVERRIDE, the definition, MODEL."],
    declarations: [{ name: "ContextSchema", initializer: `z.object({${contextEntries.join(",\n")}})` }],
  });

  const graph = project.createSourceFile("src/graph.ts");
  headers.set(graph, `// ${HEADER} The team's graph: its wiring, node by node and edge by edge; the node functions are envelope-runtime-js's.`);
  const store = view.hasWorkspace;
  graph.addImportDeclaration({ namedImports: ["END", "START", "StateGraph", "type BaseCheckpointSaver", ...(store ? ["type BaseStore"] : [])], moduleSpecifier: "@langchain/langgraph" });
  graph.addImportDeclaration({ namedImports: ["outputSchema", "TeamNodes", "teamState", "type BuildOptions"], moduleSpecifier: "envelope-runtime-js" });
  graph.addImportDeclaration({ namedImports: ["ContextSchema"], moduleSpecifier: "./context.js" });
  graph.addImportDeclaration({ namedImports: ["InputSchema", "ResultSchema"], moduleSpecifier: "./state.js" });
  graph.addImportDeclaration({ namedImports: [...(packs ? ["CONNECTIONS"] : []), "TEAM"], moduleSpecifier: "./team.js" });
  graph.addVariableStatement({ isExported: true, declarationKind: VariableDeclarationKind.Const, docs: ["The graph's schemas: its input, its result and the run's context."], declarations: [{ name: "SCHEMAS", initializer: "{ input: InputSchema, result: ResultSchema, context: ContextSchema }" }] });
  graph.addFunction({
    isExported: true,
    name: "buildGraph",
    docs: [
      `${docText(team.name)}'s graph, as its definition wires it (the runner and the tests give a checkpointer${store ? " and the workspace's store" : ""}, and the tests their own models). Each node is a function of envelope-runtime-js's TeamNodes; a gate routes itself (Command), to the nodes its \`ends\` name.`,
    ],
    parameters: [{ name: "options", type: store ? "BuildOptions & { checkpointer?: BaseCheckpointSaver; store?: BaseStore }" : "BuildOptions & { checkpointer?: BaseCheckpointSaver }", initializer: "{}" }],
    statements: [
      store ? "const { checkpointer, store, ...rest } = options;" : "const { checkpointer, ...rest } = options;",
      packs ? "const nodes = new TeamNodes(TEAM, SCHEMAS, { connections: CONNECTIONS, ...rest });" : "const nodes = new TeamNodes(TEAM, SCHEMAS, rest);",
      `return ${graphChain(team, store)};`,
    ],
  });
  graph.addVariableStatement({ isExported: true, declarationKind: VariableDeclarationKind.Const, docs: [store ? "The graph langgraph.json serves (the Agent Server brings its own checkpointer and store)." : "The graph langgraph.json serves (the Agent Server brings its own checkpointer)."], declarations: [{ name: "graph", initializer: "buildGraph()" }] });

  const main = project.createSourceFile("src/main.ts");
  headers.set(main, `// ${HEADER} The command-line runner: npm start -- run | resume | show (see README).`);
  main.addImportDeclaration({ namedImports: ["runCli"], moduleSpecifier: "envelope-runtime-js" });
  main.addImportDeclaration({ namedImports: ["buildGraph"], moduleSpecifier: "./graph.js" });
  main.addImportDeclaration({ namedImports: ["TEAM"], moduleSpecifier: "./team.js" });
  main.addStatements(
    store
      ? "// The workspace's store: the runner's (PostgreSQL's with DATABASE_URL, else ENVELOPE_WORKSPACE_DIR, else .envelope-workspace/).\nprocess.exitCode = await runCli({ team: TEAM, graph: (checkpointer, store) => buildGraph({ checkpointer, store }) });"
      : "process.exitCode = await runCli({ team: TEAM, graph: (checkpointer) => buildGraph({ checkpointer }) });",
  );

  if (team.gates.length) {
    const server = project.createSourceFile("src/server.ts");
    headers.set(server, `// ${HEADER} The Agent Server's http.app (langgraph.json): a gate's decisions cleaned before the server stores them.`);
    server.addImportDeclaration({ namedImports: ["resumeRedaction"], moduleSpecifier: "envelope-runtime-js/server" });
    server.addImportDeclaration({ namedImports: ["TEAM"], moduleSpecifier: "./team.js" });
    server.addVariableStatement({
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [
        "The server writes a run's command.resume to its checkpoints before any node runs: this app's middleware, mounted before the server's routes, redacts the team's secret values from it and bounds it first, and refuses the routes that resume a run otherwise (protocol v2 commands and event streams).",
      ],
      declarations: [{ name: "app", initializer: "resumeRedaction(TEAM)" }],
    });
  }

  project.createSourceFile("tests/team.test.ts", teamTest(view));

  for (const [sf, header] of headers) sf.insertStatements(0, header);
  const files = project.getSourceFiles();
  // Syntax errors only: each file's own parse diagnostics (what a program's
  // getSyntacticDiagnostics returns for a .ts file), without building a program.
  for (const sf of files) {
    const errors = (sf.compilerNode as unknown as { parseDiagnostics: readonly import("ts-morph").ts.DiagnosticWithLocation[] }).parseDiagnostics;
    if (errors.length) throw new Error(`generated ${sf.getFilePath()} does not parse: ${ts.flattenDiagnosticMessageText(errors[0]!.messageText, "\n")}`);
  }
  return files.map((sf) => ({ path: sf.getFilePath().replace(/^\//, ""), text: spaced(sf) }));
}

/** A file's text with a blank line before each top-level statement but the first, imports kept
 * together: ts-morph adds statements without one, and prettier keeps blank lines but adds none. */
function spaced(sf: import("ts-morph").SourceFile): string {
  const text = sf.getFullText();
  const statements = sf.getStatements();
  const imports = (i: number) => statements[i]!.getKindName() === "ImportDeclaration";
  // A statement's full start is where its leading trivia begins: the previous line's end.
  const cuts = statements.flatMap((s, i) => (i > 0 && !(imports(i) && imports(i - 1)) && !text.startsWith("\n\n", s.getPos()) ? [s.getPos()] : []));
  return cuts.reduceRight((out, at) => `${out.slice(0, at)}\n${out.slice(at)}`, text);
}

/** The export's own vitest tests: schemas, the graph's nodes, the whole team run offline through every gate, and each gate's timeout and escalation (envelope-runtime-js/testing runs them). */
function teamTest(view: LanggraphJsView): string {
  const team = view.team;
  const nodes = ["prepare", "finalize", ...(team.mode === "hierarchy" ? ["team"] : []), ...team.steps.map((s) => `step_${s.key}`), ...team.gates.flatMap((g) => [`gate_${g.name}`, `released_${g.name}`, ...(g.onReject === "escalate" || g.timeout?.behaviour === "escalate" ? [`escalate_${g.name}`] : [])])].sort();
  const gates = gateTests(view);
  // Only the helpers this team's tests use.
  const helpers = ["drawnEdges", "drawnNodes", "fakeTeam", ...(gates.includes("lettingTimeOut(") ? ["lettingTimeOut"] : []), ...(gates.includes("rejectingFirstRound(") ? ["rejectingFirstRound"] : []), "runTeam"];
  const packs = view.connections;
  const hasPacks = packs.spec !== null;
  const reviewed = team.gates.length
    ? `expect([...new Set(run.reviews.map((r) => r.gate))].sort()).toEqual(${literal(team.gates.map((g) => g.name).sort())});`
    : "expect(run.reviews).toEqual([]);";
  return `// ${HEADER} This team's tests: schemas, the graph's nodes, and the whole team run offline
// through every gate with LangChain's fake chat models (no network, no provider key), by
// envelope-runtime-js/testing (fake models answering by task, a test clock, a run driven
// through the gates with the decisions each test gives).
import { ${view.hasWorkspace ? "InMemoryStore, " : ""}MemorySaver } from "@langchain/langgraph";
import { ${[...(hasPacks ? ["buildTeamGraph", "checkRequest", "connectionTools", ...(packs.hasMcp ? ["credentialHeaders"] : []), "openMcpTools"] : ["buildTeamGraph"]), ...(view.hasWorkspace ? ["Workspace", "workspaceTools"] : [])].join(", ")} } from "envelope-runtime-js";
${packs.hasMcp ? 'import { fakeMcpServer } from "envelope-runtime-js/mcp-testing";\n' : ""}import { ${helpers.join(", ")} } from "envelope-runtime-js/testing";
import { describe, expect, it } from "vitest";
import { ContextSchema } from "../src/context.js";
import { buildGraph, graph, SCHEMAS } from "../src/graph.js";
import { InputSchema, ResultSchema } from "../src/state.js";
import { ${hasPacks ? "CONNECTIONS, TEAM" : "TEAM"} } from "../src/team.js";

/** Required inputs (by their graph key) with a value of their type. */
const INPUTS: Record<string, unknown> = ${literal(view.sampleInputs)};
/** A result of the team's outputs: what the fake model of the ${team.mode === "hierarchy" ? "hierarchy" : "final step"} answers. */
const RESULT = ${literal(view.sampleResult)};
/** The graph's nodes, as the definition names its ${team.mode === "hierarchy" ? "hierarchy" : "steps and gates"}. */
const NODES = ${literal(nodes)};
const CONTEXT_FIELDS = ${literal(["model", ...view.contextFields.map((c) => c.field)].sort())};

${offlineTeam(view)}
describe(${literal(team.name)}, () => {
  it("builds the graph langgraph.json serves, with every node", () => {
    expect(drawnNodes(graph)).toEqual(NODES);
  });

  it("wires what envelope-runtime-js wires for this team (graph.ts is the TeamSpec's graph)", () => {
    expect(drawnEdges(graph)).toEqual(drawnEdges(buildTeamGraph(TEAM, SCHEMAS)));
  });

  it("has the schemas of its inputs, result and context", () => {
    expect(InputSchema.safeParse(INPUTS).success).toBe(true);
    expect(ResultSchema.safeParse(RESULT).success).toBe(true);
    expect(Object.keys(ContextSchema.shape).sort()).toEqual(CONTEXT_FIELDS);
  });

  it(${literal(team.gates.length ? "runs the whole team offline through every gate" : "runs the whole team offline")}, async () => {
    const team = offline();
    const run = await runTeam(team.graph, INPUTS);
    ${reviewed}
    expect(run.output).toMatchObject({ status: "done", halted: null, result: RESULT });
    expect(team.tasks).toContain(${literal(team.mode === "hierarchy" ? "team" : (team.finalStep ?? ""))});
  });
${gates}${refusalTests(view)}${packTests(view)}${workspaceTests(view)}});
`;
}

/** Per workspace document: the store refuses, through an agent's write tool, a column people own and a status the document does not declare, each for its own reason, and writes a row an agent may write. */
function workspaceTests(view: LanggraphJsView): string {
  if (!view.hasWorkspace) return "";
  const cases = view.workspace.flatMap((d) => [`// ${d.ref}`, `[${[d.name, d.firstAgent, d.tools.write, d.humanColumn, d.humanValue, d.statusColumn].map((v) => literal(v)).join(", ")}, ${literal(d.agentRow)}],`]);
  return `
  // workspace[]: document, an agent with its tools, the document's write tool (the agent may
  // have other documents'), a column people own ("" when none) and a value of its type, a status
  // column ("" when none), a new row the agent may write (null: agents create none)
  const WORKSPACE_CASES: Array<[string, string, string, string, unknown, string, Record<string, string> | null]> = [
    ${cases.join("\n    ")}
  ];

  it.each(WORKSPACE_CASES)("workspace %s: the store refuses what the document does not let %s write, and writes what it does", async (document, agent, tool, humanColumn, humanValue, statusColumn, agentRow) => {
    const documents = TEAM.workspace ?? [];
    const store = new InMemoryStore();
    const write = workspaceTools(documents, agent, () => store).find((t) => t.name === tool)!;
    if (humanColumn) {
      const answer = String(await write.invoke({ rows: [{ data: { [humanColumn]: humanValue } }] }));
      expect(answer).toContain('"outcome": "refused"');
      expect(answer).toContain(\`column '\${humanColumn}' is written by people only\`);
    }
    if (statusColumn) {
      const answer = String(await write.invoke({ rows: [{ data: { ...agentRow, [statusColumn]: "not-a-declared-status" } }] }));
      expect(answer).toContain('"outcome": "refused"');
      expect(answer).toContain("'not-a-declared-status' is not a status of");
    }
    expect(await new Workspace(documents, store).rows(document)).toEqual([]);
    if (agentRow) {
      expect(String(await write.invoke({ rows: [{ data: agentRow }] }))).toContain('"outcome": "written"');
      expect((await new Workspace(documents, store).rows(document)).map((r) => r.data)).toEqual([expect.objectContaining(agentRow)]);
    }
  });
`;
}

/** offline(): the team on a fresh checkpointer, with fake models, the environment it needs (its packs' credentials too), a fake MCP server in place of its packs' and a test clock. */
function offlineTeam(view: LanggraphJsView): string {
  const packs = view.connections;
  if (!packs.spec) {
    return `/** The team on a fresh checkpointer, with fake models answering by task, the environment it needs and a test clock. */
function offline() {
  const fake = fakeTeam(TEAM, RESULT);
  return { ...fake, graph: buildGraph({ ...fake.options, checkpointer: new MemorySaver() }) };
}
`;
  }
  const env = Object.fromEntries(packs.secrets.map((name) => [name, `test-value-of-${name.toLowerCase()}`]));
  return `/** Test values of the connection packs' credentials (a run requires them). */
const PACK_ENV: Record<string, string> = ${literal(env)};

/** The team on a fresh checkpointer, with fake models answering by task, the environment it needs${packs.hasMcp ? ", a fake MCP server in place of its packs' servers" : ""} and a test clock. */
function offline() {
  const fake = fakeTeam(TEAM, RESULT);
${packs.hasMcp ? "  const mcp = fakeMcpServer();\n" : ""}  const options = { ...fake.options, env: { ...fake.env, ...PACK_ENV }${packs.hasMcp ? ", fetch: mcp.fetch" : ""} };
  return { ...fake,${packs.hasMcp ? " mcp," : ""} options, graph: buildGraph({ ...options, checkpointer: new MemorySaver() }) };
}
`;
}

/** The connection packs' tools, their checks and their credentials, as this team has them. */
function packTests(view: LanggraphJsView): string {
  const packs = view.connections;
  if (!packs.spec) return "";
  // Each agent's tools in the runtime's order: its OpenAPI packs' operations, then its MCP servers' (the fake server's one tool, lookup).
  const tools = Object.fromEntries(
    packs.agents.map((a) => [
      a.key,
      [...a.providers.flatMap((p) => packs.packs.find((x) => x.provider === p)?.operations.map((o) => o.tool) ?? []), ...a.providers.flatMap((p) => packs.mcpServers.filter((x) => x.provider === p).map((x) => `${x.toolPrefix}lookup`.slice(0, 64)))],
    ]),
  );
  return `
  it("gives each agent its connection packs' tools${packs.hasMcp ? ", an MCP server's listed from it with the credential" : ""}", async () => {
    const team = offline();
    const expected: Record<string, string[]> = ${literal(tools)};
    for (const [agent, names] of Object.entries(expected)) {
      const policy = TEAM.agents.find((a) => a.key === agent)!.policy!;
      const options = { agentKey: agent, policy, names: [], env: team.options.env${packs.hasMcp ? ", fetch: team.options.fetch" : ""} };
      const mcp = await openMcpTools(CONNECTIONS, options);
      await mcp.close();
      expect([...connectionTools(CONNECTIONS, options), ...mcp.tools].map((t) => t.name)).toEqual(names);
    }${
      packs.hasMcp
        ? `
    for (const server of CONNECTIONS.mcpServers) {
      const sent = team.mcp.requests.filter((r) => r.url === server.url);
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.every((r) => r.authorization === credentialHeaders(server.auth, team.options.env)![server.auth.header])).toBe(true);
    }`
        : ""
    }
  });

  it("sends a pack's credential to its apiHosts only, and only where the agent's access policy allows", () => {
    for (const pack of [...CONNECTIONS.packs, ...CONNECTIONS.mcpServers]) {
      const elsewhere = "https://elsewhere.invalid/x";
      expect(checkRequest(pack, "POST", elsewhere, "test", { defaultAction: "allow", rules: [] }, {}).refused).toMatch(/^REFUSED by connection pack/);
      expect(checkRequest(pack, "POST", elsewhere, "test", { defaultAction: "deny", rules: [] }, {}).refused).toMatch(/^REFUSED by access policy/);
    }
  });

  it("refuses a run without its connection packs' credentials before any model call", async () => {
    const team = fakeTeam(TEAM, RESULT);
    const refusal: unknown = await buildGraph({ ...team.options, checkpointer: new MemorySaver() })
      .invoke(INPUTS, { configurable: { thread_id: "no-pack-credentials" } })
      .catch((error: unknown) => error);
    expect(String(refusal)).toContain("missing environment variables");
    for (const name of CONNECTIONS.secrets) expect(String(refusal)).toContain(name);
    expect(team.tasks).toEqual([]);
  });
`;
}

/** Each gate's timeout (proceed, halt, escalate) and a rejection that escalates, as this team's gates have them. */
function gateTests(view: LanggraphJsView): string {
  const team = view.team;
  const agentOf = (step: string) => team.steps.find((s) => s.key === step)?.agent;
  const managerOf = (step: string) => team.agents.find((a) => a.key === agentOf(step))?.reportsTo ?? team.entryAgent;
  // An escalation that would go to the step's own agent halts the run instead (the runtime's
  // gates.selfEscalation): nobody else can decide.
  const halts = (g: (typeof team.gates)[number], why: string, task: string) => [
    `expect(run.output).toMatchObject({ status: "halted", result: null, halted: expect.stringContaining(${literal(`${why}the escalation would go to ${agentOf(g.afterStep)}, the agent of step ${g.afterStep} itself`)}) });`,
    `expect(team.tasks).not.toContain(${literal(`${task}:${g.name}`)});`,
  ];
  const out: string[] = [];
  for (const g of team.gates) {
    const name = literal(g.name);
    const toItself = managerOf(g.afterStep) === agentOf(g.afterStep);
    if (g.timeout?.behaviour === "escalate" && toItself) {
      out.push(`
  it(${literal(`gate ${g.name}: no decision within ${g.timeout.after} halts the run: its escalation would go to ${managerOf(g.afterStep)}, the step's own agent (timeout: escalate)`)}, async () => {
    const team = offline();
    const run = await runTeam(team.graph, INPUTS, lettingTimeOut(TEAM, ${name}, team.clock));
    ${halts(g, `gate ${g.name}: no decision within ${g.timeout.after} (escalate); `, "escalate").join("\n    ")}
  });
`);
    } else if (g.timeout) {
      const { after, behaviour } = g.timeout;
      const expects = {
        proceed: [
          `expect(run.output).toMatchObject({ status: "done", halted: null, result: RESULT });`,
          `expect(run.gates[${name}]!.records.every((r) => r.decision === "approve" && r.decidedBy === "timeout")).toBe(true);`,
        ],
        halt: [`expect(run.output).toMatchObject({ status: "halted", halted: ${literal(`gate ${g.name}: no decision within ${after} (halt)`)}, result: null });`],
        escalate: [
          `expect(team.tasks).toContain(${literal(`escalate:${g.name}`)});`,
          `expect(run.gates[${name}]!.records.every((r) => r.decidedBy === ${literal(`agent:${managerOf(g.afterStep)}`)})).toBe(true);`,
          `expect(run.output).toMatchObject({ status: "done", halted: null, result: RESULT });`,
        ],
      }[behaviour];
      const what = { proceed: "releases its records", halt: "halts the run", escalate: `goes to ${managerOf(g.afterStep)}, who decides` }[behaviour];
      out.push(`
  it(${literal(`gate ${g.name}: no decision within ${after} ${what} (timeout: ${behaviour})`)}, async () => {
    const team = offline();
    const run = await runTeam(team.graph, INPUTS, lettingTimeOut(TEAM, ${name}, team.clock));
    ${expects.join("\n    ")}
  });
`);
    }
    if (g.onReject === "escalate" && g.actions.some((a) => a.verb === "reject") && toItself) {
      out.push(`
  it(${literal(`gate ${g.name}: a rejection halts the run: its escalation would go to ${managerOf(g.afterStep)}, the step's own agent (onReject: escalate)`)}, async () => {
    const team = offline();
    const run = await runTeam(team.graph, INPUTS, rejectingFirstRound(${name}));
    ${halts(g, "record(s) rejected; ", "revise").join("\n    ")}
  });
`);
    } else if (g.onReject === "escalate" && g.actions.some((a) => a.verb === "reject")) {
      out.push(`
  it(${literal(`gate ${g.name}: a rejection goes to ${managerOf(g.afterStep)}, whose revised records are reviewed again (onReject: escalate)`)}, async () => {
    const team = offline();
    const run = await runTeam(team.graph, INPUTS, rejectingFirstRound(${name}));
    expect(team.tasks).toContain(${literal(`revise:${g.name}`)});
    expect(run.reviews.filter((r) => r.gate === ${name}).map((r) => r.round)).toEqual([1, 2]);
    expect(run.output).toMatchObject({ status: "done", halted: null, result: RESULT });
  });
`);
    }
  }
  return out.join("");
}

/** A run refused before any model call: without its environment, without its required inputs (only what this team has). */
function refusalTests(view: LanggraphJsView): string {
  const team = view.team;
  const out: string[] = [];
  if (team.secrets.length + team.variables.length > 0) {
    out.push(`
  it("refuses a run without its environment before any model call", async () => {
    const team = fakeTeam(TEAM, RESULT);
    const run = buildGraph({ ...team.options, env: {}, checkpointer: new MemorySaver() });
    await expect(run.invoke(INPUTS, { configurable: { thread_id: "no-env" } })).rejects.toThrow(/missing environment variables/);
    expect(team.tasks).toEqual([]);
  });
`);
  }
  if (Object.keys(view.sampleInputs).length > 0) {
    out.push(`
  it("refuses a run without its required inputs before any model call", async () => {
    const team = offline();
    expect(InputSchema.safeParse({}).success).toBe(false);
    const refusal: unknown = await team.graph.invoke({}, { configurable: { thread_id: "no-inputs" } }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(Error);
    for (const key of Object.keys(INPUTS)) expect(String(refusal)).toContain(key);
    expect(team.tasks).toEqual([]);
  });
`);
  }
  return out.join("");
}
