// A fast-check arbitrary of schema-valid Envelope definitions whose every free string is
// hostile (quotes, escapes, control and invisible characters, lone surrogates, template,
// YAML, TOML, Markdown, shell and GitHub Actions syntax, 100 kB texts) and whose keys, slugs
// and names are the ones most likely to break generated code (keywords, builtins, module
// names, leading digits, names that collide once normalized, `..` and `/` where a pattern
// lets them through). Structure varies too: hierarchies, pipelines with dependsOn, gates,
// inputs/outputs with enums and defaults, secrets and variables used as {{NAME}}, policies,
// schedules. `validate()` must report no error for any of them (test/hostile/arbitrary.test.ts).
import fc from "fast-check";
import { ROW_FIELDS } from "../../src/validate/rules/workspace.js";

export const SCHEMA_URL = "https://schema.openenvelope.org/team/v1.json";

/** Fragments hostile to some syntax a definition's text reaches. */
export const HOSTILE_PIECES: readonly string[] = [
  // quotes and escapes
  '"', "'", "`", '"""', "'''", "\\", "\\\\", '\\"', "\\n", "\\x00", "\\u0041", "\\N{BULLET}", "\\U0001F600", "\\t\\r",
  // control, line-breaking, invisible and reordering characters
  "\u0000", "\u0001", "\u0007", "\b", "\f", "\u000b", "\u001b[31m", "\u007f", "\u0085", "\u00ad", "\r", "\r\n", "\n", "\n\n", "\t",
  "\u2028", "\u2029", "\u202e", "\u202d", "\u2066", "\u2069", "\u061c", "\u200b", "\u200e", "\u2060", "\ufeff", "\ufffe", "\uffff", "\ufff9",
  // Unicode beyond the BMP, combining marks, lone surrogates
  "🎉", "👩‍👩‍👧", "é", "e\u0301", "中文", "ﬁ", "ß", "İ", "\u00a0", "\u3000", "\ud800", "\udc00", "\udbff", "\udbff\udfff",
  // Handlebars, format strings, placeholders that are not ours
  "{{#each agents}}x{{/each}}", "{{{x}}}", "{{> partial}}", "{{!-- c --}}", "{{ spaced }}", "{{constructor}}", "{{__proto__}}", "{{@root}}", "\\{{x}}",
  "{word}", '{"json": 1}', "{0}", "{}", "%s", "%(name)s", "%%", "%n", "${VAR}", "$VAR", "$(id)", "`id`", "; rm -rf ~", "&& curl x | sh", "\\$",
  // YAML
  ": ", "#", " # c", "- ", "-", "&anchor", "*alias", "!tag", "!!python/object/apply:os.system ['id']", "---", "...", "? ", "|", ">-", "[", "]", "{", "}",
  ",", "@", "%YAML 1.2", "yes", "no", "on", "null", "~", "NaN", ".inf", "0x1F", "1e3", "007", "<<: *a",
  // TOML
  "[table]", "[[array]]", 'key = "v"', "inf", "nan", "1979-05-27T07:32:00Z", "\"\"\"\nx", "0o17",
  // Markdown / HTML
  "</script><script>alert(1)</script>", "<!-- -->", "<img src=x onerror=alert(1)>", "```", "~~~", "```python\nimport os\n```", "# heading", "[l](javascript:alert(1))",
  "| a | b |", "&amp;", "&lt;", "&#x202e;", "*bold*", "_u_", "1. ", "> quote", "\\*", "<br/>", '"]-->x["', "%%{init: {}}%%",
  // GitHub Actions and Python
  "${{ secrets.GITHUB_TOKEN }}", "${{ github.event.issue.title }}", "${{", "}}", '__import__("os").system("id")', '"); import os; ("', "'''); import os; ('''",
  "#!/bin/sh", "EOF", "\\\n", "# noqa", "# type: ignore",
  // paths
  "..", "../", "../../etc/passwd", "/etc/passwd", "C:\\Windows", "\\\\server\\share", "NUL", "con",
];

