// What started this run besides its inputs: the workspace rows whose trigger fired. The
// runner's `watch` sets them before it runs the team (in this process); every task text that
// carries the run's inputs carries them too. Empty for any other run (the Python targets'
// run_context.py). A run `watch --url` starts on an Agent Server has them in its config
// instead (`configurable.envelope_triggered`): the server's process has no TRIGGERED of its own.
import { getConfig } from "@langchain/langgraph";
import { taskJson } from "./placeholders.js";

/** The triggering rows of this run: {document, trigger, row} each. */
export const TRIGGERED: Array<{ document: string; trigger: { column: string; status: string }; row: unknown }> = [];

/** The triggering rows as a task receives them, after the run inputs ("" when none). */
export function triggerText(): string {
  let rows: unknown[] = TRIGGERED;
  if (!rows.length) {
    try {
      const given: unknown = getConfig()?.configurable?.envelope_triggered;
      if (Array.isArray(given)) rows = given;
    } catch {
      // Outside a graph's node: no config, no rows.
    }
  }
  return rows.length ? `\n\nWorkspace rows that triggered this run (JSON):\n${taskJson(rows)}` : "";
}
