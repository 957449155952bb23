// Which strings an exported project must give back exactly, derived from the definition and
// the target's own loss report — so the check follows each target's claims, whatever they
// are, and a field the report calls "carried" but the project lost is a failure.
//
// The rule, for every loss entry with status "carried", and every one approximated only for
// its lone surrogates (LONE_SURROGATE_NOTE: the project holds U+FFFD in their place, so the
// expected strings are the well-formed ones). Other approximated and dropped fields make no
// claim; the provenance copy envelope.json is checked separately, byte for byte.
//   every free string under the field — a string the schema does not restrict to an enum or
//   a constant — and every key of a free-form object (inputs, outputs, defaults) must be
//     exact     equal to a string value parsed from a generated file other than envelope.json:
//               a Python literal (ast), a YAML/TOML/JSON value or key, or a whole text file
//               (LangGraph's prompts/<key>.txt);
//   except these documented forms:
//     inside    agents[].name/title/role/capabilities are parts of composite texts (CrewAI's
//               role and goal, LangGraph's agent description): contained in a parsed string;
//               agents[].model and modelConfig.model: the model id after `provider:` is
//               contained in one (each target writes its own provider prefix);
//     markdown  schedule.label goes to the README only: its one-line Markdown display form
//               (line breaks as spaces, invisible characters dropped) is in the README's
//               text once Markdown escapes are undone;
//     document  readme goes to TEAM.md as Markdown with raw HTML shown as text and control
//               characters removed: that text is in TEAM.md once `&lt;`/`&amp;` are undone;
//     cron      schedule.cron with its whitespace normalized, exact.
// A short string can be found by coincidence elsewhere in the project; hostile strings are
// rarely short, so this is a strong check, not a proof.
import { LONE_SURROGATE_NOTE, type LossEntry } from "../../src/export/loss-report.js";
import type { TeamModel } from "../../src/model/types.js";
import { parsePointer } from "../../src/read/json-pointer.js";
import { wellFormed } from "../../src/model/well-formed.js";
import { teamSchema } from "../../src/schema/compose-schema.js";

export type How = "exact" | "inside" | "markdown" | "document";

export interface Expectation {
  pointer: string;
  value: string;
  how: How;
}

type Schema = Record<string, unknown>;

function resolve(node: Schema): Schema {
  const ref = node.$ref;
  if (typeof ref !== "string") return node;
  const defs = teamSchema().$defs as Record<string, Schema>;
  return defs[ref.replace("#/$defs/", "")]!;
}

/** The schema of the value at `segments`, or undefined inside free-form JSON (metadata, defaults). */
function schemaAt(segments: string[]): Schema | undefined {
  let node: Schema | undefined = teamSchema();
  for (const seg of segments) {
    if (!node) return undefined;
    node = resolve(node);
    const props = node.properties as Record<string, Schema> | undefined;
    if (props && Object.hasOwn(props, seg)) node = props[seg];
    else if (node.items && /^\d+$/.test(seg)) node = node.items as Schema;
    else if (node.additionalProperties && typeof node.additionalProperties === "object") node = node.additionalProperties as Schema;
    else return undefined;
  }
  return node && resolve(node);
}

const isFreeString = (segments: string[]) => {
  const s = schemaAt(segments);
  return !s || (s.enum === undefined && s.const === undefined);
};

/** Keys of this object are data, not field names (inputs, outputs, free-form JSON). */
const isMap = (segments: string[]) => {
  const s = schemaAt(segments);
  return !s || (!s.properties && (typeof s.additionalProperties === "object" || s.type === undefined));
};


function howOf(segments: string[]): How {
  const path = segments.map((s) => (/^\d+$/.test(s) ? "*" : s)).join("/");
  if (/^agents\/\*\/(name|title|role|capabilities\/\*|model|modelConfig\/model)$/.test(path)) return "inside";
  if (path === "schedule/label") return "markdown";
  if (path === "readme") return "document";
  return "exact";
}

function formOf(how: How, segments: string[], raw: string): string {
  const path = segments.join("/");
  const value = wellFormed(raw);
  if (/^agents\/\d+\/model$/.test(path)) {
    const i = value.indexOf(":");
    return i > 0 && i < value.length - 1 ? value.slice(i + 1) : value;
  }
  if (path === "schedule/cron") return value.trim().split(/\s+/).join(" ");
  // Carried as the secret's name (team.WEBHOOK_SECRET_ENV), the `{{ }}` taken off.
  if (path === "schedule/webhookSecret") return /^\{\{(.*)\}\}$/.exec(value)?.[1] ?? value;
  if (how === "document") return value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, "");
  return value;
}

function valueAt(root: unknown, segments: string[]): unknown {
  let v = root;
  for (const seg of segments) v = (v as Record<string, unknown>)[seg];
  return v;
}

export function expectations(definition: unknown, loss: readonly LossEntry[]): Expectation[] {
  const out: Expectation[] = [];
  const add = (segments: string[], value: string) => {
    const how = howOf(segments);
    out.push({ pointer: "/" + segments.join("/"), value: formOf(how, segments, value), how });
  };
  const walk = (value: unknown, segments: string[]) => {
    if (typeof value === "string") {
      // An empty description says nothing: there is nothing to carry.
      if (isFreeString(segments) && !(value === "" && segments.at(-1) === "description")) add(segments, value);
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, [...segments, String(i)]));
    } else if (value !== null && typeof value === "object") {
      const keysAreData = isMap(segments);
      for (const [k, v] of Object.entries(value)) {
        if (keysAreData) add([...segments, k], k);
        walk(v, [...segments, k]);
      }
    }
  };
  for (const entry of loss) {
    if (entry.status !== "carried" && !(entry.status === "approximated" && entry.detail.endsWith(LONE_SURROGATE_NOTE))) continue;
    const segments = parsePointer(entry.pointer);
    if (segments[0] === "$schema") continue; // the provenance copy only, by design
    if (segments.length > 1 && isMap(segments.slice(0, -1))) add(segments, segments.at(-1)!);
    walk(valueAt(definition, segments), segments);
  }
  return out;
}

/**
 * The documented {{NAME}} handling: each prompt, rendered with a value for every secret,
 * variable and input, as the team model says it renders (placeholder segments resolved,
 * every other character as written). The checker renders the prompt (its file, or for CrewAI
 * the backstory in agents.yaml) with the project's own rendering functions and compares.
 */
export function promptRendering(model: TeamModel, target: string) {
  const environ = Object.fromEntries([...model.secrets, ...model.variables].map((e) => [e.name, `⟪env:${e.name}⟫`]));
  const inputs = Object.fromEntries(model.inputs.map((i) => [i.key, `⟪in:${i.key}⟫`]));
  return {
    // Rendered by envelope-runtime's placeholders module, as the export vendors it (CrewAI: the
    // prompt is the agent's backstory in agents.yaml).
    module: "vendor/envelope-runtime/src/envelope_runtime/placeholders.py",
    envNames: Object.keys(environ),
    environ,
    inputs,
    declared: model.inputs.map((i) => i.key),
    agents: model.agents.map((a) => {
      const rendered = a.prompt.segments
        .map((s) => (s.kind === "text" ? s.text : s.kind === "input" ? inputs[s.inputKey]! : environ[s.name]!))
        .join("");
      if (target === "crewai") return { key: a.key, file: `src/${model.names.package}/config/agents.yaml`, entry: a.ident, rendered };
      return { key: a.key, file: `src/${model.names.package}/prompts/${a.key}.txt`, rendered };
    }),
  };
}