/** Names Python or a framework reserves, and names that collide once normalized. Match ^[a-z0-9_-]+$. */
export const HOSTILE_KEYS: readonly string[] = [
  "class", "def", "import", "from", "return", "lambda", "none", "true", "false", "async", "await", "match", "case", "type", "_", "__init__", "__main__",
  "__proto__", "constructor", "prototype", "hasownproperty", "print", "list", "dict", "str", "id", "input", "open", "exec", "eval", "object", "self", "cls",
  "super", "os", "sys", "re", "json", "typing", "test", "tests", "ast", "abc", "crewai", "langgraph", "langchain", "pydantic", "yaml", "pytest", "crew",
  "agents", "tasks", "flow", "state", "config", "run", "main", "llm", "tools", "manager", "inputs", "outputs", "result", "model-config", "model_dump",
  "handle-request", "step", "gate", "agent", "start", "router", "listen", "and_", "kickoff", "resume", "end", "__start__", "__end__", "graph", "node",
  "send", "command", "interrupt", "messages", "runtime", "prompts", "team", "models", "gates", "pipeline", "delegation", "1", "1st", "2fa", "007", "0",
  "a-b", "a_b", "a--b", "a__b", "-", "--", "_-_", "-a", "a-", "x".repeat(120),
];

/** Slugs (^[a-z0-9-]+$): package names that shadow modules, leading digits, bare hyphens. */
export const HOSTILE_SLUGS: readonly string[] = [
  "crewai", "langgraph", "langchain", "typing", "test", "tests", "class", "import", "none", "1abc", "007", "0", "-", "---", "a--b", "-team-",
  "envelope", "setuptools", "pip", "src", "main", "os", "sys", "json", "yaml", "print", "self", "pydantic", "httpx", "dotenv", "ruff", "x".repeat(60),
];

/** Input, output and record field names: any string the schema lets through. */
export const HOSTILE_FIELD_NAMES: readonly string[] = [
  ...HOSTILE_KEYS.slice(0, 60), "A_B", "a b", "", " ", "..", "../../etc/passwd", "/abs", "a/b", "a.b", "toString", "valueOf", "hasOwnProperty", "help", "h",
  "verbose", "trace", "env-file", "interactive", "no-interactive", "decisions", "version", "-x", "--x", "ß", "İ", "ǅ", "ﬁ", "🎉", "\u0000", "\n", "é", "e\u0301",
  "None", "True", "model_config", "model_fields", "schema", "copy", "fields", "validate", "\ud800", "${{ secrets.X }}", '"', "'", "\\", "{{x}}",
];

/** Environment names (^[A-Z][A-Z0-9_]*$), including ones the runner or the shell already use. */
export const HOSTILE_ENV_NAMES: readonly string[] = [
  "PATH", "HOME", "PYTHONPATH", "LD_PRELOAD", "MODEL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TEAM_INPUTS", "CI", "A", "A_B", "AB", "GITHUB_TOKEN", "X",
  "SECRET", "NAME", "SELF", "CLASS", "IMPORT", "TRUE", "NONE", "A1", "Z_", "DECISIONS", "ENV_FILE",
];

const CRONS = ["0 9 * * 1", "*/15 * * * *", "0 0 1 1 *", "5 4 * * SUN", "0 7 * * MON", "0 0 * * 0-6", "59 23 31 12 7", "1,2,3 */2 1-15 JAN-DEC *"];
const WHITESPACE = [" ", "  ", "\t", " \u00a0", "\u2003"];

const piece = fc.constantFrom(...HOSTILE_PIECES);
/** Arbitrary UTF-16 (lone surrogates included) and full Unicode. */
const noise = fc.oneof(fc.string({ unit: "binary", maxLength: 12 }), fc.string({ unit: "grapheme", maxLength: 12 }), fc.string({ maxLength: 12 }));

/** A hostile text: pieces and noise run together, sometimes with a `{{NAME}}` among them. */
function text(refs: readonly string[] = []): fc.Arbitrary<string> {
  const part = refs.length ? fc.oneof({ weight: 6, arbitrary: piece }, { weight: 3, arbitrary: noise }, { weight: 2, arbitrary: fc.constantFrom(...refs).map((r) => `{{${r}}}`) }) : fc.oneof({ weight: 2, arbitrary: piece }, { weight: 1, arbitrary: noise });
  return fc.array(part, { minLength: 0, maxLength: 8 }).map((parts) => parts.join(""));
}

/** Cut to at most `max` code points (what JSON Schema's maxLength counts), never empty when `min` is 1. */
function bounded(arb: fc.Arbitrary<string>, max: number, min = 0): fc.Arbitrary<string> {
  return arb.map((s) => {
    const cut = Array.from(s).slice(0, max).join("");
    return cut.length < min ? "\u202e\"'" : cut;
  });
}

/** Now and then one very long text (100 kB), built from every piece so it stays hostile. */
const LONG = (() => {
  const unit = HOSTILE_PIECES.join(" ");
  return unit.repeat(Math.ceil(102_400 / unit.length)).slice(0, 102_400).replace(/[\ud800-\udbff]$/, "");
})();

