// The escaping helpers every target's templates use. Each takes a value from the view and
// returns text that is safe in one syntax; templates cannot output anything else.
import { describeCron } from "../../model/cron.js";
import { mdCode, mdText, mermaidLabel } from "../escape/markdown.js";
import { pyComment, pyEntry, pyIdent, pyLiteral, pyStr, pyStrWrapped } from "../escape/python.js";
import { tomlStr } from "../escape/toml.js";
import { yamlStr } from "../escape/yaml.js";
import type { Helper } from "./template-env.js";

function asString(v: unknown, helper: string): string {
  if (typeof v !== "string") throw new Error(`${helper} expects a string, got ${JSON.stringify(v)}`);
  return v;
}

function asNumber(v: unknown, helper: string): number {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`${helper} expects a number, got ${JSON.stringify(v)}`);
  return v;
}

export const HELPERS: Record<string, Helper> = {
  /** Python `str` literal. */
  py_str: (v) => pyStr(asString(v, "py_str")),
  /** Python `str` literal wrapped to stay within the line limit (any length of text). */
  py_text: (v) => pyStrWrapped(asString(v, "py_text")),
  /** `"key": "value"` of a dict of strings (four spaces in), within the line limit whatever their length. */
  py_entry: (k, v) => pyEntry(asString(k, "py_entry"), asString(v, "py_entry")),
  /** Python literal of JSON-like data. */
  py: (v) => pyLiteral(v),
  /** A name the model's namer chose (asserted, never escaped). */
  ident: (v) => pyIdent(asString(v, "ident")),
  /**
   * Text inside a `# comment`: its parts joined, then bounded as one (so a comment made of a
   * label and definition text still fits the line limit).
   */
  py_comment: (...parts) => pyComment(parts.map((p) => asString(p, "py_comment")).join("")),
  /** An integer or float written as a literal. */
  num: (v) => String(asNumber(v, "num")),
  yaml_str: (v) => yamlStr(asString(v, "yaml_str")),
  /** JSON string (langgraph.json). */
  json_str: (v) => JSON.stringify(asString(v, "json_str")),
  /** A YAML flow sequence of double-quoted strings. */
  yaml_list: (v) => {
    if (!Array.isArray(v)) throw new Error("yaml_list expects an array");
    return "[" + v.map((x) => yamlStr(asString(x, "yaml_list"))).join(", ") + "]";
  },
  toml_str: (v) => tomlStr(asString(v, "toml_str")),
  md_text: (v) => mdText(asString(v, "md_text")),
  md_code: (v) => mdCode(asString(v, "md_code")),
  mermaid: (v) => mermaidLabel(asString(v, "mermaid")),
  cron_words: (v) => mdText(describeCron(asString(v, "cron_words"))),
};

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

/** `${{ secrets.NAME }}` in a GitHub Actions workflow; NAME is asserted, never escaped. */
HELPERS.gha_secret = (v) => {
  const name = asString(v, "gha_secret");
  if (!ENV_NAME.test(name)) throw new Error(`not an environment name: ${JSON.stringify(name)}`);
  return "${{ secrets." + name + " }}";
};
/** `${{ vars.NAME }}` (repository variables, for non-secret settings). */
HELPERS.gha_var = (v) => {
  const name = asString(v, "gha_var");
  if (!ENV_NAME.test(name)) throw new Error(`not an environment name: ${JSON.stringify(name)}`);
  return "${{ vars." + name + " }}";
};
/** An environment variable name (asserted). */
HELPERS.env_name = (v) => {
  const name = asString(v, "env_name");
  if (!ENV_NAME.test(name)) throw new Error(`not an environment name: ${JSON.stringify(name)}`);
  return name;
};

/** A command-line flag name derived from an identifier (asserted). */
HELPERS.cli_flag = (v) => {
  const flag = asString(v, "cli_flag");
  if (!/^--[a-z][a-z0-9-]*$/.test(flag)) throw new Error(`not a flag name: ${JSON.stringify(flag)}`);
  return flag;
};

/**
 * A Markdown document written by the definition's author (its `readme`): kept as Markdown,
 * but raw HTML is shown as text and invisible control characters are dropped.
 */
