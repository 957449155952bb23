// The langgraph-js target's side of the hostile-definition checks (harness.ts calls it for
// that target only; the Python checker, check_project.py, cannot read TypeScript):
//   code      each exported .ts file parses without a diagnostic, and its syntax — every node's
//             kind, every identifier and number — is the one the generator writes for a benign
//             twin of the same team: the export's view with every string that is not plain
//             ASCII words replaced by a distinct harmless one, through the same generator and
//             prettier. Definition text can only be a string literal's value, a property name
//             or a comment's text; text that escaped any of them would add or change nodes.
//   prototype no object literal has a `__proto__` key that is not computed (`{"__proto__": x}`
//             sets the object's prototype instead of a key named so).
//   strings   every string literal's value and property name, for the checker's pool (each
//             carried string must be given back exactly, see expectations.ts).
//   data      src/team.ts's TEAM is a literal (strings, numbers, booleans, null, arrays, objects),
//             and each agent's prompt, rendered by envelope-runtime-js as a run renders it,
//             is what the team model says (promptRendering).
import type { ts as TS } from "ts-morph";
import { requireCjs } from "../../src/require-cjs.js";
import type { FileSet } from "../../src/export/file-set.js";
import type { LossEntry } from "../../src/export/loss-report.js";
import type { TeamModel } from "../../src/model/types.js";
import { formatAll } from "../../src/targets/langgraph-js/format.js";
import { buildTypeScript } from "../../src/targets/langgraph-js/typescript.js";
import { buildView } from "../../src/targets/langgraph-js/view.js";
import { placeholderValues, render } from "../../js/envelope-runtime/src/placeholders.js";
import { promptRendering } from "./expectations.js";

const { ts } = requireCjs(import.meta.url, "ts-morph") as typeof import("ts-morph");

const parse = (path: string, text: string) => ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);

const isPropertyName = (node: TS.Node) =>
  node.parent !== undefined && (ts.isPropertyAssignment(node.parent) || ts.isPropertySignature(node.parent) || ts.isPropertyDeclaration(node.parent) || ts.isMethodDeclaration(node.parent)) && node.parent.name === node;

/** The file's syntax with the definition's text left out: kinds, identifiers, numbers. */
function skeleton(file: TS.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: TS.Node): void => {
    if (isPropertyName(node) && (ts.isIdentifier(node) || ts.isStringLiteral(node) || ts.isNumericLiteral(node))) out.push("PropertyName");
    else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push("String");
    else if (ts.isIdentifier(node)) out.push(`Identifier ${node.text}`);
    else if (ts.isNumericLiteral(node)) out.push(`Number ${node.text}`);
    else out.push(ts.SyntaxKind[node.kind]!);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

const diagnostics = (file: TS.SourceFile) => (file as unknown as { parseDiagnostics: readonly TS.DiagnosticWithLocation[] }).parseDiagnostics;

/** Every string literal's value and property name in the file. */
function strings(file: TS.SourceFile, into: string[]): void {
  const visit = (node: TS.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || (ts.isIdentifier(node) && isPropertyName(node))) into.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
}

function protoKeys(file: TS.SourceFile): number {
  let found = 0;
  const visit = (node: TS.Node): void => {
    if (ts.isPropertyAssignment(node) && !ts.isComputedPropertyName(node.name) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) && node.name.text === "__proto__") found++;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** An expression that is a JSON literal, as its value (undefined with a problem otherwise). */
function dataOf(node: TS.Expression, problems: string[]): unknown {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) return -Number(node.operand.text);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isArrayLiteralExpression(node)) return node.elements.map((e) => dataOf(e, problems));
  if (ts.isObjectLiteralExpression(node)) {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const p of node.properties) {
      const name = ts.isPropertyAssignment(p) ? (ts.isComputedPropertyName(p.name) && ts.isStringLiteral(p.name.expression) ? p.name.expression : p.name) : undefined;
      if (!p || !ts.isPropertyAssignment(p) || !name || !(ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name))) {
        problems.push(`src/team.ts: TEAM holds a ${ts.SyntaxKind[p.kind]}, not data`);
        continue;
      }
      out[name.text] = dataOf(p.initializer, problems);
    }
    return out;
  }
  problems.push(`src/team.ts: TEAM holds a ${ts.SyntaxKind[node.kind]}, not data: ${node.getText().slice(0, 80)}`);
  return undefined;
}

