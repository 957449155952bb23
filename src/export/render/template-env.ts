// Handlebars for generated code, made safe by construction:
//  - HTML escaping is off (it would corrupt Python and YAML), and instead
//  - every `{{…}}` in a template must call an escaping helper (`{{py_str x}}`, `{{ident x}}`,
//    `{{yaml_str x}}`, …): a bare `{{value}}` or a triple-stash `{{{value}}}` is rejected
//    when the template is compiled, so no definition text can reach output unescaped;
//  - `strict` mode makes a misspelled field an error instead of an empty string.
// A template named `_name.hbs` is also the partial `{{> name}}` (checked like any other), so
// text two targets share is written once (templates/python-common/).
import Handlebars from "handlebars";

export type Helper = (...args: unknown[]) => string;

/** Block helpers and built-ins allowed in `{{#…}}` / `{{else …}}` positions. */
const BLOCK_HELPERS = new Set(["each", "if", "unless", "with"]);

export interface TemplateEnv {
  render(name: string, context: object): string;
}

/**
 * `helpers` escape for one syntax and may print; `valueHelpers` compute values (joining,
 * concatenating) and may only feed another helper inside `(…)`, never print.
 */
export function createTemplateEnv(
  templates: Record<string, string>,
  helpers: Record<string, Helper>,
  valueHelpers: Record<string, (...args: never[]) => unknown> = {},
): TemplateEnv {
  const hb = Handlebars.create();
  for (const [name, fn] of Object.entries(helpers)) {
    hb.registerHelper(name, (...args: unknown[]) => fn(...args.slice(0, -1)));
  }
  for (const [name, fn] of Object.entries(valueHelpers)) {
    hb.registerHelper(name, (...args: unknown[]) => (fn as (...a: unknown[]) => unknown)(...args.slice(0, -1)));
  }
  registerLogicHelpers(hb);
  const printable = new Set(Object.keys(helpers));
  const compiled = new Map<string, HandlebarsTemplateDelegate>();
  // Every helper is known when templates compile: Handlebars then calls them directly
  // instead of looking each name up in the context first (a third of render time).
  const knownHelpers = Object.fromEntries(Object.keys(hb.helpers).map((name) => [name, true]));
  for (const [name, source] of Object.entries(templates)) {
    checkTemplate(name, hb.parse(source), printable);
    if (name.startsWith("_")) hb.registerPartial(name.slice(1).replace(/\.hbs$/, ""), source);
    compiled.set(name, hb.compile(source, { noEscape: true, strict: true, preventIndent: false, knownHelpers, knownHelpersOnly: true }));
  }
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

/** Helpers for template logic only (eq, ne, and, or, not, gt): they feed #if, never print. */
function registerLogicHelpers(hb: typeof Handlebars): void {
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
