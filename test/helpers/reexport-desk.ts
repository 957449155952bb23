// The definition the re-export tests update a project with, in two versions: v2 changes the
// writer's prompt and the description, removes the checker (its step too), adds an editor
// and a gate. Shared by test/update/reexport.test.ts and test/github/update.test.ts.
import { agent, SCHEMA } from "./definitions.js";

/** The Python package both targets name the project's code after. */
export const PKG = "reexport_desk";

export function definition(version: 1 | 2): string {
  const agents = [
    agent("lead", { role: "manager", title: "Desk Lead", prompt: "You run the research desk.\nHand each brief to the right specialist and check the result." }),
    agent("researcher", { reportsToKey: "lead", title: "Researcher", prompt: "You research the topic {{TOPIC}}.\nList the five most useful sources with one line each." }),
    agent("writer", {
      reportsToKey: "lead",
      title: "Writer",
      prompt: version === 1 ? "You write the brief from the research.\nKeep it under 300 words." : "You write the brief from the research.\nKeep it under 200 words, in plain English.",
    }),
    ...(version === 1 ? [agent("checker", { reportsToKey: "lead", title: "Fact Checker", prompt: "You check every claim in the brief against the sources." })] : []),
    ...(version === 2 ? [agent("editor", { reportsToKey: "lead", title: "Editor", prompt: "You edit the brief for tone and clarity." })] : []),
  ];
  const pipeline = [
    { key: "research", agentKey: "researcher", label: "Research the topic" },
    { key: "draft", agentKey: "writer", label: "Draft the brief" },
    ...(version === 1 ? [{ key: "check", agentKey: "checker", label: "Check the facts" }] : [{ key: "edit", agentKey: "editor", label: "Edit the brief" }]),
    { key: "summary", agentKey: "lead", label: "Summarise for the requester" },
  ];
  const gates = version === 2 ? [{ name: "draft-review", type: "decision", afterStep: "draft", triggersStep: "edit", fields: ["brief"], trigger: "all_resolved", onReject: "halt" }] : [];
  return JSON.stringify(
    {
      $schema: SCHEMA,
      name: "Reexport Desk",
      slug: "reexport-desk",
      version: `1.${version}.0`,
      description: version === 1 ? "Researches a topic and writes a short brief." : "Researches a topic and writes a short, edited brief.",
      visibility: "private",
      inputs: { topic: { type: "string", description: "What to research.", required: true } },
      agents,
      pipeline,
      ...(gates.length ? { gates } : {}),
    },
    null,
    2,
  );
}
