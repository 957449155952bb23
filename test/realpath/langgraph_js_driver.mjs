// Drives a `langgraphjs dev` server with @langchain/langgraph-sdk's Client, the way an exported
// LangGraph.js README documents it. Prints one JSON report. Run from a folder whose
// node_modules holds the SDK (the exports' shared install).
//
//   node langgraph_js_driver.mjs schemas URL
//       every assistant's graph id -> its input, output and context schemas
//   node langgraph_js_driver.mjs drive URL GRAPH_ID INPUTS_JSON
//       a run with the team's inputs, every review gate answered with Command({ resume })
//       until the run ends: each gate's first record approved, the others skipped (several
//       waiting gates answered at once, by interrupt id); a bad resume value first, which
//       must not poison the thread (the gates ask again with the problems)
import { Client } from "@langchain/langgraph-sdk";

const MAX_ROUNDS = 10;
const [mode, url, graphId, inputsJson] = process.argv.slice(2);
const client = new Client({ apiUrl: url });

async function interruptsOf(threadId) {
  const state = await client.threads.getState(threadId);
  return (state.tasks ?? []).flatMap((t) => t.interrupts ?? []);
}

/** One resume value per waiting interrupt, by its id (a lone one as itself, as the Python driver sends it). */
const resumeOf = (values) => (Object.keys(values).length === 1 ? Object.values(values)[0] : values);

async function schemas() {
  const found = {};
  for (const assistant of await client.assistants.search({ limit: 100 })) {
    const got = await client.assistants.getSchemas(assistant.assistant_id);
    found[assistant.graph_id] = { input_schema: got.input_schema ?? null, output_schema: got.output_schema ?? null, context_schema: got.context_schema ?? null };
  }
  return found;
}

async function drive() {
  const [assistant] = await client.assistants.search({ graphId, limit: 1 });
  const thread = await client.threads.create();
  const id = thread.thread_id;
  const report = { rounds: [], refused: [], outputs: [] };
  report.outputs.push(await client.runs.wait(id, assistant.assistant_id, { input: JSON.parse(inputsJson) }));
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let interrupts = await interruptsOf(id);
    if (interrupts.length === 0) break;
    if (round === 0) {
      // A reviewer's typo first: nothing applied, each gate asks again with the problems.
      const bad = Object.fromEntries(interrupts.map((i) => [i.id, { gate: i.value?.gate, decisions: [{ record: "r999", action: "aprove" }] }]));
      await client.runs.wait(id, assistant.assistant_id, { command: { resume: resumeOf(bad) } });
      interrupts = await interruptsOf(id);
      report.refused = interrupts.map((i) => i.value?.problems ?? null);
    }
    const resume = {};
    const rounds = [];
    for (const interrupt of interrupts) {
      const records = interrupt.value?.records ?? [];
      resume[interrupt.id] = { gate: interrupt.value?.gate, decisions: records.map((r, n) => ({ record: r.id, action: n === 0 ? "approve" : "skip", feedback: "" })) };
      rounds.push({ value: interrupt.value, approved: records.slice(0, 1).map((r) => r.id), skipped: records.slice(1).map((r) => r.id) });
    }
    report.rounds.push(rounds);
    report.outputs.push(await client.runs.wait(id, assistant.assistant_id, { command: { resume: resumeOf(resume) } }));
  }
  const state = await client.threads.getState(id);
  report.next = state.next;
  report.values = state.values;
  const drawn = await client.assistants.getGraph(assistant.assistant_id, { xray: true });
  report.drawn = (drawn.nodes ?? []).map((n) => String(n.id));
  return report;
}

const report = mode === "schemas" ? await schemas() : await drive();
process.stdout.write(JSON.stringify(report));
