// What a developer handed a Python export reads first, checked against what the export holds
// (found receiving event-signup-desk's exports: a team with workspace documents, triggers and
// a cron schedule, no gates and no access policy). The README names only files the project
// has and tools its agents hold, the loss report says where the rows are as langgraph.json
// does, the scheduled workflow hands `watch` the webhook its notify triggers post to, and
// generated texts render as Markdown or Python without stray words.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";
import { exportFor } from "./helpers/export.js";
import { WORKSPACE_WEBHOOK_ENV } from "../src/targets/python-common/team-view.js";

const DESK = "test/fixtures/valid/event-signup-desk.envelope.json";
const desk = () => JSON.parse(readFileSync(`${ROOT}${DESK}`, "utf8")) as Record<string, unknown> & { workspace: Array<{ triggers?: Array<{ action: string }> }> };

describe("LangGraph: the README and the loss report of a workspace team without gates", () => {
  const x = exportFor(DESK, "langgraph");
  const readme = x.text("README.md");

  it("names only modules the project has", () => {
    const intro = /What is about this team is in (.*?) and `prompts\/`/s.exec(readme)?.[1] ?? "";
    const modules = [...intro.matchAll(/`([a-z_]+\.py)`/g)].map((m) => m[1]!);
    expect(modules).toContain("graph.py");
    for (const module of modules) expect(x.files.paths(), module).toContain(`src/event_signup_desk/${module}`);
  });

  it("describes no http_request tool when no agent has one", () => {
    expect(x.text("src/event_signup_desk/team.py")).toContain("no agent gets an http_request tool");
    const section = readme.slice(readme.indexOf("## Access policies"), readme.indexOf("\n## ", readme.indexOf("## Access policies") + 3));
    expect(section).toContain("No agent of this team has an access policy or allowed hosts");
    expect(section).not.toContain("rules top to bottom");
  });

  it("says what each generated test file checks", () => {
    for (const path of x.files.paths().filter((p) => /^tests\/test_.*\.py$/.test(p))) expect(readme, path).toContain(`\`${path}\``);
  });

  it("says the server's cron does not check the workspace triggers, which the workflow's watch did", () => {
    expect(x.text(".github/workflows/scheduled-run.yml")).toContain("uv run event_signup_desk watch --once");
    const cron = readme.slice(readme.indexOf("as one of the server's own crons"), readme.indexOf("## Prompts"));
    expect(cron).toContain("client.crons.create(");
    expect(cron).toContain("`uv run event_signup_desk watch --url URL`");
  });

  it("says which field names the compiled graph", () => {
    expect(x.text("src/event_signup_desk/graph.py")).toContain("builder.compile(checkpointer=checkpointer, store=store, name=team.SLUG)");
    const detail = (pointer: string) => x.loss.find((e) => e.pointer === pointer)?.detail ?? "";
    expect(detail("/slug")).toContain("the compiled graph's name");
    expect(detail("/name")).not.toContain("compiled graph");
  });

  it("says the entry agent's name reaches no ask_ tool, as only reports have one", () => {
    const tools = x.text("tests/test_team_graph.py");
    expect(tools).toContain('"ask_brief_writer"');
    expect(tools).not.toContain('"ask_screener"');
    const detail = (pointer: string) => x.loss.find((e) => e.pointer === pointer)?.detail ?? "";
    expect(detail("/agents/0/name")).not.toContain("ask_ tool)");
    expect(detail("/agents/0/name")).toContain("the entry agent is no one's ask_ tool");
    expect(detail("/agents/1/name")).toContain("its manager's ask_ tool");
  });

  it("says the served rows are the server's store, as langgraph.json names none", () => {
    expect(JSON.parse(x.text("langgraph.json"))).not.toHaveProperty("store");
    const where = x.loss.find((e) => e.pointer === "/workspace/0/name")?.detail ?? "";
    expect(where).not.toContain("langgraph.json gives");
    expect(where).toContain("Agent Server's own store");
  });
});

it("CrewAI: the loss report says DATABASE_URL's database holds the rows when it is set, as the README does", () => {
  const x = exportFor(DESK, "crewai");
  expect(x.text("README.md")).toContain("with `DATABASE_URL` set, in that database instead");
  expect(x.loss.find((e) => e.pointer === "/workspace/0/name")?.detail).toContain("DATABASE_URL");
});

describe.each(["crewai", "langgraph"])("%s: the scheduled workflow of a team with notify triggers", (target) => {
  it("passes ENVELOPE_WORKSPACE_WEBHOOK_URL to watch, as .env.example lists it", () => {
    const x = exportFor(DESK, target);
    expect(x.text(".env.example")).toContain("# ENVELOPE_WORKSPACE_WEBHOOK_URL=");
    expect(x.text(".github/workflows/scheduled-run.yml")).toContain("          ENVELOPE_WORKSPACE_WEBHOOK_URL: ${{ secrets.ENVELOPE_WORKSPACE_WEBHOOK_URL }}\n");
  });

  it("names the variable the runtime reads", () => {
    const workspace = readFileSync(`${ROOT}python/envelope-runtime/src/envelope_runtime/workspace.py`, "utf8");
    expect(workspace).toContain(`\nWEBHOOK_ENV = "${WORKSPACE_WEBHOOK_ENV}"\n`);
  });

  it("passes no webhook when no trigger notifies", () => {
    const def = desk();
    def.workspace = def.workspace.map((d) => ({ ...d, triggers: (d.triggers ?? []).filter((t) => t.action !== "notify") }));
    const x = exportFor(def, target);
    expect(x.text(".github/workflows/scheduled-run.yml")).toContain("watch --once");
    expect(x.text(".github/workflows/scheduled-run.yml")).not.toContain("ENVELOPE_WORKSPACE_WEBHOOK_URL");
  });
});

describe("CrewAI: a hierarchical crew's workspace", () => {
  const x = exportFor(DESK, "crewai");

  it("the README's delete paragraph has no escaped backticks and no pipeline runs", () => {
    const readme = x.text("README.md");
    const paragraph = readme.slice(readme.indexOf("`workspace delete` deletes the row"), readme.indexOf("`--purge-runs` deletes"));
    expect(paragraph).toContain("CrewAI's own record of the latest run's task outputs");
    expect(paragraph).not.toContain("\\`");
    expect(paragraph).not.toContain("pipeline");
  });

  it("the generated test names no delegate_to_team tool when no agent runs a sub-team", () => {
    const test = x.text("tests/test_team.py");
    expect(test).toContain("SUB_TEAM_AGENTS: tuple[str, ...] = ()");
    expect(test).not.toContain("delegate_to_team below");
  });
});