HELPERS.md_doc = (v) =>
  asString(v, "md_doc")
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;");

/** Value helpers: compute strings for the escaping helpers; they can never print. */
export const VALUE_HELPERS = {
  concat: (...parts: unknown[]) => parts.map(String).join(""),
  join: (list: unknown, sep: unknown = ", ") => (Array.isArray(list) ? list.join(typeof sep === "string" ? sep : ", ") : ""),
  /** Whether a field of `list` has JSON type `type` (a template imports `Number` for "number"). */
  has_type: (list: unknown, type: unknown) => Array.isArray(list) && list.some((f) => (f as { type?: unknown }).type === type),
};

// number: envelope_runtime.input_spec's Number, a float written as an int when integral (the
// templates import it where a field has it: has_type). Inputs say `int | float` themselves.
const PY_TYPES: Record<string, string> = { string: "str", number: "Number", boolean: "bool", object: "dict[str, Any]", array: "list[Any]" };

/** The Python type of an input/output field: its JSON type, or a Literal of its enum. */
HELPERS.py_type = (v) => {
  const field = v as { type?: unknown; enum?: unknown; pyType?: unknown };
  // A target's view may choose the type itself (CrewAI: JSON text for arrays and objects).
  if (field.pyType !== undefined) return pyIdent(asString(field.pyType, "py_type"));
  if (Array.isArray(field.enum) && field.enum.length > 0 && (field.type === "string" || field.type === undefined)) {
    // Wrapped: ruff puts a long Literal's values one per line, where a long one still fits.
    return `Literal[${field.enum.map((e) => pyStrWrapped(asString(e, "py_type"))).join(", ")}]`;
  }
  const t = PY_TYPES[asString(field.type, "py_type")];
  if (!t) throw new Error(`py_type: unknown type ${JSON.stringify(field.type)}`);
  return t;
};

/** A CrewAI Flow decorator from its structured form (method names asserted, labels escaped):
 * `start()`, `listen(a)`, `listen(and_(a, b))` or with `any` `listen(or_(a, "label"))`,
 * `router(a, emit=[...])` (the labels `crewai flow plot` draws), and a gate's
 * `human_feedback(message=..., provider=GateReview(), metadata={"gate": name})`. */
HELPERS.flow_decorator = (v) => {
  const d = v as { kind: string; triggers?: Array<{ method?: string; label?: string }>; after?: string; emit?: string[]; any?: boolean; message?: string; gate?: string };
  if (d.kind === "start") return "start()";
  const str = (x: unknown) => pyStrWrapped(asString(x, "flow_decorator"));
  if (d.kind === "router") return `router(${pyIdent(asString(d.after, "flow_decorator"))}, emit=[${(d.emit ?? []).map(str).join(", ")}])`;
  if (d.kind === "feedback") return `human_feedback(message=${str(d.message)}, provider=GateReview(), metadata={"gate": ${str(d.gate)}})`;
  const parts = (d.triggers ?? []).map((t) => (t.method !== undefined ? pyIdent(t.method) : str(t.label)));
  if (parts.length === 0) throw new Error("flow_decorator: listen without triggers");
  // A long label alone is its wrapped literal's parentheses as the call's own: `listen(("…" "…"))`
  // is ruff's UP034 once its formatter joins the pieces.
  if (parts.length === 1 && d.triggers![0]!.method === undefined && parts[0]!.startsWith("(")) return `listen${parts[0]}`;
  return `listen(${parts.length === 1 ? parts[0] : `${d.any ? "or_" : "and_"}(${parts.join(", ")})`})`;
};

/** A Python list of str literals. */
HELPERS.py_list = (v) => {
  if (!Array.isArray(v)) throw new Error("py_list expects an array");
  return `[${v.map((x) => pyStrWrapped(asString(x, "py_list"))).join(", ")}]`;
};
/** A tuple of strings: `()`, `("a",)`, `("a", "b")` — no trailing comma to explode it. */
HELPERS.py_tuple = (v) => {
  if (!Array.isArray(v)) throw new Error("py_tuple expects an array");
  const items = v.map((x) => pyStrWrapped(asString(x, "py_tuple")));
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
};
