import { modelFromDocument } from "../model/index.js";
import { describeModel } from "./describe-model.js";
import { formatText } from "./format-diagnostics.js";
import { EXIT, type Io } from "./main.js";
import { printable, styleFor } from "./style.js";
import { checkFile } from "./validate-command.js";

export async function runInspect(file: string, opts: { json: boolean; strict: boolean }, io: Io): Promise<number> {
  // The model an export builds: a registry-only error (pricing without amount) does not stop it.
  const { report, document, unreadable } = await checkFile(file, opts.strict, true);
  // Diagnostics go to stderr so stdout stays pure JSON (or the summary) for pipes.
  if (report.diagnostics.length) io.stderr.write(formatText([report], styleFor(io.stderr, io.env)));
  if (unreadable) return EXIT.usage;
  if (!report.valid || !document) return EXIT.invalid;
  const model = modelFromDocument(document);
  io.stdout.write(opts.json ? JSON.stringify(model, null, 2) + "\n" : printable(describeModel(model)));
  return EXIT.ok;
}