/** A string of ASCII words, spaces, `.`, `:` and `-` stays (enum values, ids, numbers); every other one gets a harmless stand-in. */
function benignTwin<T>(value: T, names: Map<string, string>): T {
  const map = (s: string): string => {
    if (/^[A-Za-z0-9_.: -]*$/.test(s)) return s;
    let twin = names.get(s);
    if (twin === undefined) names.set(s, (twin = `benign_${names.size}`));
    return twin;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return map(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [map(k), walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** The checks above for one langgraph-js export: problems, and the strings for the checker's pool. */
export function checkTypeScriptExport(files: FileSet, model: TeamModel, loss: LossEntry[]): { problems: string[]; strings: string[] } {
  const problems: string[] = [];
  const pool: string[] = [];
  const tsPaths = files.paths().filter((p) => p.endsWith(".ts") && !files.get(p)!.verbatim);
  const parsed = new Map(tsPaths.map((p) => [p, parse(p, files.text(p) ?? "")]));

  const view = buildView(model, loss);
  const names = new Map<string, string>();
  const twinView = { ...view, team: benignTwin(view.team, names), contextFields: benignTwin(view.contextFields, names), sampleInputs: benignTwin(view.sampleInputs, names), sampleResult: benignTwin(view.sampleResult, names) };
  const twinSources = buildTypeScript(twinView);
  const twinTexts = formatAll(twinSources.map((f) => ({ path: f.path, text: f.text, parser: "typescript" as const })));
  const twins = new Map(twinSources.map((f, i) => [f.path, parse(f.path, twinTexts[i]!)]));
  if ([...twins.keys()].sort().join() !== tsPaths.slice().sort().join()) problems.push(`TypeScript files ${tsPaths.join(", ")} differ from the generator's ${[...twins.keys()].join(", ")}`);

  for (const [path, file] of parsed) {
    const errors = diagnostics(file);
    if (errors.length) problems.push(`${path}: does not parse: ${ts.flattenDiagnosticMessageText(errors[0]!.messageText, "\n")}`);
    const twin = twins.get(path);
    if (twin) {
      const got = skeleton(file);
      const want = skeleton(twin);
      const at = got.findIndex((k, i) => k !== want[i]);
      if (at >= 0 || got.length !== want.length) {
        const i = at >= 0 ? at : Math.min(got.length, want.length);
        problems.push(`${path}: definition text became code: node ${i} is ${got.slice(i, i + 6).join(" > ") || "(end)"} where the generator writes ${want.slice(i, i + 6).join(" > ") || "(end)"}`);
      }
    }
    const proto = protoKeys(file);
    if (proto) problems.push(`${path}: ${proto} object key(s) "__proto__" not computed: they set the object's prototype`);
    strings(file, pool);
  }

  const team = parsed.get("src/team.ts");
  const declaration = team?.statements.filter(ts.isVariableStatement).flatMap((s) => [...s.declarationList.declarations]).find((d) => ts.isIdentifier(d.name) && d.name.text === "TEAM");
  if (!declaration?.initializer) problems.push("src/team.ts: no TEAM");
  else {
    const spec = dataOf(declaration.initializer, problems) as { agents?: Array<{ key: string; prompt: string }>; variables?: string[]; secrets?: string[]; inputs?: Array<{ key: string }> } | undefined;
    const prompts = promptRendering(model, "langgraph-js");
    for (const agent of prompts.agents) {
      const written = spec?.agents?.find((a) => a.key === agent.key);
      if (!written) {
        problems.push(`src/team.ts: no agent ${JSON.stringify(agent.key)} in TEAM`);
        continue;
      }
      const values = placeholderValues([...(spec?.secrets ?? []), ...(spec?.variables ?? [])], prompts.environ, prompts.inputs, (spec?.inputs ?? []).map((i) => i.key));
      const got = render(written.prompt, values);
      if (got !== agent.rendered) {
        const first = [...got].findIndex((c, i) => c !== agent.rendered[i]);
        const at = first >= 0 ? first : Math.min(got.length, agent.rendered.length);
        problems.push(`prompt of ${JSON.stringify(agent.key)} renders differently from the model at ${at}: ${JSON.stringify(got.slice(Math.max(0, at - 40), at + 80))} != ${JSON.stringify(agent.rendered.slice(Math.max(0, at - 40), at + 80))}`);
      }
    }
  }
  return { problems, strings: pool };
}
