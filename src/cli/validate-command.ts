import { readDefinitionBytes, SourceReadError, type SourceDocument } from "../read/source.js";
import { validate } from "../validate/validate.js";
import { formatGithub, formatJson, formatText, type FileReport } from "./format-diagnostics.js";
import { makeDiagnostic } from "../diagnostics/make.js";
import { EXIT, type Io } from "./main.js";
import { styleFor } from "./style.js";

export async function runValidate(files: string[], opts: { format: "text" | "json" | "github"; strict: boolean }, io: Io): Promise<number> {
  if (files.filter((f) => f === "-").length > 1) {
    io.stderr.write("envelope: standard input (-) can be read only once\n");
    return EXIT.usage;
  }
  const reports: FileReport[] = [];
  let ioFailed = false;
  for (const file of files) {
    const checked = await checkFile(file, opts.strict);
    reports.push(checked.report);
    if (checked.unreadable) ioFailed = true;
  }
  if (opts.format === "json") io.stdout.write(formatJson(reports));
  else if (opts.format === "github") io.stdout.write(formatGithub(reports));
  else io.stdout.write(formatText(reports, styleFor(io.stdout, io.env)));
  if (ioFailed) return EXIT.usage;
  return reports.every((r) => r.valid) ? EXIT.ok : EXIT.invalid;
}

/** Reads and validates one file (`forExport`: as an export reads it, the registry's own errors as warnings). A file that cannot be read at all is an E_READ report. */
export async function checkFile(file: string, strict: boolean, forExport = false): Promise<{ report: FileReport; document?: SourceDocument; unreadable?: true }> {
  const label = file === "-" ? "<stdin>" : file;
  let bytes: Uint8Array;
  try {
    bytes = await readDefinitionBytes(file);
  } catch (e) {
    if (!(e instanceof SourceReadError)) throw e;
    const diagnostic = makeDiagnostic("E_READ", "", { line: 0, column: 0 }, e.message, { file: label });
    return { report: { file: label, valid: false, diagnostics: [diagnostic] }, unreadable: true };
  }
  // The library's validate() is the one place that merges, promotes (--strict) and orders.
  const { valid, diagnostics, document } = validate(bytes, { strict, file: label, forExport });
  // Not JSON (or not UTF-8): the snippet still shows the line, decoded as well as it can be.
  if (!document) return { report: { file: label, valid, diagnostics, text: new TextDecoder().decode(bytes) } };
  return { report: { file: label, valid, diagnostics, text: document.text }, document };
}
