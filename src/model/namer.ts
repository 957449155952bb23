// Collision-free Python identifiers, chosen once per team in the model. Each namespace hands
// out names in definition order, so the same definition always gets the same names, and two
// keys that normalize alike (`data-analyst`, `data_analyst`) get distinct ones.
import { DEPENDENCY_DISTRIBUTIONS, FRAMEWORK_MODULES, PYTHON_BUILTINS, PYTHON_KEYWORDS, PYTHON_STDLIB_MODULES, RESERVED_MEMBERS } from "./reserved-words.js";

/** Lowercase snake_case ASCII; accents folded, everything else becomes `_`. May be empty. */
export function toSnake(raw: string): string {
  return raw
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

export function toPascal(snake: string): string {
  return snake
    .split("_")
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join("");
}

/**
 * Longest name a namespace hands out (before a collision number). Keys have no length limit
 * in the schema, and a name becomes part of class names (`<Step>Records`) and signatures that
 * the formatter cannot break: bounded, generated lines stay within the linter's 100 columns.
 */
export const MAX_NAME_LENGTH = 40;

export interface NamespaceOptions {
  /** Used for empty names and names starting with a digit: `3d` → `agent_3d`. */
  prefix: string;
  isReserved: (name: string) => boolean;
  /** Appended to a reserved name: `class` → `class_`, `crewai` → `crewai_team`. */
  reservedSuffix: string;
  /** Tried before numbering when the name is taken: step `research` → `research_step`. */
  collisionSuffix?: string;
}

export class Namespace {
  private readonly taken = new Set<string>();

  constructor(private readonly options: NamespaceOptions) {}

  /** Marks names as used without handing them out (e.g. names fixed by a target). */
  block(...names: string[]): void {
    for (const n of names) this.taken.add(n);
  }

  claim(raw: string, options: Partial<NamespaceOptions> = {}): string {
    const { prefix, isReserved, reservedSuffix, collisionSuffix } = { ...this.options, ...options };
    let base = toSnake(raw).slice(0, MAX_NAME_LENGTH).replace(/_+$/, "");
    if (base === "") base = prefix;
    else if (/^[0-9]/.test(base)) base = `${prefix}_${base}`;
    if (isReserved(base)) base = `${base}${reservedSuffix}`;
    if (collisionSuffix && this.taken.has(base)) base += collisionSuffix;
    let name = base;
    for (let n = 2; this.taken.has(name) || isReserved(name); n++) name = `${base}_${n}`;
    this.taken.add(name);
    return name;
  }
}

const anyOf =
  (...sets: ReadonlyArray<ReadonlySet<string>>) =>
  (name: string) =>
    sets.some((s) => s.has(name));

/** Names CrewAI's project scaffold reserves for scripts, and our own runner's commands. */
const SCRIPT_NAMES = new Set(["run_crew", "train", "replay", "test", "run_with_trigger", "kickoff", "plot", "resume", "envelope"]);

/** Class names our generated code imports from the frameworks. */
const FRAMEWORK_CLASSES = new Set([
  "Agent", "Crew", "Task", "Process", "Flow", "LLM", "BaseLLM", "BaseTool", "BaseModel", "Field",
  "StateGraph", "Command", "Send", "Any", "Literal", "Team", "Settings", "Config", "State", "Policy",
]);

export function packageName(slug: string): string {
  const ns = new Namespace({
    prefix: "team",
    isReserved: anyOf(PYTHON_KEYWORDS, PYTHON_BUILTINS, PYTHON_STDLIB_MODULES, FRAMEWORK_MODULES, SCRIPT_NAMES),
    reservedSuffix: "_team",
  });
  return ns.claim(slug);
}

/**
 * The pyproject `name`: the slug as a valid distribution name (PEP 508: no hyphen at either
 * end, `team` when nothing is left), `-team` added when it is a distribution the project
 * installs (`crewai` → `crewai-team`, which would otherwise replace CrewAI itself).
 */
export function distributionName(slug: string): string {
  const name = slug.replace(/-+/g, "-").replace(/^-|-$/g, "") || "team";
  return DEPENDENCY_DISTRIBUTIONS.has(name) ? `${name}-team` : name;
}

export function className(pkg: string): string {
  const name = toPascal(pkg);
  return FRAMEWORK_CLASSES.has(name) ? `${name}Team` : name;
}

/**
 * One namespace for agents, steps and gates: they become methods, nodes and functions side by
 * side. `reservedMembers`: the export target's (ExportTarget.reservedMembers), none without one.
 */
export function memberNamespace(reservedMembers: ReadonlySet<string> = new Set()): Namespace {
  return new Namespace({
    prefix: "member",
    isReserved: anyOf(PYTHON_KEYWORDS, PYTHON_BUILTINS, PYTHON_STDLIB_MODULES, FRAMEWORK_MODULES, reservedMembers),
    reservedSuffix: "_",
  });
}

/** Field names (inputs, outputs, gate record fields): attributes of pydantic models and state. */
export function fieldNamespace(): Namespace {
  return new Namespace({
    prefix: "field",
    isReserved: anyOf(PYTHON_KEYWORDS, PYTHON_BUILTINS, RESERVED_MEMBERS),
    reservedSuffix: "_",
  });
}
