// Diagnostics as text (for people), JSON (for programs) or GitHub workflow annotations.
import { MAX_ALSO_AT, type Diagnostic } from "../diagnostics/diagnostic.js";
import { printable, type Style } from "./style.js";

export interface FileReport {
  file: string;
  valid: boolean;
  diagnostics: Diagnostic[];
  /** Source text, for snippets (absent when the file could not be decoded). */
  text?: string;
}

export function formatText(reports: FileReport[], style: Style): string {
  if (reports.length === 0) return "";
  const out: string[] = [];
  for (const r of reports) {
    const lines = r.text?.replace(/^\uFEFF/, "").split("\n");
    for (const d of r.diagnostics) {
      const sev = d.severity === "error" ? style.red("error") : style.yellow("warning");
      const where = d.line > 0 ? `${r.file}:${d.line}:${d.column}` : r.file;
      out.push(`${style.bold(printable(where))}: ${sev} ${style.dim(d.code)} ${printable(d.message)}${times(d)}`);
      if (d.pointer) out.push(`  ${style.dim("at")} ${printable(d.pointer)}`);
      const others = alsoAt(d);
      if (others) out.push(`  ${style.dim("also at")} ${printable(others)}`);
      const src = lines && d.line > 0 ? lines[d.line - 1] : undefined;
      if (src !== undefined) out.push(...snippet(printable(src.replace(/\r$/, "")), d.column, d.line, style));
      if (d.hint) out.push(`  ${style.cyan("hint:")} ${printable(d.hint)}`);
    }
    const errors = r.diagnostics.filter((d) => d.severity === "error").length;
    const warnings = r.diagnostics.length - errors;
    const verdict = r.valid ? "valid" : "invalid";
    out.push(`${r.file}: ${verdict} (${plural(errors, "error")}, ${plural(warnings, "warning")})`);
  }
  return out.join("\n") + "\n";
}

/** " (×N)" for a diagnostic that stands for N identical ones. */
function times(d: Diagnostic): string {
  return d.count !== undefined && d.count > 1 ? ` (×${d.count})` : "";
}

/** "/a/1 (3:5), /a/2 (4:5), …" for a diagnostic found at several places (its "(×N)" says how many). */
function alsoAt(d: Diagnostic): string | undefined {
  const places = d.alsoAt ?? [];
  if (places.length === 0) return undefined;
  const listed = places.map((p) => (p.line > 0 ? `${p.pointer} (${p.line}:${p.column})` : p.pointer)).join(", ");
  return (d.count ?? 1) > places.length + 1 && places.length === MAX_ALSO_AT ? `${listed}, …` : listed;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The source line around the column (long lines are cut) with a caret under the column. */
function snippet(line: string, column: number, lineNo: number, style: Style): string[] {
  const clean = line.replace(/\t/g, " "); // a CRLF file's \r is gone before printable() shows it
  const width = 100;
  let start = 0;
  if (clean.length > width) start = Math.max(0, Math.min(column - 1 - 40, clean.length - width));
  const shown = (start > 0 ? "…" : "") + clean.slice(start, start + width) + (start + width < clean.length ? "…" : "");
  const gutter = `${lineNo} | `;
  const caretAt = column - 1 - start + (start > 0 ? 1 : 0);
  return [`  ${style.dim(gutter)}${shown}`, `  ${" ".repeat(gutter.length)}${" ".repeat(Math.max(0, caretAt))}${style.red("^")}`];
}

export function formatJson(reports: FileReport[]): string {
  const files = reports.map((r) => ({
    file: r.file,
    valid: r.valid,
    errors: r.diagnostics.filter((d) => d.severity === "error").length,
    warnings: r.diagnostics.filter((d) => d.severity === "warning").length,
    diagnostics: r.diagnostics.map(({ file: _file, ...d }) => d),
  }));
  return JSON.stringify({ valid: reports.every((r) => r.valid), files }, null, 2) + "\n";
}

/** `::error file=…,line=…,col=…,title=CODE::message` — escaped as the runner expects. */
export function formatGithub(reports: FileReport[]): string {
  const data = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const prop = (s: string) => data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
  const out: string[] = [];
  for (const r of reports) {
    for (const d of r.diagnostics) {
      // One annotation per listed place, so each shows on its line; the count goes on the first.
      [d, ...(d.alsoAt ?? [])].forEach((place, i) => {
        const props = [`file=${prop(r.file)}`];
        if (place.line > 0) props.push(`line=${place.line}`, `col=${place.column}`);
        props.push(`title=${prop(d.code)}`);
        const message = (d.hint ? `${d.message} (${d.hint})` : d.message) + (i === 0 ? times(d) : "");
        out.push(`::${d.severity} ${props.join(",")}::${data(message)}`);
      });
    }
  }
  return out.length ? out.join("\n") + "\n" : "";
}