function freeText(refs: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof({ weight: 60, arbitrary: text(refs) }, { weight: 1, arbitrary: fc.constant(LONG) });
}

const name = (pool: readonly string[], pattern: RegExp) => fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: fc.stringMatching(pattern) });
const agentKeyArb = name(HOSTILE_KEYS, /^[a-z0-9_-]{1,12}$/);
const gateNameArb = name(HOSTILE_SLUGS.filter((s) => s.length < 20), /^[a-z0-9-]{1,12}$/);
const fieldNameArb = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...HOSTILE_FIELD_NAMES) }, { weight: 1, arbitrary: text() });
const envNamesArb = fc.uniqueArray(name(HOSTILE_ENV_NAMES, /^[A-Z][A-Z0-9_]{0,8}$/), { maxLength: 5 });

/** JSON values for defaults and metadata, with hostile strings as keys and values. */
const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    text(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fieldNameArb, tie("value"), { maxKeys: 3 }),
  ),
})).value;

const ioField = (refs: readonly string[]) =>
  fc
    .record(
      {
        type: fc.constantFrom("string", "number", "boolean", "object", "array"),
        description: freeText(refs),
        required: fc.boolean(),
        enum: fc.array(text(), { minLength: 1, maxLength: 4 }),
        default: jsonValue,
      },
      { requiredKeys: [] },
    )
    .map((f) => {
      // An enum goes with a string field (or no type); its default is one of its values.
      if (f.enum && f.type && f.type !== "string") delete f.enum;
      if (f.enum && "default" in f) f.default = f.enum[0];
      return f;
    });

function ioFields(refs: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.uniqueArray(fc.tuple(fieldNameArb, ioField(refs)), { maxLength: 5, selector: ([k]) => k }).map((entries) => {
    // A null-prototype object, so "__proto__" is an ordinary key when serialized.
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of entries) out[k] = v;
    return out;
  });
}

const policyRule = (refs: readonly string[]) =>
  fc.record(
    {
      host: fc.oneof(freeText(refs), fc.constantFrom("*.example.com", "api.example.com", "{{A}}.example.com")),
      methods: fc.uniqueArray(fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"), { maxLength: 3 }),
      pathPrefix: freeText(refs),
      action: fc.constantFrom("allow", "deny", "require_approval"),
      reason: freeText(),
    },
    { requiredKeys: ["action"] },
  );

function egress(refs: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    fc.constant({}),
    fc.array(freeText(refs), { maxLength: 3 }).map((allowedHosts) => ({ allowedHosts })),
    fc
      .record({ defaultAction: fc.constantFrom("allow", "deny"), rules: fc.array(policyRule(refs), { maxLength: 3 }) }, { requiredKeys: ["defaultAction"] })
      .map((p) => ({ accessPolicy: { accessPolicyVersion: "1", ...p } })),
  );
}

function llm(): fc.Arbitrary<Record<string, unknown>> {
  const provider = fc.constantFrom("anthropic", "openai", "google", "mistral", "openrouter");
  return fc.oneof(
    fc.constant({}),
    fc.tuple(fc.oneof(provider, fc.constantFrom("cohere", "__proto__", "constructor", "")), text()).map(([p, m]) => ({ model: `${p}:${m}` })),
    text().map((model) => ({ model })),
    fc
      .record(
        { provider, model: text(), temperature: fc.double({ min: 0, max: 2, noNaN: true }), maxTokens: fc.integer({ min: 1, max: 1e9 }), timeoutMs: fc.integer({ min: 1000, max: 2 ** 31 }) },
        { requiredKeys: ["provider", "model"] },
      )
      .map((modelConfig) => ({ modelConfig })),
  );
}

function agents(refs: readonly string[]): fc.Arbitrary<Array<Record<string, unknown>>> {
  return fc.uniqueArray(agentKeyArb, { minLength: 1, maxLength: 4 }).chain((keys) =>
    fc.tuple(
      ...keys.map((key, i) =>
        fc
          .record({
            base: fc.record(
              {
                name: bounded(freeText(), 80, 1),
                title: bounded(freeText(), 100, 1),
                role: fc.oneof(fc.constantFrom("manager", "specialist"), freeText()),
                capabilities: fc.array(freeText(), { maxLength: 3 }),
                prompt: freeText(refs),
                adapterType: fc.constantFrom("http", "claude_local", "openai_local", "codex_local", "gemini_local", "opencode_local", "cursor_local"),
                metadata: fc.dictionary(fieldNameArb, jsonValue, { maxKeys: 3 }),
              },
              { requiredKeys: ["name", "title", "role"] },
            ),
            // Report to an earlier agent only: never a cycle.
            parent: i === 0 ? fc.constant(undefined) : fc.option(fc.constantFrom(...keys.slice(0, i)), { nil: undefined }),
            llm: llm(),
            egress: egress(refs),
          })
          .map(({ base, parent, llm, egress }) => ({ key, ...base, ...(parent !== undefined ? { reportsToKey: parent } : {}), ...llm, ...egress })),
      ),
    ),
  );
}

