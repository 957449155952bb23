// A gate reviewed at the terminal, record by record, as the Python targets' runner asks
// (gate_terminal.py): each record's fields, then an action by number or label; a reject asks
// for feedback; `reset` takes back the answer before. Prompts go to standard error: standard
// output carries the run's JSON.
import { createInterface } from "node:readline";
import { undecided, verbOf, type DecisionItem, type GateSpec, type GateState, type RecordAction } from "./gates.js";

/** Asks one line (`prompt` shown first); null: no more input (end of file). */
export type Ask = (prompt: string) => Promise<string | null>;

/** The reviewer's decisions on the gate's undecided records; null when they gave none (input ended at once). */
export async function reviewAtTerminal(spec: GateSpec, gate: GateState, ask: Ask, write: (text: string) => void): Promise<DecisionItem[] | null> {
  const pending = undecided(gate);
  const menu = spec.actions.map((a, n) => `[${n + 1}] ${a.label}`).join("  ");
  write(`\nReview gate ${spec.name} (${spec.type}) after step ${spec.afterStep}: ${pending.length} record(s).\nActions: ${menu}`);
  const answers: DecisionItem[] = [];
  let index = 0;
  while (index < pending.length) {
    const record = pending[index]!;
    write(`\nRecord ${record.id}`);
    for (const field of spec.fields) write(`  ${field}: ${text(record.data[field])}`);
    const choice = await ask(`Action for ${record.id}: `);
    if (choice === null) return answers.length ? answers : null;
    const action = actionOf(spec, choice.trim());
    if (action === undefined) {
      write(`  Choose 1-${spec.actions.length} or an action label.`);
      continue;
    }
    if (action.verb === "reset") {
      if (answers.length) {
        answers.pop();
        index -= 1;
      }
      continue;
    }
    const feedback = action.verb === "reject" ? ((await ask("Feedback (why rejected): ")) ?? "").trim() : "";
    answers.push({ record: record.id, action: action.verb, feedback });
    index += 1;
  }
  return answers;
}

function actionOf(spec: GateSpec, choice: string): RecordAction | undefined {
  if (/^\d+$/.test(choice) && Number(choice) >= 1 && Number(choice) <= spec.actions.length) return spec.actions[Number(choice) - 1];
  const verb = choice ? verbOf(spec, choice) : undefined;
  return spec.actions.find((a) => a.verb === verb);
}

const text = (value: unknown) => (value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value));

/** Lines of standard input, each asked with its prompt on standard error; `close` ends it (else the process waits on stdin). */
export function terminalAsk(): { ask: Ask; close: () => void } {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  return {
    ask: async (prompt) => {
      process.stderr.write(prompt);
      const next = await lines.next();
      return next.done ? null : String(next.value);
    },
    close: () => rl.close(),
  };
}
