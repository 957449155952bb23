// Handlebars for generated code, made safe by construction:
//  - HTML escaping is off (it would corrupt Python and YAML), and instead
//  - every `{{…}}` in a template must call an escaping helper (`{{py_str x}}`, `{{ident x}}`,
//    `{{yaml_str x}}`, …): a bare `{{value}}` or a triple-stash `{{{value}}}` is rejected
//    when the template is compiled, so no definition text can reach output unescaped;
//  - `strict` mode makes a misspelled field an error instead of an empty string.
// A template named `_name.hbs` is also the partial `{{> name}}` (checked like any other), so
// text two targets share is written once (templates/python-common/).
// Templates are compiled to JavaScript by `npm run build` (precompileTemplates, through
// scripts/build-artifacts.mjs) and run on Handlebars' small runtime (createPrecompiledEnv):
// compiling them cost a cold export ~100 ms. Other template folders (a test's own, an edited
// templates/) still compile here at run time, with the same checks and options.
// Handlebars ships CommonJS and loading templates is synchronous, so it is required lazily:
// the compiler is loaded only when something is compiled.
import type HandlebarsNamespace from "handlebars";
import { requireCjs } from "../../require-cjs.js";

type Handlebars = typeof HandlebarsNamespace;
const require = (id: string): unknown => requireCjs(import.meta.url, id);

export type Helper = (...args: unknown[]) => string;
type ValueHelpers = Record<string, (...args: never[]) => unknown>;

/** Block helpers and built-ins allowed in `{{#…}}` / `{{else …}}` positions. */
const BLOCK_HELPERS = new Set(["each", "if", "unless", "with"]);

export interface TemplateEnv {
  render(name: string, context: object): string;
}

/** One set of compile options for both paths: precompiled and run-time output must not differ. */
function compileOptions(hb: Handlebars): CompileOptions {
  // Every helper is known when templates compile: Handlebars then calls them directly
  // instead of looking each name up in the context first (a third of render time).
  const knownHelpers = Object.fromEntries(Object.keys(hb.helpers).map((name) => [name, true]));
  return { noEscape: true, strict: true, preventIndent: false, knownHelpers, knownHelpersOnly: true };
}

/** A Handlebars environment (compiler or runtime) with our helpers registered. */
function environment(base: Handlebars, helpers: Record<string, Helper>, valueHelpers: ValueHelpers): Handlebars {
  const hb = base.create();
  for (const [name, fn] of Object.entries(helpers)) {
    hb.registerHelper(name, (...args: unknown[]) => fn(...args.slice(0, -1)));
  }
  for (const [name, fn] of Object.entries(valueHelpers)) {
    hb.registerHelper(name, (...args: unknown[]) => (fn as (...a: unknown[]) => unknown)(...args.slice(0, -1)));
  }
  registerLogicHelpers(hb);
  return hb;
}

const partialName = (name: string) => name.slice(1).replace(/\.hbs$/, "");

function envOf(compiled: Map<string, HandlebarsTemplateDelegate>): TemplateEnv {
  return {
    render(name, context) {
      const t = compiled.get(name);
      if (!t) throw new Error(`no template ${name}`);
      try {
        return t(context);
      } catch (e) {
        throw new Error(`rendering template ${name}: ${(e as Error).message}`);
      }
    },
  };
}

/**
 * `helpers` escape for one syntax and may print; `valueHelpers` compute values (joining,
 * concatenating) and may only feed another helper inside `(…)`, never print.
 */
export function createTemplateEnv(templates: Record<string, string>, helpers: Record<string, Helper>, valueHelpers: ValueHelpers = {}): TemplateEnv {
  const hb = environment(require("handlebars") as Handlebars, helpers, valueHelpers);
  const printable = new Set(Object.keys(helpers));
  const options = compileOptions(hb);
  const compiled = new Map<string, HandlebarsTemplateDelegate>();
  for (const [name, source] of Object.entries(templates)) {
    checkTemplate(name, hb.parse(source), printable);
    if (name.startsWith("_")) hb.registerPartial(partialName(name), source);
    compiled.set(name, hb.compile(source, options));
  }
  return envOf(compiled);
}

/**
 * JavaScript source of an object literal, template name → compiled template, for
 * createPrecompiledEnv. Checked and compiled exactly as createTemplateEnv does.
 */
export function precompileTemplates(templates: Record<string, string>, helpers: Record<string, Helper>, valueHelpers: ValueHelpers = {}): string {
  const hb = environment(require("handlebars") as Handlebars, helpers, valueHelpers);
  const printable = new Set(Object.keys(helpers));
  const options = compileOptions(hb);
  const entries = Object.entries(templates).map(([name, source]) => {
    checkTemplate(name, hb.parse(source), printable);
    return `${JSON.stringify(name)}: ${hb.precompile(source, options) as string}`;
  });
  return `{\n${entries.join(",\n")}\n}`;
}

/** Templates precompileTemplates made, on Handlebars' runtime (no compiler loaded). */
export function createPrecompiledEnv(specs: Record<string, TemplateSpecification>, helpers: Record<string, Helper>, valueHelpers: ValueHelpers = {}): TemplateEnv {
  const hb = environment(require("handlebars/runtime") as Handlebars, helpers, valueHelpers);
  const compiled = new Map<string, HandlebarsTemplateDelegate>();
  for (const [name, spec] of Object.entries(specs)) {
    const template = hb.template(spec);
    // A partial compiled at run time is compiled with its caller's options: the same ones.
    if (name.startsWith("_")) hb.registerPartial(partialName(name), template);
    compiled.set(name, template);
  }
  return envOf(compiled);
}

/** Helpers for template logic only (eq, ne, and, or, not, gt): they feed #if, never print. */
function registerLogicHelpers(hb: Handlebars): void {
  hb.registerHelper("eq", (a: unknown, b: unknown) => a === b);
  hb.registerHelper("ne", (a: unknown, b: unknown) => a !== b);
  hb.registerHelper("and", (...a: unknown[]) => a.slice(0, -1).every(Boolean));
  hb.registerHelper("or", (...a: unknown[]) => a.slice(0, -1).some(Boolean));
  hb.registerHelper("not", (a: unknown) => !a);
  hb.registerHelper("gt", (a: number, b: number) => a > b);
}

type Node = hbs.AST.Node & Record<string, unknown>;

function checkTemplate(name: string, ast: hbs.AST.Program, allowed: Set<string>): void {
  const fail = (node: Node, why: string) => {
    const loc = (node.loc as hbs.AST.SourceLocation | undefined)?.start;
    throw new Error(`template ${name}${loc ? `:${loc.line}:${loc.column + 1}` : ""}: ${why}`);
  };
  const visit = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    const n = node as Node;
    if (n.type === "MustacheStatement") {
      const path = n.path as hbs.AST.PathExpression;
      if (n.escaped === false) fail(n, "triple-stash {{{…}}} is not allowed; use an escaping helper");
      if (path.type !== "PathExpression" || !allowed.has(path.original)) {
        fail(n, `{{${path.original ?? "…"}}} outputs a value without an escaping helper`);
      }
    }
    if (n.type === "BlockStatement") {
      const path = n.path as hbs.AST.PathExpression;
      if (!BLOCK_HELPERS.has(path.original)) fail(n, `block helper #${path.original} is not allowed`);
    }
    for (const value of Object.values(n)) {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === "object" && "type" in value) visit(value);
    }
  };
  visit(ast);
}
