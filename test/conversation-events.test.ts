// The trace checker the real-path tests use (test/helpers/conversation-events.ts): the
// published OpenWOP v2 conversation-event schema and the files it $refs, byte for byte as
// spec/openwop/README.md records them, and the ordering rules.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exportDefinition } from "../src/export/export.js";
import { TARGETS } from "../src/targets/index.js";
import { ROOT } from "./helpers/cli.js";
import { checkTrace, eventProblems, OPENWOP_SCHEMAS } from "./helpers/conversation-events.js";

const turn = (index: number, extra: Record<string, unknown> = {}) => ({
  messageId: `run:1:${index}`,
  from: "user",
  to: "writer",
  role: "user",
  turnIndex: index,
  content: "Write the brief.",
  ts: 1_718_900_000_000,
  ...extra,
});
const agentTurn = (index: number, extra: Record<string, unknown> = {}) =>
  turn(index, { from: "writer", to: "user", role: "agent", speakerId: "writer", agent: { agentId: "writer", model: { provider: "openai", model: "gpt-4o" } }, ...extra });
const opened = { conversationId: "run:1", agentId: "writer", participants: [{ agentId: "writer", name: "Writer" }], initialTurn: turn(0) };
const exchanged = { conversationId: "run:1", turnIndex: 1, turn: agentTurn(1) };
const closed = { conversationId: "run:1", turnIndex: 2, finalTurn: agentTurn(2), outcome: "The brief." };
const lines = (...events: unknown[]) => events.map((e) => JSON.stringify(e)).join("\n") + "\n";

describe("conversation events", () => {
  it("accepts the three payloads and a conversation in order", () => {
    for (const event of [opened, exchanged, closed]) expect(eventProblems(event)).toEqual([]);
    const { problems, events } = checkTrace(lines(opened, exchanged, closed));
    expect(problems).toEqual([]);
    expect(events.map((e) => e.kind)).toEqual(["opened", "exchanged", "closed"]);
  });

  it("refuses an agent turn without speakerId, a bad agentId, an unknown role, an extra key", () => {
    const { speakerId: _, ...noSpeaker } = agentTurn(1) as Record<string, unknown>;
    expect(eventProblems({ ...exchanged, turn: noSpeaker })).not.toEqual([]);
    expect(eventProblems({ ...opened, agentId: "has space" })).not.toEqual([]);
    expect(eventProblems({ ...exchanged, turn: agentTurn(1, { role: "assistant" }) })).not.toEqual([]);
    expect(eventProblems({ ...exchanged, turn: agentTurn(1, { prompt: "x" }) })).not.toEqual([]);
    expect(eventProblems({ ...exchanged, turnIndex: -1 })).not.toEqual([]);
  });

  it("validates against the published files, unmodified: each one's SHA-256 is the one spec/openwop/README.md records", () => {
    const readme = readFileSync(join(ROOT, "spec/openwop/README.md"), "utf8");
    for (const name of OPENWOP_SCHEMAS) {
      const bytes = readFileSync(join(ROOT, "spec/openwop", name));
      const recorded = new RegExp(`\\| \`${name.replace(/\./g, "\\.")}\` \\|[^\\n]*\\| \`([0-9a-f]{64})\` \\|`).exec(readme)?.[1];
      expect(recorded, `${name}: no SHA-256 in spec/openwop/README.md`).toBeDefined();
      expect(createHash("sha256").update(bytes).digest("hex"), name).toBe(recorded);
      expect((JSON.parse(bytes.toString("utf8")) as { $id: string }).$id).toBe(`https://openwop.dev/spec/v2/${name}`);
    }
  });

  it.each(["crewai", "langgraph"])("%s: the export's README names the OpenWOP schema its traces conform to, the one validated here", (target) => {
    const commit = /`conversation-event\.schema\.json` \| [^|]* at commit `([0-9a-f]{40})`/.exec(readFileSync(join(ROOT, "spec/openwop/README.md"), "utf8"))?.[1];
    expect(commit).toBeDefined();
    const files = exportDefinition(readFileSync(join(ROOT, "examples/support-tier.envelope.json")), TARGETS[target]!).files!;
    const readme = new TextDecoder().decode(files.get("README.md")!.bytes).replace(/\s+/g, " ");
    expect(readme).toContain(`Each line is a payload of OpenWOP v2's \`conversation-event.schema.json\` as published at openwop/openwop commit \`${commit!.slice(0, 7)}\``);
  });

  it("the published v2 shapes: an agent turn's model provenance (RFC 0109) is admitted; a turn's parts must be A2A parts", () => {
    expect(eventProblems({ ...exchanged, turn: agentTurn(1, { parts: [{ text: "The brief." }] }) })).toEqual([]);
    expect(eventProblems({ ...exchanged, turn: agentTurn(1, { parts: [{ text: "a", data: {} }] }) })).not.toEqual([]);
    expect(eventProblems({ ...exchanged, turn: agentTurn(1, { agent: { agentId: "writer", model: { provider: "openai" } } }) })).not.toEqual([]);
  });

  it("refuses model provenance that carries anything but provider and model (a key, an endpoint)", () => {
    const leaky = agentTurn(1, { agent: { agentId: "writer", model: { provider: "openai", model: "gpt-4o", apiKey: "sk-x" } } });
    expect(eventProblems({ ...exchanged, turn: leaky })).not.toEqual([]);
    const endpoint = agentTurn(1, { agent: { agentId: "writer", baseUrl: "http://127.0.0.1" } });
    expect(eventProblems({ ...exchanged, turn: endpoint })).not.toEqual([]);
  });

  it("refuses a trace out of order: a turn before its opening, a skipped index, a turn after the close, a stranger speaking", () => {
    expect(checkTrace(lines(exchanged)).problems).toEqual(["line 1: run:1 was not opened"]);
    expect(checkTrace(lines(opened, closed)).problems).toEqual(["line 2: run:1: turn 2, expected 1"]);
    expect(checkTrace(lines(opened, { ...exchanged, turnIndex: 0, turn: agentTurn(0) })).problems).toEqual(["line 2: run:1: turn 0, expected 1"]);
    // The published exchange admits no turn (RFC 0186 keeps `outcome`-only hosts valid); ours always carry one.
    expect(checkTrace(lines(opened, { conversationId: "run:1", turnIndex: 1 })).problems).toEqual(["line 2: run:1: an exchange without its turn"]);
    expect(checkTrace(lines(opened, exchanged, closed, { ...exchanged, turnIndex: 3, turn: agentTurn(3) })).problems).toEqual(["line 4: run:1 has closed"]);
    const stranger = { ...exchanged, turn: agentTurn(1, { from: "critic", speakerId: "critic", agent: { agentId: "critic" } }) };
    expect(checkTrace(lines(opened, stranger)).problems).toEqual(["line 2: run:1: speaker critic is not a participant"]);
    expect(checkTrace("{not json\n").problems[0]).toMatch(/^line 1: not JSON/);
  });
});
