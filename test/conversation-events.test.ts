// The trace checker the real-path tests use (test/helpers/conversation-events.ts): the
// OpenWOP conversation-event schema as copied in spec/openwop/, and the ordering rules.
import { describe, expect, it } from "vitest";
import { checkTrace, eventProblems } from "./helpers/conversation-events.js";

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
    expect(eventProblems({ ...exchanged, turnIndex: 0 })).not.toEqual([]);
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
    expect(checkTrace(lines(opened, exchanged, closed, { ...exchanged, turnIndex: 3, turn: agentTurn(3) })).problems).toEqual(["line 4: run:1 has closed"]);
    const stranger = { ...exchanged, turn: agentTurn(1, { from: "critic", speakerId: "critic", agent: { agentId: "critic" } }) };
    expect(checkTrace(lines(opened, stranger)).problems).toEqual(["line 2: run:1: speaker critic is not a participant"]);
    expect(checkTrace("{not json\n").problems[0]).toMatch(/^line 1: not JSON/);
  });
});
