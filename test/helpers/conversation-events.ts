// OpenWOP conversation events as the exported runners write them with --trace: one payload per
// line, its kind the key it carries (initialTurn: conversation.opened, turn:
// conversation.exchanged, finalTurn: conversation.closed). Each line is validated against the
// published OpenWOP v2 schemas in spec/openwop/, unmodified (conversation-event.schema.json and
// the files it $refs: ids, part, run-event-payloads; JSON Schema 2020-12). checkTrace adds the
// rules the schema cannot say: a conversation opens once, before its turns, its turn indexes
// follow 0, 1, 2, …, nothing follows its close, an exchange carries its turn (the published
// `conversation.exchanged` makes `turn` optional; ours always write it), and an agent turn's
// speaker is one of its participants.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { ValidateFunction } from "ajv";
import { ROOT } from "./cli.js";

export interface Turn {
  messageId: string;
  from: string;
  to?: string;
  role: "user" | "agent" | "system";
  turnIndex: number;
  content: unknown;
  ts: number;
  speakerId?: string;
  agent?: { agentId?: string; model?: { provider: string; model: string } };
}

export type ConversationEvent =
  | { kind: "opened"; conversationId: string; agentId?: string; participants?: Array<{ agentId: string; name?: string }>; turn: Turn }
  | { kind: "exchanged"; conversationId: string; turnIndex: number; turn: Turn }
  | { kind: "closed"; conversationId: string; turnIndex: number; turn: Turn; outcome?: unknown };

/** The published schema files, as spec/openwop/README.md lists them (the event schema last). */
export const OPENWOP_SCHEMAS = ["ids.schema.json", "part.schema.json", "run-event-payloads.schema.json", "conversation-event.schema.json"] as const;

let compiled: ValidateFunction | undefined;

/** The conversation-event schema, compiled once with the files it $refs (resolved by their $id). */
export function eventValidator(): ValidateFunction {
  if (compiled) return compiled;
  const require = createRequire(import.meta.url);
  type Ajv = { addSchema(s: object): unknown; getSchema(id: string): ValidateFunction | undefined };
  const { Ajv2020 } = require("ajv/dist/2020") as { Ajv2020: new (o: object) => Ajv };
  const addFormats = require("ajv-formats") as (ajv: Ajv) => Ajv;
  // strict: false, because the published files carry keys no vocabulary defines (`_typeIndex`, `x-openwop-minted`).
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  for (const name of OPENWOP_SCHEMAS) ajv.addSchema(JSON.parse(readFileSync(join(ROOT, "spec/openwop", name), "utf8")) as object);
  compiled = ajv.getSchema("https://openwop.dev/spec/v2/conversation-event.schema.json")!;
  return compiled;
}

/** The problems of one event (a parsed line): the schema's errors, or []. */
export function eventProblems(event: unknown): string[] {
  const validate = eventValidator();
  if (validate(event)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
}

/** Every problem of a trace file's text, and its events (valid lines only). */
export function checkTrace(text: string): { problems: string[]; events: ConversationEvent[] } {
  const problems: string[] = [];
  const events: ConversationEvent[] = [];
  const state = new Map<string, { next: number; closed: boolean; speakers: Set<string> }>();
  text.split("\n").forEach((line, i) => {
    if (line === "") return;
    const at = `line ${i + 1}`;
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      problems.push(`${at}: not JSON: ${String(error)}`);
      return;
    }
    const found = eventProblems(data);
    if (found.length) {
      problems.push(...found.map((p) => `${at}: ${p}`));
      return;
    }
    const id = data.conversationId as string;
    const known = state.get(id);
    let event: ConversationEvent;
    if ("initialTurn" in data) {
      event = { kind: "opened", conversationId: id, agentId: data.agentId as string | undefined, participants: data.participants as Array<{ agentId: string }> | undefined, turn: data.initialTurn as Turn };
      if (known) problems.push(`${at}: ${id} opened again`);
      state.set(id, { next: 1, closed: false, speakers: new Set((event.participants ?? []).map((p) => p.agentId)) });
    } else {
      const turn = (data.turn ?? data.finalTurn) as Turn | undefined;
      if (turn === undefined) {
        problems.push(`${at}: ${id}: an exchange without its turn`);
        return;
      }
      event = "finalTurn" in data ? { kind: "closed", conversationId: id, turnIndex: data.turnIndex as number, turn, outcome: data.outcome } : { kind: "exchanged", conversationId: id, turnIndex: data.turnIndex as number, turn };
      if (!known) problems.push(`${at}: ${id} was not opened`);
      else if (known.closed) problems.push(`${at}: ${id} has closed`);
      else if (event.turnIndex !== known.next || turn.turnIndex !== known.next) problems.push(`${at}: ${id}: turn ${event.turnIndex}, expected ${known.next}`);
      if (known) state.set(id, { ...known, next: known.next + 1, closed: event.kind === "closed" });
    }
    if (event.kind === "opened" && event.turn.turnIndex !== 0) problems.push(`${at}: ${id}: the opening turn is not turn 0`);
    const speaker = event.turn.speakerId;
    if (speaker !== undefined && state.has(id) && !state.get(id)!.speakers.has(speaker)) problems.push(`${at}: ${id}: speaker ${speaker} is not a participant`);
    events.push(event);
  });
  return { problems, events };
}