/** Steps depend only on earlier steps (or on the one before, implicitly): never a cycle. */
function pipeline(agentKeys: string[]): fc.Arbitrary<Array<Record<string, unknown>>> {
  return fc.uniqueArray(agentKeyArb, { minLength: 1, maxLength: 4 }).chain((keys) =>
    fc.tuple(
      ...keys.map((key, i) =>
        fc
          .record(
            { agentKey: fc.constantFrom(...agentKeys), label: freeText(), dependsOn: fc.subarray(keys.slice(0, i)) },
            { requiredKeys: ["agentKey"] },
          )
          .map((s) => ({ key, ...s })),
      ),
    ),
  );
}

/** Gates go forward: afterStep is an earlier step (or agent) than triggersStep in the list. */
function gates(targets: string[]): fc.Arbitrary<Array<Record<string, unknown>>> {
  if (targets.length < 2) return fc.constant([]);
  const gate = fc
    .record(
      {
        pair: fc.integer({ min: 0, max: targets.length - 2 }).chain((a) => fc.tuple(fc.constant(a), fc.integer({ min: a + 1, max: targets.length - 1 }))),
        type: fc.constantFrom("decision", "content_generation", "classification", "action"),
        fields: fc.uniqueArray(fieldNameArb, { minLength: 1, maxLength: 3 }),
        trigger: fc.constantFrom("any_approved", "all_resolved", "threshold", "scheduled"),
        thresholdCount: fc.integer({ min: 1, max: 3 }),
        onReject: fc.constantFrom("skip", "rerun", "escalate", "halt"),
        recordActions: fc.array(
          fc.record(
            { label: freeText(), verb: fc.constantFrom("approve", "skip", "reject", "reset"), endpointTemplate: freeText(), style: fc.constantFrom("primary", "secondary", "danger") },
            { requiredKeys: ["label", "verb", "endpointTemplate"] },
          ),
          { maxLength: 3 },
        ),
        timeout: fc.record({ after: fc.tuple(fc.integer({ min: 0, max: 1e6 }), fc.constantFrom("s", "m", "h", "d")).map(([n, u]) => `${n}${u}`), behaviour: fc.constantFrom("escalate", "halt", "proceed") }),
      },
      { requiredKeys: ["pair", "type", "fields", "trigger", "onReject"] },
    )
    .map(({ pair, ...g }) => {
      if (g.trigger === "threshold" && g.thresholdCount === undefined) g.thresholdCount = 1;
      return { afterStep: targets[pair[0]]!, triggersStep: targets[pair[1]]!, ...g };
    });
  return fc.uniqueArray(gateNameArb, { maxLength: 3 }).chain((names) => fc.tuple(...names.map((n) => gate.map((g) => ({ name: n, ...g })))));
}

function schedule(refs: readonly string[]): fc.Arbitrary<Record<string, unknown> | undefined> {
  const label = { label: freeText() };
  const cron = fc.tuple(fc.constantFrom(...CRONS), fc.constantFrom(...WHITESPACE), fc.constantFrom("", " ", "\t", "\n")).map(([c, ws, edge]) => `${edge}${c.split(" ").join(ws)}${edge}`);
  return fc.oneof(
    fc.constant(undefined),
    fc.record({ type: fc.constant("manual"), ...label }, { requiredKeys: ["type"] }),
    fc.record({ type: fc.constant("cron"), cron, ...label }, { requiredKeys: ["type", "cron"] }),
    fc.record({ type: fc.constant("event"), webhookSecret: freeText(refs), ...label }, { requiredKeys: ["type"] }),
    fc.record({ type: fc.constant("condition"), conditionInterval: fc.constantFrom("15min", "1h", "6h", "24h"), conditionPrompt: freeText(refs), ...label }, { requiredKeys: ["type"] }),
    fc.record({ type: fc.constant("continuous"), ...label }, { requiredKeys: ["type"] }),
  );
}

