// Every valid definition exported to LangGraph runs its own tests on LangGraph and LangChain
// (python/langgraph.lock), and `langgraph dev` serves an exported project as it is.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeDirectory } from "../../src/export/sinks/directory.js";
import { exportFile, exportFor } from "../helpers/export.js";
import { ROOT } from "../helpers/cli.js";
import { agent, team } from "../helpers/definitions.js";
import { describeProjectsOnFramework, runPython } from "./projects.js";
import { e2eGate, ensureEnv, installProject } from "./python-env.js";
import { freePort } from "../helpers/free-port.js";

describeProjectsOnFramework("langgraph", "LangGraph");

const gate = e2eGate();

// Names Python or LangGraph reserve where the exported code puts the team's names: an agent
// `field` (a Context field beside dataclasses' `field`), inputs named like LangGraph's
// reserved channels (`configurable`, `thread_id`, `langsmith:hidden`, `:`, `|`, `join:…`).
const reservedNames = team({
  slug: "reserved-names",
  agents: [agent("field", { role: "manager", prompt: "Lead." }), agent("dataclass", { reportsToKey: "field", prompt: "Draft." })],
  inputs: {
    configurable: { type: "string", required: true },
    thread_id: { type: "string", default: "t-default" },
    checkpoint_ns: { type: "number" },
    "langsmith:hidden": { type: "string" },
    ":": { type: "string" },
    "|": { type: "string" },
    "join:a:b": { type: "string", default: "joined" },
    topic: { type: "string", default: "the default topic" },
  },
  pipeline: [
    { key: "draft", agentKey: "dataclass" },
    { key: "review", agentKey: "field", dependsOn: ["draft"] },
  ],
});

// A hierarchy whose agents are named like the team graph's own nodes (prepare, team,
// finalize): each agent's node must stay distinct, or draw_mermaid refuses the graph. And
// agents named like CrewAI's crew-class members (package, embedder, inputs_text), which
// LangGraph does not reserve (test/target-member-names.test.ts), and `model`, which numbers
// the every-agent context field.
const nodeNames = team({
  slug: "node-names",
  agents: [
    agent("team", { role: "manager", prompt: "Lead." }),
    ...["prepare", "finalize", "package", "embedder", "inputs_text", "model"].map((key) => agent(key, { reportsToKey: "team", prompt: `Work as ${key}.` })),
  ],
});

describe.runIf(gate.run)("reserved names on real LangGraph", () => {
  it("agents named team, prepare, finalize, package, embedder, inputs_text and model: every agent is drawn (xray) and the project's tests pass", async () => {
    const env = ensureEnv("langgraph", gate.python!);
    const dir = join(mkdtempSync(join(tmpdir(), "envelope-e2e-lgnodes-")), "node-names");
    await writeDirectory(exportFor(nodeNames, "langgraph").files, dir);
    installProject(env, dir);
    const probe = [
      "from node_names import context, graph",
      "drawn = graph.build_graph().get_graph(xray=True).draw_mermaid()",
      // Mermaid writes the ':' of a node's path as \3a: each agent's own node is a path step.
      "for ident in ('team_', 'prepare_', 'finalize_', 'package', 'embedder', 'inputs_text', 'model'): assert f'\\\\3a{ident}\\\\3a' in drawn, ident",
      "assert context.Context(package='openai:x', model_2='openai:y').package == 'openai:x'",
    ].join("\n");
    const drawn = runPython(env, dir, ["-c", probe]);
    expect(drawn.code, drawn.output).toBe(0);
    const tests = runPython(env, dir, ["-m", "pytest", "-q", "-p", "no:cacheprovider"]);
    expect(tests.code, tests.output).toBe(0);
  }, 600_000);

  it("an agent `field` and inputs named like LangGraph's channels: the project imports, compiles and its tests pass", async () => {
    const env = ensureEnv("langgraph", gate.python!);
    const dir = join(mkdtempSync(join(tmpdir(), "envelope-e2e-lgnames-")), "reserved-names");
    await writeDirectory(exportFor(reservedNames, "langgraph").files, dir);
    installProject(env, dir);
    const probe = [
      "from reserved_names import context, graph, state",
      "assert context.AGENT_FIELDS['field'] == 'field', context.AGENT_FIELDS",
      "assert context.Context(field='openai:x').field == 'openai:x'",
      "g = graph.build_graph()",
      "props = g.get_input_jsonschema()['properties']",
      "assert 'configurable' not in props and 'input_configurable' in props, props",
      "print(sorted(state.INPUT_CHANNELS.items()))",
    ].join("\n");
    const imported = runPython(env, dir, ["-c", probe]);
    expect(imported.code, imported.output).toBe(0);
    const renamed = { configurable: "input_configurable", thread_id: "input_thread_id", checkpoint_ns: "input_checkpoint_ns", "langsmith:hidden": "input_langsmith_hidden", ":": "input_value", "|": "input_value_2", "join:a:b": "input_join_a_b" };
    for (const [key, channel] of Object.entries(renamed)) expect(imported.output).toContain(`('${key}', '${channel}')`);
    const tests = runPython(env, dir, ["-m", "pytest", "-q", "-p", "no:cacheprovider"]);
    expect(tests.code, tests.output).toBe(0);
    expect(tests.output).toMatch(/ passed/);
  }, 600_000);
});

describe.runIf(gate.run)("langgraph dev", () => {
  it("loads the exported graph from langgraph.json (no checkpointer, no keys, no .env)", async () => {
    const env = ensureEnv("langgraph", gate.python!);
    const dir = join(mkdtempSync(join(tmpdir(), "envelope-e2e-lgdev-")), "support-tier");
    await writeDirectory(exportFile(join(ROOT, "examples/support-tier.envelope.json"), "langgraph"), dir);
    installProject(env, dir);
    const port = await freePort();
    const server = spawn(join(env.bin, "langgraph"), ["dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", String(port)], {
      cwd: dir,
      env: { PATH: `${env.bin}:${process.env.PATH}`, HOME: process.env.HOME, LANGSMITH_TRACING: "false", LANGGRAPH_CLI_NO_ANALYTICS: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    server.stdout.on("data", (c: Buffer) => (log += c.toString()));
    server.stderr.on("data", (c: Buffer) => (log += c.toString()));
    const base = `http://127.0.0.1:${port}`;
    try {
      let ready = false;
      for (let i = 0; i < 120 && !ready && server.exitCode === null; i++) {
        ready = await fetch(`${base}/ok`).then((r) => r.ok, () => false);
        if (!ready) await new Promise((r) => setTimeout(r, 500));
      }
      expect(ready, `langgraph dev did not come up:\n${log}`).toBe(true);
      const found = await fetch(`${base}/assistants/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ graph_id: "support_tier" }) });
      const assistants = (await found.json()) as Array<{ graph_id: string }>;
      expect(assistants.map((a) => a.graph_id), log).toContain("support_tier");
    } finally {
      server.kill("SIGTERM");
    }
  }, 300_000);
});
