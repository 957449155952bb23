// What started this run besides its inputs: the workspace rows whose trigger fired. The
// runner's `watch` sets them before it runs the team (in this process); every task text that
// carries the run's inputs carries them too. Empty for any other run (the Python targets'
// run_context.py).
import { taskJson } from "./placeholders.js";

/** The triggering rows of this run: {document, trigger, row} each. */
export const TRIGGERED: Array<{ document: string; trigger: { column: string; status: string }; row: unknown }> = [];

/** The triggering rows as a task receives them, after the run inputs ("" when none). */
export function triggerText(): string {
  return TRIGGERED.length ? `\n\nWorkspace rows that triggered this run (JSON):\n${taskJson(TRIGGERED)}` : "";
}