const workspace = fc.uniqueArray(
  fc.record(
    {
      name: gateNameArb,
      type: text(),
      // Not a row's own field (id, version…): validation refuses those (E_WORKSPACE_RESERVED_COLUMN).
      columns: fc.uniqueArray(fc.record({ name: bounded(fieldNameArb, 200, 1).filter((n) => !(ROW_FIELDS as readonly string[]).includes(n)), owner: fc.constantFrom("agent", "human", "both"), type: fc.constantFrom("string", "number", "boolean"), pii: fc.boolean() }, { requiredKeys: ["name", "owner"] }), { maxLength: 3, selector: (c) => c.name }),
      statusValues: fc.array(text(), { maxLength: 3 }),
      hypotheses: fc.array(text(), { maxLength: 2 }),
    },
    { requiredKeys: ["name"] },
  ),
  { maxLength: 2, selector: (w) => w.name },
);

/** Registry-only fields: dropped by exports, but they must not break anything either. */
const registry = fc.record(
  {
    category: fc.constantFrom("customer-support", "sales", "engineering", "other"),
    tags: fc.array(bounded(text(), 50), { maxLength: 5 }),
    pricing: fc.constantFrom({ model: "free" }, { model: "per_run", amount: 0.05, currency: "USD" }, { model: "subscription", interval: "month", trialDays: 7 }),
    forkable: fc.boolean(),
    forkedFrom: fc.record({ ownerSlug: text(), teamSlug: text(), version: text() }),
    icon: fc.constantFrom("https://example.com/i.png", "javascript:alert(1)", "data:text/html,%3Cscript%3Ealert(1)%3C/script%3E", "file:///etc/passwd"),
    changelog: bounded(freeText(), 2000),
    metadata: fc.record({ generatedBy: text() }),
    timeout: fc.record({ runMs: fc.integer({ min: 1000, max: 2 ** 31 }), agentMs: fc.integer({ min: 1000, max: 2 ** 31 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);

/** A schema-valid, rule-valid definition (warnings allowed) as a plain object. */
export const hostileDefinition: fc.Arbitrary<Record<string, unknown>> = fc
  .record({ secrets: envNamesArb, variables: envNamesArb, inputKeys: fc.constant(null) })
  .chain(({ secrets, variables }) => {
    const variablesOnly = variables.filter((v) => !secrets.includes(v));
    return fc.record({ secrets: fc.constant(secrets), variables: fc.constant(variablesOnly), inputs: ioFields([...secrets, ...variablesOnly]) });
  })
  .chain(({ secrets, variables, inputs }) => {
    // {{NAME}} references: secrets, variables, inputs by key and upper-cased, and unknown names.
    const refs = [...secrets, ...variables, ...Object.keys(inputs).filter((k) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k)), ...Object.keys(inputs).map((k) => k.toUpperCase().replace(/[^A-Z0-9_]/gu, "_")).filter((k) => /^[A-Z_]/.test(k)), "UNKNOWN_NAME"];
    return agents(refs).chain((agentList) => {
      const agentKeys = agentList.map((a) => a.key as string);
      return fc
        .record({
          steps: fc.oneof(fc.constant([] as Array<Record<string, unknown>>), pipeline(agentKeys)),
          useEmptyPipeline: fc.boolean(),
        })
        .chain(({ steps, useEmptyPipeline }) =>
          fc.record({
            name: bounded(freeText(), 80, 1),
            slug: name(HOSTILE_SLUGS, /^[a-z0-9-]{1,20}$/),
            version: fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(0, 1, 99, 123456789)).map((v) => v.join(".")),
            description: bounded(freeText(), 300, 1),
            visibility: fc.constantFrom("public", "team", "private"),
            readme: bounded(freeText(), 10_000),
            outputs: ioFields([]),
            gates: gates(steps.length ? steps.map((s) => s.key as string) : agentKeys),
            schedule: schedule([...secrets, ...variables]),
            workspace,
            registry,
            steps: fc.constant(steps),
            useEmptyPipeline: fc.constant(useEmptyPipeline),
          }),
        )
        .map(({ registry, steps, useEmptyPipeline, schedule, ...rest }) => ({
          $schema: SCHEMA_URL,
          ...rest,
          ...registry,
          ...(Object.keys(inputs).length ? { inputs } : {}),
          requiredSecrets: secrets,
          requiredVariables: variables,
          agents: agentList,
          ...(steps.length || useEmptyPipeline ? { pipeline: steps } : {}),
          ...(schedule ? { schedule } : {}),
        }));
    });
  });

/** The definition as the bytes a user would hand over (lone surrogates as JSON escapes). */
export function definitionText(def: Record<string, unknown>, pretty = true): string {
  return JSON.stringify(def, null, pretty ? 2 : undefined);
}
