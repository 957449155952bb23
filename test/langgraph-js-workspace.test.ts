// The LangGraph.js target carries the workspace (Envelope v1.2, issue 40) as the Python targets
// do: the documents in TEAM.workspace (envelope-runtime-js's DocumentSpec, with the agents that
// get each document's tools), the graph compiled with the workspace's store, the runner giving
// it its own, the export's tests checking each document's refusals, and the loss report and
// README saying so. (The rules themselves: js/envelope-runtime/test/workspace.test.ts.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exportDefinition } from "../src/export/export.js";
import type { FileSet } from "../src/export/file-set.js";
import { TARGETS } from "../src/targets/index.js";
import { ROOT } from "./helpers/cli.js";

function exported(path: string): FileSet {
  const file = join(ROOT, path);
  const r = exportDefinition(readFileSync(file), TARGETS["langgraph-js"]!, { file });
  if (!r.ok || !r.files) throw new Error(`export failed: ${r.failure ?? JSON.stringify(r.diagnostics)}`);
  return r.files;
}

const DESK = "test/fixtures/valid/event-signup-desk.envelope.json";

describe("langgraph-js: the workspace", () => {
  it("declares each document in TEAM.workspace, with its status columns and the agents with its tools", () => {
    const team = exported(DESK).text("src/team.ts")!;
    expect(team).toContain('workspace: [\n    {\n      name: "attendees",\n      type: "contact-list",');
    expect(team).toContain('statusValues: ["pending", "confirmed", "incomplete", "declined"],\n      statusColumns: ["status"],');
    expect(team).toContain('agents: ["screener"],');
    expect(team).toContain('agents: ["brief-writer"],');
  });

  it("compiles the graph with the workspace's store, which the runner gives it", () => {
    const files = exported(DESK);
    expect(files.text("src/graph.ts")).toContain(".compile({ checkpointer, store, name: TEAM.slug })");
    expect(files.text("src/main.ts")).toContain("graph: (checkpointer, store) => buildGraph({ checkpointer, store }),");
    expect(files.text(".gitignore")).toContain(".envelope-workspace/");
    // langgraphjs build adds the project folder to the image: not the store's rows, runs or secrets.
    const ignored = files.text(".dockerignore")!.split("\n");
    for (const path of [".envelope-workspace/", ".langgraph_runs/", ".langgraph_api/", ".env", "node_modules/"]) expect(ignored).toContain(path);
    expect(ignored).not.toContain("vendor/"); // envelope-runtime-js, a file: dependency
  });

  it("tests, per document, through that document's write tool, that the store refuses a column people own and an undeclared status, and writes a row an agent may write", () => {
    // As prettier lays the file out: compared without whitespace.
    const flat = (text: string) => text.replace(/\s+/g, "");
    const tests = flat(exported(DESK).text("tests/team.test.ts")!);
    expect(tests).toContain(flat('["attendees", "screener", "write_attendees_rows", "organiser_note", "set by an agent", "status", { email: "row-by-an-agent", full_name: "set by an agent", },],'));
    // Agents create no row of a document whose id column is people's.
    expect(tests).toContain(flat('["speaker-queue", "brief-writer", "write_speaker_queue_rows", "talk_id", "set by an agent", "status", null,],'));
    expect(tests).toContain(flat("workspaceTools(documents, agent, () => store).find((t) => t.name === tool)!"));
    expect(tests).toContain(flat("expect(answer).toContain(`column '${humanColumn}' is written by people only`);"));
    // An agent with two documents' tools: the case names the second one's (its first write tool
    // is the other document's, which refuses the column as not its own: the wrong reason).
    const lead = flat(exported("test/fixtures/valid/outbound-lead-desk.envelope.json").text("tests/team.test.ts")!);
    expect(lead).toContain(flat('["messaging-experiments", "email-drafter", "write_messaging_experiments_rows", "angle", "set by an agent", "", { example_subject: "set by an agent", },],'));
  });

  it("reports the documents carried, the README names each document's tools and the commands", () => {
    const files = exported(DESK);
    const report = files.text("ENVELOPE_EXPORT.md")!;
    expect(report).not.toContain("no workspace store yet");
    expect(report).toMatch(/`workspace\[0\]\.columns\[5\]\.owner` \| enforced by the store/);
    // Carried: watch reads the runner's store, or with --url the Agent Server's (its runs started there).
    expect(report).toMatch(/`workspace\[1\]\.triggers` \| `npm start -- watch` \(a served team's: `watch --url URL`, on the Agent Server's store, its runs started there\)/);
    expect(report).not.toMatch(/not watched/);
    const readme = files.text("README.md")!;
    expect(readme).toContain("## Workspace");
    expect(readme).toContain("| workspace documents | `TEAM.workspace`; the rows in the graph's store (`compile({ store })`");
    expect(readme).toContain("Its tools (`list_speaker_queue_rows`, `read_speaker_queue_row`, `write_speaker_queue_rows`) go to `brief-writer` (its prompt names it).");
    expect(readme).toContain("`write_attendees_rows` (workspace attendees)");
    expect(readme).toContain("npm start -- workspace delete DOCUMENT ID [--purge-runs | --keep-runs]");
    expect(readme).toContain("`npm start -- watch` checks the triggers every 60 s");
    expect(readme).toContain("keep `npm start -- watch --url URL` running beside it");
    expect(readme).toContain("For a served team, add `--url URL`");
    expect(readme).not.toContain("are not watched");
    expect(files.text(".env.example")).toContain("# ENVELOPE_WORKSPACE_WEBHOOK_URL=");
  });

  it("leaves a team without documents as it was: no store in its graph", () => {
    const files = exported("test/fixtures/valid/parallel-gates.envelope.json");
    expect(files.text("src/team.ts")).not.toContain("workspace");
    expect(files.text("src/graph.ts")).toContain(".compile({ checkpointer, name: TEAM.slug })");
    expect(files.text("README.md")).not.toContain("## Workspace");
  });
});
