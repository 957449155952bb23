// The handoff page of `envelope serve`. Everything that comes from a definition is hostile
// input: it reaches the page only as text nodes (textContent, append(string)) and plain
// attributes, never as markup. The page's Content-Security-Policy enforces Trusted Types with
// no policy, so an innerHTML with a string would throw rather than parse. Requests go only to
// this origin. The GitHub token lives in its input field and in the one request that uses it.
//
// The page leads a builder through four steps (#steps): paste or open a definition (or try
// the example), check it, choose the framework, hand the project over; the hand-over box
// then says exactly what to send the developer.

import { codeSpans, renderMarkdown } from "./markdown.js";
import { loadSession, signIn, signOut, takeDraft, takeOutcome } from "./sign-in.js";

const LIMIT = 1024 * 1024;
/** A request with connection packs (the server's REQUEST_LIMIT and MAX_CONNECTION_FILES). */
const REQUEST_LIMIT = 8 * 1024 * 1024;
const MAX_PACK_FILES = 32;
const REQUEST_TYPE = "application/vnd.envelope.request+json";
const HIGHLIGHT_LIMIT = 200 * 1024;
const SVG = "http://www.w3.org/2000/svg";

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const source = /** @type {HTMLTextAreaElement} */ ($("source"));

const state = {
  /** The bytes of an opened or dropped file, sent as they are while the text is unchanged. */
  loaded: null,
  target: "",
  strict: false,
  valid: false,
  preview: null,
  openPath: "",
  checkGen: 0,
  checkCtl: null,
  timer: 0,
  diagnostics: [],
  /** name → title of each target, from /v1/targets. */
  titles: new Map(),
  /** The repository just created ("owner/name"): the button does not offer to create it again. */
  created: "",
  creating: false,
  /** GET /v1/session: {oauth, signedIn, login?}; until it answers, the token form. */
  session: { oauth: false, signedIn: false },
  /** How a Markdown file opens: rendered ("preview") or as text ("source"). */
  mdView: "preview",
  /** The last hand-over done (a zip or a repository), for the steps. */
  handedOver: false,
  /** What the editor held before a file, the example or Clear replaced it: {text, loaded}. */
  putBack: null,
  /** Connection pack files added (pack.json files and their OpenAPI documents): {path, content, size}. */
  packs: [],
  /** What the status line's button does (setStatus), or null. */
  statusGo: null,
  /** What the GitHub button last did to `created`: "created" a repository or "proposed" an update. */
  createdKind: "",
};

/** Creates an element; strings become text nodes, never markup. */
function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== undefined && c !== null) e.append(c);
  return e;
}

function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * The status line. `go`: where the line leads ("Show the problems"), a button beside it, so
 * on a phone the line at the top leads to a list that starts far below it.
 */
function setStatus(text, kind = "", go = null) {
  const s = $("status");
  s.textContent = text;
  s.className = `status ${kind}`;
  const button = $("status-go");
  button.hidden = !go;
  if (go) button.textContent = go.label;
  state.statusGo = go ? go.run : null;
}

/** The problems list, brought into view with its first problem (an error, listed first) focused. */
const toProblems = { label: "Show the problems", run: () => {
  const first = /** @type {HTMLElement | null} */ ($("diagnostics").querySelector(".diag"));
  $("problems-h").scrollIntoView({ block: "start" });
  // At desktop width the list scrolls inside its panel: the first problem whole, not cut off.
  first?.scrollIntoView({ block: "nearest" });
  first?.focus({ preventScroll: true });
} };

/** Scrolls the editor (not the page) so `line` shows, a third of the way down: the problem in focus is in view there too. */
function showLine(line) {
  if (!(line > 0)) return;
  const top = (line - 1) * LINE_HEIGHT;
  if (top < source.scrollTop || top > source.scrollTop + source.clientHeight - 2 * LINE_HEIGHT) source.scrollTop = Math.max(0, top - source.clientHeight / 3);
  syncScroll();
}


/**
 * Puts new text in the editor (a file, the example, Clear). What was there is not thrown away
 * unasked: "Put back what was here" offers it until it is used or the text is replaced again.
 */
function replaceSource(text) {
  const before = { text: source.value, loaded: state.loaded };
  source.value = text;
  state.loaded = null;
  source.scrollTop = 0;
  hideHandoff();
  updateGutter();
  state.putBack = before.text.trim() && before.text !== source.value ? before : null;
  $("put-back").hidden = !state.putBack;
}

function putBack() {
  const before = state.putBack;
  if (!before) return;
  state.putBack = null;
  $("put-back").hidden = true;
  source.value = before.text;
  state.loaded = before.loaded;
  hideHandoff();
  updateGutter();
  validateNow();
  source.focus();
}

/** Marks the guided steps: done, the current one, or still to come. */
function updateSteps() {
  const hasText = Boolean(source.value.trim());
  // Valid but refused by Strict: the way on is another framework (or Strict off), step 3.
  const current = !hasText ? "paste" : !state.valid ? "check" : !state.preview ? "target" : state.handedOver ? "" : "handover";
  const order = ["paste", "check", "target", "handover"];
  const at = current ? order.indexOf(current) : order.length;
  for (const li of $("steps").querySelectorAll("li")) {
    const i = order.indexOf(li.getAttribute("data-step") ?? "");
    li.dataset.state = i < at ? "done" : i === at ? "current" : "todo";
    if (i === at) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  }
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Sizes in the words a builder knows (KB, MB), counted in 1024s as the limit is. */
function formatBytes(n) {
  return n < 1024 ? `${n} bytes` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Over the limit by a few bytes still rounds to "1.0 MB": say the exact sizes. */
function overLimit(n) {
  return `${n.toLocaleString("en")} bytes; the limit is 1 MB (${LIMIT.toLocaleString("en")} bytes)`;
}

// ---------------------------------------------------------------------------------------
// What is sent: the opened file's bytes while the text is as opened, else the text.

function currentBody() {
  if (state.loaded && source.value === state.loaded.shown) return state.loaded.bytes;
  return source.value;
}

/**
 * The request's body and type: the definition alone as application/json, or with connection
 * packs the definition's text and the pack files as REQUEST_TYPE.
 */
function request() {
  const body = currentBody();
  if (!state.packs.length) return { type: "application/json", body };
  // ignoreBOM keeps a BOM the file had, so the server sees the definition as opened.
  const definition = typeof body === "string" ? body : new TextDecoder("utf-8", { ignoreBOM: true }).decode(body);
  const connection = /** @type {HTMLInputElement} */ ($("connection")).value.split(/[\s,]+/).filter(Boolean);
  const connections = state.packs.map(({ path, content }) => ({ path, content }));
  return { type: REQUEST_TYPE, body: JSON.stringify({ definition, connections, ...(connection.length ? { connection } : {}) }) };
}

function bodySize(body) {
  return typeof body === "string" ? new TextEncoder().encode(body).length : body.length;
}

function query(extra = {}) {
  const q = new URLSearchParams(extra);
  if (state.strict) q.set("strict", "true");
  const s = q.toString();
  return s ? `?${s}` : "";
}

async function readJson(res) {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------
// The editor: gutter, marks, going to a line.

const LINE_HEIGHT = 20;

function updateGutter() {
  const count = source.value.split("\n").length;
  const lines = $("lines");
  if (Number(lines.dataset.count) !== count) {
    const parts = new Array(count);
    for (let i = 0; i < count; i++) parts[i] = String(i + 1);
    lines.textContent = parts.join("\n");
    lines.dataset.count = String(count);
  }
  syncScroll();
}

function syncScroll() {
  $("gutter").style.transform = `translateY(${-source.scrollTop}px)`;
}

function drawMarks(diagnostics) {
  const marks = $("marks");
  marks.replaceChildren();
  const worst = new Map();
  for (const d of diagnostics) {
    if (d.line < 1) continue;
    if (worst.get(d.line) !== "error") worst.set(d.line, d.severity);
  }
  for (const [line, severity] of worst) {
    const m = el("div", { class: `mark ${severity}` });
    m.style.top = `${8 + (line - 1) * LINE_HEIGHT}px`;
    marks.append(m);
  }
}

/** Puts the caret at line:column (1-based, UTF-16 units, as the server counts) and scrolls there. */
function goTo(line, column) {
  const lines = source.value.split("\n");
  let offset = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) offset += lines[i].length + 1;
  const lineText = lines[Math.max(0, Math.min(line - 1, lines.length - 1))] ?? "";
  offset += Math.max(0, Math.min(column - 1, lineText.length));
  // On a phone the editor may be above the fold: bring it into view before selecting.
  source.scrollIntoView({ block: "nearest" });
  source.focus({ preventScroll: true });
  source.setSelectionRange(offset, Math.min(offset + 1, source.value.length));
  showLine(line);
}

// ---------------------------------------------------------------------------------------
// Validation as you type.

function scheduleValidate(delay = 250) {
  clearTimeout(state.timer);
  state.timer = setTimeout(validateNow, delay);
}

/** `omitted`: diagnostics the server left out of its answer (it lists at most 200, errors first). */
function showDiagnostics(given, valid, omitted = 0) {
  // Errors first (each group in the server's order): what blocks the export is what to read first.
  const diagnostics = [...given.filter((d) => d.severity === "error"), ...given.filter((d) => d.severity !== "error")];
  state.diagnostics = diagnostics;
  // The editor's marks are the definition's; a pack's problems name their own file.
  drawMarks(diagnostics.filter((d) => !d.file));
  const list = $("diagnostics");
  list.replaceChildren();
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  $("problem-count").textContent = diagnostics.length ? `(${plural(errors, "error")}, ${plural(warnings, "warning")}${omitted ? `, and ${omitted} more` : ""})` : "";
  // What the list means for the builder: what blocks, what does not, and where to mend it.
  $("problems-note").textContent = !diagnostics.length
    ? valid ? "" : PROBLEMS_EMPTY
    : `${errors ? "Errors (red) stop the export" : "No errors"}; warnings (yellow) do not. Fix a problem where you made the team (the Envelope builder) and paste it here again, or edit it in the box above: select a problem to go to its line.`;
  if (!diagnostics.length && valid) list.append(el("li", { class: "ok-line", text: "No problems." }));
  const lines = source.value.split("\n");
  const def = definitionValue();
  for (const d of diagnostics) {
    if (d.file) {
      list.append(el("li", {}, packDiagnostic(d)));
      continue;
    }
    const where = d.line > 0 ? `Line ${d.line}, column ${d.column}` : "Whole file";
    // Whose problem it is, by the name the builder gave ("Technical Specialist's model"), not a JSON path.
    const subject = d.pointer ? capitalize(fieldWords(d, def)) : "";
    const button = el(
      "button",
      { type: "button", class: `diag ${d.severity}`, "data-line": d.line, "data-column": d.column, onfocus: () => showLine(d.line), onclick: () => (d.line > 0 ? goTo(d.line, d.column) : source.focus()) },
      el("span", { class: "where" }, el("span", { class: "sev", text: d.severity === "error" ? "Error: stops the export" : "Warning: the export still works" }), ` · ${where}`),
      subject ? el("span", { class: "subject", text: subject }) : null,
      el("span", { class: "message" }, ...codeSpans(d.count > 1 ? `${d.message} (×${d.count})` : d.message)),
      d.line > 0 && lines[d.line - 1] !== undefined ? el("span", { class: "snippet", text: snippet(lines[d.line - 1], d.column) }) : null,
      d.hint ? el("span", { class: "hint-line" }, "Hint: ", ...codeSpans(d.hint)) : null,
    );
    // The code and the JSON pointer: the developer's, one click away (as Strict's details).
    const dev = el("details", { class: "dev" }, el("summary", { text: "Details for the developer" }), el("p", { class: "hint" }, el("code", { class: "code-name", text: d.code }), d.pointer ? ` at ${d.pointer}` : ""));
    list.append(el("li", { class: `diag-card ${d.severity}` }, button, dev));
  }
  if (omitted) list.append(el("li", { class: "ok-line", text: `…and ${plural(omitted, "more problem")} not listed: fix these first, then check again.` }));
}

/**
 * A connection pack's problem (or an explicit connection's): shaped like the definition's,
 * with the file it is in; selecting it goes to that file's entry in the pack list. No line
 * of a pack that carries credential material is shown: it would quote the value (as the CLI).
 */
function packDiagnostic(d) {
  const where = `${d.file}${d.line > 0 ? `, line ${d.line}, column ${d.column}` : ""}`;
  const pack = state.packs.find((p) => p.path === d.file);
  const line = pack && d.line > 0 && d.code !== "E_PACK_CREDENTIAL" ? pack.content.split("\n")[d.line - 1] : undefined;
  return el(
    "button",
    { type: "button", class: `diag ${d.severity}`, "data-file": d.file, onclick: () => packItem(d.file)?.querySelector("button")?.focus() },
    el("span", { class: "where", text: `${where} · ${d.severity} ` }),
    el("span", { class: "code-name", text: d.code }),
    " ",
    el("span", { class: "message" }, ...codeSpans(d.count > 1 ? `${d.message} (×${d.count})` : d.message)),
    d.pointer ? el("span", { class: "hint-line", text: `at ${d.pointer}` }) : null,
    line !== undefined ? el("span", { class: "snippet", text: snippet(line, d.column) }) : null,
    d.hint ? el("span", { class: "hint-line" }, "hint: ", ...codeSpans(d.hint)) : null,
  );
}

/** The problems heading before anything is checked: not an empty heading. */
const PROBLEMS_EMPTY = "Nothing checked yet: paste or open a definition above and its problems show here.";

function snippet(line, column) {
  const text = line.replace(/\t/g, " ");
  const start = Math.max(0, column - 1 - 30);
  const shown = (start > 0 ? "…" : "") + text.slice(start, start + 90);
  return shown;
}

// One request answers both questions: /v1/exports (as JSON) returns the diagnostics with the
// project when the definition is valid, and a problem carrying them when it is not. (The
// page used to ask /v1/validate first and then preview: twice the server's work per pause.)
async function validateNow() {
  clearTimeout(state.timer);
  const gen = ++state.checkGen;
  state.checkCtl?.abort();
  const body = currentBody();
  if (!source.value.trim()) {
    state.valid = false;
    showDiagnostics([], false);
    clearProject("The project appears here once the definition is valid.");
    setStatus("Paste a team definition to begin.");
    updateSteps();
    return;
  }
  if (bodySize(body) > LIMIT) {
    state.valid = false;
    showDiagnostics([], false);
    clearProject("");
    setStatus(`The definition is ${overLimit(bodySize(body))}.`, "bad");
    updateSteps();
    return;
  }
  const sent = request();
  if (bodySize(sent.body) > REQUEST_LIMIT) {
    state.valid = false;
    showDiagnostics([], false);
    clearProject("");
    setStatus(`The definition and its connection packs are ${formatBytes(bodySize(sent.body))} together; the limit is 8 MB. Remove a pack.`, "bad");
    updateSteps();
    return;
  }
  const ctl = (state.checkCtl = new AbortController());
  setStatus("Checking…");
  let res;
  try {
    res = await fetch(`/v1/exports${query({ target: state.target })}`, { method: "POST", headers: { "content-type": sent.type, accept: "application/json" }, body: sent.body, signal: ctl.signal });
  } catch (e) {
    if (e.name !== "AbortError") setStatus("The server cannot be reached.", "bad");
    return;
  }
  const data = await readJson(res);
  if (gen !== state.checkGen) return;
  const diagnostics = data && Array.isArray(data.diagnostics) ? data.diagnostics : null;
  const omitted = data && Number.isInteger(data.diagnosticsOmitted) ? data.diagnosticsOmitted : 0;
  const problem = data && typeof data.type === "string" ? data.type.slice(data.type.lastIndexOf(":") + 1) : "";
  if (res.ok && data && diagnostics) {
    state.valid = true;
    showDiagnostics(diagnostics, true, omitted);
    setStatus(`Ready to hand over${data.warnings ? ` (${plural(data.warnings, "warning")}, which ${data.warnings === 1 ? "does" : "do"} not stop the export)` : ""}.`, "ok");
    renderProject(data);
  } else if (problem === "lossy-export" && diagnostics) {
    // Valid, but Strict refuses it for this target: what it refuses is named first, in words.
    state.valid = true;
    showDiagnostics(diagnostics, false, omitted);
    if (!diagnostics.length) {
      // Not green: the export is stopped all the same.
      $("diagnostics").append(el("li", { class: "note-line", text: "The definition has no problems. Strict stops the export: see why under “Choose the framework”." }));
      $("problems-note").textContent = "";
    }
    const refused = data.loss ? strictRefused(data.loss.entries) : [];
    const words = refused.length ? strictWords(refused) : problemText(data, res);
    // The status line and the refusal box say it all; the summary line does not say it a third time.
    clearProject("", "Strict stops the export, so there is no project to show: what it refuses is named under “Choose the framework”.");
    if (data.loss) {
      renderLoss(data.loss);
      showRefusal(refused);
      if (refused.length) tryOtherTargets(gen, sent);
    }
    setStatus(words, "bad");
  } else if (problem === "invalid-definition" && diagnostics) {
    state.valid = false;
    showDiagnostics(diagnostics, false, omitted);
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    const warnings = diagnostics.length - errors;
    setStatus(`Invalid: ${plural(errors, "error")}${warnings ? `, ${plural(warnings, "warning")}` : ""}.`, "bad", toProblems);
    clearProject("Fix the errors (under “2. Check: problems”) to see the project.", "No project yet: the definition has errors.");
  } else if (problem === "invalid-connections" && diagnostics) {
    // A pack (or the definition with its packs) is refused: each problem names its file.
    state.valid = false;
    showDiagnostics(diagnostics, false, omitted);
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    setStatus(`Refused: ${plural(errors, "error")} in the connection packs.`, "bad", toProblems);
    clearProject("Fix or remove the connection packs to see the project.");
  } else if (problem === "malformed-definition" && diagnostics) {
    state.valid = false;
    showDiagnostics(diagnostics, false, omitted);
    setStatus(`Not readable: ${data.detail}`, "bad", toProblems);
    clearProject("Fix the errors (under “2. Check: problems”) to see the project.", "No project yet: the definition cannot be read.");
  } else {
    state.valid = false;
    clearProject(problemText(data, res));
    setStatus(problemText(data, res), "bad");
  }
  updateSteps();
}

/** What a strict export refuses: a field not fully carried that is not registry data (the core's strictLoss). */
function strictRefused(entries) {
  return entries.filter((e) => e.status !== "carried" && !e.registryOnly);
}

function targetTitle() {
  return state.titles.get(state.target) ?? state.target;
}

const WHAT_YOU_CAN_DO = "Turn Strict off to export anyway (the developer gets a report of what works differently), or choose another framework.";

function strictWords(refused) {
  const def = definitionValue();
  const what = refused.length === 1 ? `${capitalize(fieldWords(refused[0], def))} ${statusWords(refused[0])}` : `${refused.length} things would not work as written`;
  return `Strict stops the export: ${what} in ${targetTitle()}. ${WHAT_YOU_CAN_DO}`;
}

/** What the builder reads for a loss status: what the project would do, not the report's term. */
function statusWords(entry) {
  return entry.status === "dropped" ? "would be left out" : "would work only in part";
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The definition as written, to name its agents and steps by their names; null when it does not parse. */
function definitionValue() {
  try {
    return JSON.parse(source.value);
  } catch {
    return null;
  }
}

/** Fields in the words of someone who wrote the team, not its JSON names. */
const FIELD_WORDS = {
  accessPolicy: "access policy (the web addresses it may reach)",
  allowedHosts: "allowed web addresses",
  adapterType: "kind of tool",
  model: "model",
  modelConfig: "model settings",
  capabilities: "capabilities",
  prompt: "instructions",
  reportsToKey: "place in the team (whom it reports to)",
  role: "role",
  trigger: "rule for when it lets the work go on",
  style: "colour",
  endpointTemplate: "web address",
  schedule: "schedule",
  workspace: "shared tables",
  pipeline: "order of steps",
  timeout: "time limits",
};

/** "Support Lead's access policy (…)", "the review step “Refund check”", "the schedule": a loss entry's field, named. */
function fieldWords(entry, def) {
  const parts = entry.pointer.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  const word = (key) => FIELD_WORDS[key] ?? key.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  const named = (item, fallback) => (item && typeof item === "object" && (typeof item.name === "string" ? item.name : typeof item.key === "string" ? item.key : "")) || fallback;
  const [top, index, field, ...rest] = parts;
  if (top === "agents" && index !== undefined) {
    const who = named(def?.agents?.[Number(index)], `agent ${Number(index) + 1}`);
    return field === undefined ? `the agent ${who}` : `${who}'s ${word(field)}`;
  }
  if (top === "gates" && index !== undefined) {
    const gate = def?.gates?.[Number(index)];
    const step = `the review step “${named(gate, `${Number(index) + 1}`)}”`;
    if (field === "recordActions" && rest.length === 2) return `the “${named({ name: gate?.recordActions?.[Number(rest[0])]?.label }, "action")}” button's ${word(rest[1])} in ${step}`;
    return field === undefined ? step : `${step}'s ${word(field)}`;
  }
  return `the ${word(top ?? "definition")}`;
}

/**
 * What Strict refuses, above the loss report: each thing in the builder's words, what they can
 * do about it, and the report's precise terms one click away for the developer.
 */
function showRefusal(refused) {
  const box = $("strict-refusal");
  box.replaceChildren();
  box.hidden = !refused.length;
  if (!refused.length) return;
  const def = definitionValue();
  const plain = el("ul");
  for (const e of refused) plain.append(el("li", { text: `${capitalize(fieldWords(e, def))} ${statusWords(e)}.` }));
  const precise = el("ul");
  for (const e of refused) precise.append(el("li", {}, el("code", { text: e.field }), ` (${e.status === "dropped" ? "not carried" : e.status}): `, ...codeSpans(e.detail)));
  box.append(
    el("h3", { text: `Strict stops the export: in ${targetTitle()}, ${refused.length === 1 ? "this would not work as written" : `these ${refused.length} things would not work as written`}` }),
    plain,
    el("p", { class: "can-do", text: WHAT_YOU_CAN_DO }),
    el("details", { class: "dev" }, el("summary", { text: "Details for the developer" }), precise),
  );
}

/**
 * Strict stopped the export in this framework: would another run the team as written? One
 * strict check each (only in this case), said in the refusal box with a button that picks it.
 */
async function tryOtherTargets(gen, sent) {
  const box = $("strict-refusal");
  for (const name of state.titles.keys()) {
    if (name === state.target) continue;
    let ok;
    try {
      const res = await fetch(`/v1/exports${query({ target: name })}`, { method: "POST", headers: { "content-type": sent.type, accept: "application/json" }, body: sent.body });
      ok = res.ok;
      await res.body?.cancel();
    } catch {
      return;
    }
    if (gen !== state.checkGen || box.hidden) return;
    const title = state.titles.get(name) ?? name;
    const pick = () => {
      const radio = /** @type {HTMLInputElement} */ ($(`target-${name}`));
      radio.checked = true;
      radio.dispatchEvent(new Event("change"));
    };
    box.insertBefore(
      ok
        ? el("p", { class: "other-target" }, `${title} runs this team as written. `, el("button", { type: "button", class: "primary", onclick: pick }, `Choose ${title}`))
        : el("p", { class: "other-target", text: `${title} would stop it too.` }),
      box.querySelector("details.dev"),
    );
  }
}

function problemText(data, res) {
  if (data && typeof data.detail === "string") return `${data.title ?? "Error"}: ${data.detail}`;
  return `The server answered ${res.status}.`;
}

// ---------------------------------------------------------------------------------------
// The project: preview, diagram, files, loss report.

/** `why`: what the Team and Files boxes say instead of staying blank (by default the message). */
function clearProject(message, why = message) {
  state.preview = null;
  $("project-summary").textContent = message;
  $("diagram").replaceChildren(...(why ? [el("p", { class: "empty", text: why })] : []));
  $("tree").replaceChildren(...(why ? [el("p", { class: "empty", text: why })] : []));
  $("code").replaceChildren();
  $("md-preview").replaceChildren();
  $("md-preview").hidden = true;
  $("code-box").hidden = false;
  $("view-modes").hidden = true;
  $("file-path").textContent = "No file open";
  $("loss-body").replaceChildren();
  $("loss-summary").textContent = "What happens to every field of the definition in this framework.";
  $("loss-words").hidden = true;
  $("zoom").hidden = true;
  showRefusal([]);
  hideHandoff();
  for (const id of ["download", "copy-all", "copy-file"]) /** @type {HTMLButtonElement} */ ($(id)).disabled = true;
  syncCreateButton();
}

function renderProject(data) {
  state.preview = data;
  $("project-summary").textContent = `${data.team.name} ${data.team.version} → ${data.title}: ${plural(data.files.length, "file")}, ${formatBytes(data.totalBytes)}. The zip unpacks into ${data.name}/.`;
  showRefusal([]);
  renderDiagram(data.diagram, $("diagram"), "team");
  // Fit / Actual size only when there is a drawing to size.
  $("zoom").hidden = !$("diagram").querySelector("svg");
  renderTree(data.files);
  renderLoss(data.loss);
  const keep = data.files.find((f) => f.path === state.openPath) ?? data.files.find((f) => f.path === "README.md") ?? data.files[0];
  if (keep) openFile(keep.path);
  for (const id of ["download", "copy-all"]) /** @type {HTMLButtonElement} */ ($(id)).disabled = false;
  const repo = /** @type {HTMLInputElement} */ ($("gh-repo"));
  repo.placeholder = `owner/${data.name}`;
  syncCreateButton();
}

/**
 * Draws the server's diagram layout as SVG. The viewBox is the layout's own size; in "fit"
 * mode CSS sets width 100% and height auto (capped), and the default preserveAspectRatio
 * scales the whole drawing into the box, so it is never cropped. `prefix` keeps the arrow
 * marker's id unique when the README preview draws the diagram a second time.
 */
function renderDiagram(d, box, prefix) {
  box.replaceChildren();
  if (!d || d.tooLarge || !d.nodes.length) {
    box.append(el("p", { class: "empty", text: d ? d.summary : "No diagram." }));
    return;
  }
  const root = svg("svg", { viewBox: `0 0 ${Number(d.width)} ${Number(d.height)}`, width: Number(d.width), height: Number(d.height), role: "img", "aria-label": d.summary });
  root.append(svg("title", {}, d.summary));
  const defs = svg("defs");
  const arrowId = `arrow-${prefix}`;
  const marker = svg("marker", { id: arrowId, viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
  marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow" }));
  defs.append(marker);
  root.append(defs);
  for (const l of d.labels) root.append(svg("text", { x: Number(l.x), y: Number(l.y), class: "heading" }, l.text));
  for (const e of d.edges) {
    const [[x1, y1], [x2, y2]] = e.points.map((p) => p.map(Number));
    const mid = (y1 + y2) / 2;
    root.append(svg("path", { d: `M${x1},${y1} C${x1},${mid} ${x2},${mid} ${x2},${y2}`, class: `edge ${e.kind === "manages" ? "manages" : "flow"}`, "marker-end": `url(#${arrowId})` }));
  }
  for (const n of d.nodes) {
    const x = Number(n.x);
    const y = Number(n.y);
    const w = Number(n.width);
    const h = Number(n.height);
    const g = svg("g", { class: `node ${n.kind}`, "data-id": n.id });
    g.append(svg("title", {}, n.tooltip));
    if (n.kind === "gate") g.append(svg("polygon", { points: `${x + w / 2},${y} ${x + w},${y + h / 2} ${x + w / 2},${y + h} ${x},${y + h / 2}` }));
    else g.append(svg("rect", { x, y, width: w, height: h, rx: n.kind === "step" ? 18 : 6 }));
    const cx = x + w / 2;
    if (n.subtitle) {
      g.append(svg("text", { x: cx, y: y + h / 2 - 3, "text-anchor": "middle", class: "title" }, n.title));
      g.append(svg("text", { x: cx, y: y + h / 2 + 12, "text-anchor": "middle", class: "subtitle" }, n.subtitle));
    } else {
      g.append(svg("text", { x: cx, y: y + h / 2 + 4, "text-anchor": "middle", class: "title" }, n.title));
    }
    root.append(g);
  }
  // Fit scales a large drawing down to the box, never a small one up past its own size.
  root.style.maxWidth = `${Number(d.width)}px`;
  box.append(root);
}

function setZoom(mode) {
  $("diagram").classList.toggle("fit", mode === "fit");
  $("zoom-fit").setAttribute("aria-pressed", String(mode === "fit"));
  $("zoom-full").setAttribute("aria-pressed", String(mode !== "fit"));
}

// The file tree is one tab stop (a roving tabindex): Tab enters it at the open file, the
// arrow keys move between files and folders, Enter opens a file. A tree of 30 files would
// otherwise cost 60 presses of Tab to get past (each file has a copy button beside it).

function treeItems() {
  return /** @type {HTMLElement[]} */ (Array.from($("tree").querySelectorAll("summary, button.file"))).filter((e) => {
    // Hidden in a closed folder: not reachable with the arrows either. (A folder's own
    // summary shows while the folder is closed: look from the folder's parent.)
    const from = e.tagName === "SUMMARY" ? e.parentElement?.parentElement : e.parentElement;
    return !from?.closest("details:not([open])");
  });
}

function setTabStop(target) {
  for (const e of $("tree").querySelectorAll("summary, button")) e.setAttribute("tabindex", e === target ? "0" : "-1");
}

function treeKey(ev) {
  const items = treeItems();
  const at = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  if (at === -1) return;
  let next = -1;
  if (ev.key === "ArrowDown") next = Math.min(items.length - 1, at + 1);
  else if (ev.key === "ArrowUp") next = Math.max(0, at - 1);
  else if (ev.key === "Home") next = 0;
  else if (ev.key === "End") next = items.length - 1;
  else if ((ev.key === "ArrowLeft" || ev.key === "ArrowRight") && items[at].tagName === "SUMMARY") {
    /** @type {HTMLDetailsElement} */ (items[at].parentElement).open = ev.key === "ArrowRight";
    ev.preventDefault();
    return;
  } else return;
  ev.preventDefault();
  setTabStop(items[next]);
  items[next].focus();
}

function renderTree(files) {
  const root = { dirs: new Map(), files: [] };
  for (const f of files) {
    const parts = f.path.split("/");
    let node = root;
    for (const dir of parts.slice(0, -1)) {
      if (!node.dirs.has(dir)) node.dirs.set(dir, { dirs: new Map(), files: [] });
      node = node.dirs.get(dir);
    }
    node.files.push({ name: parts[parts.length - 1], file: f });
  }
  const build = (node) => {
    const ul = el("ul");
    for (const [name, child] of node.dirs) {
      const details = el("details", { open: true }, el("summary", { text: `${name}/`, tabindex: -1 }), build(child));
      ul.append(el("li", {}, details));
    }
    for (const { name, file } of node.files) {
      const open = el("button", { type: "button", class: "file", "data-path": file.path, title: file.path, tabindex: -1, onclick: () => openFile(file.path) }, ...breakable(name));
      // Not a tab stop: the viewer's Copy button copies the open file from the keyboard.
      const copy = el("button", { type: "button", class: "copy", tabindex: -1, "aria-label": `Copy ${file.path}`, disabled: file.encoding !== "utf-8", onclick: (ev) => copyFile(file.path, ev.currentTarget) }, "Copy");
      ul.append(el("li", {}, open, copy));
    }
    return ul;
  };
  $("tree").replaceChildren(build(root));
}

/** A file name that may wrap after "_", "." or "-" (crew_ / commands.py), not in the middle of a word. */
function breakable(name) {
  const out = [];
  for (const part of name.split(/(?<=[_.-])(?=.)/)) {
    if (out.length) out.push(el("wbr"));
    out.push(part);
  }
  return out;
}

function languageOf(path) {
  const name = path.split("/").pop() ?? "";
  if (/\.py$/.test(name)) return "python";
  if (/\.toml$/.test(name)) return "toml";
  if (/\.ya?ml$/.test(name)) return "yaml";
  if (/\.md$/.test(name)) return "markdown";
  if (/\.json$/.test(name)) return "json";
  if (/\.(sh|bash)$/.test(name)) return "bash";
  if (/^\.env/.test(name)) return "ini";
  return "";
}

/** Prism's tokenizer gives a tree of tokens; it becomes spans and text nodes, never HTML. */
function appendTokens(parent, tokens) {
  for (const t of tokens) {
    if (typeof t === "string") {
      parent.append(t);
      continue;
    }
    const aliases = t.alias ? (Array.isArray(t.alias) ? t.alias : [t.alias]) : [];
    const span = el("span", { class: ["token", t.type, ...aliases].filter((c) => /^[\w-]+$/.test(c)).join(" ") });
    appendTokens(span, Array.isArray(t.content) ? t.content : [t.content]);
    parent.append(span);
  }
}

function openFile(path) {
  const file = state.preview?.files.find((f) => f.path === path);
  if (!file) return;
  state.openPath = path;
  let current = null;
  for (const b of $("tree").querySelectorAll("button.file")) {
    const is = b.getAttribute("data-path") === path;
    b.setAttribute("aria-current", String(is));
    if (is) current = b;
  }
  // The open file is where Tab enters the tree, unless focus is in the tree already.
  if (current && !$("tree").contains(document.activeElement)) setTabStop(current);
  $("file-path").textContent = `${path} · ${formatBytes(file.size)}${file.executable ? " · executable" : ""}`;
  const code = $("code");
  code.replaceChildren();
  /** @type {HTMLButtonElement} */ ($("copy-file")).disabled = file.encoding !== "utf-8";
  const markdown = file.encoding === "utf-8" && /\.md$/i.test(path);
  $("view-modes").hidden = !markdown;
  showView(markdown && state.mdView === "preview");
  if (markdown) renderPreview(file);
  if (file.encoding !== "utf-8") {
    // omitted: the preview left its content out to stay within its size bound (answer-bound.ts).
    code.append(file.encoding === "omitted" ? `(${formatBytes(file.size)}, too large to show with this definition's preview; it is in the zip)` : `(a binary file of ${formatBytes(file.size)}; it is in the zip)`);
    return;
  }
  const lang = languageOf(path);
  const Prism = window.Prism;
  const grammar = lang && Prism && Prism.languages ? Prism.languages[lang] : undefined;
  code.className = lang ? `language-${lang}` : "";
  if (grammar && file.content.length <= HIGHLIGHT_LIMIT) {
    try {
      appendTokens(code, Prism.tokenize(file.content, grammar));
      return;
    } catch {
      code.replaceChildren();
    }
  }
  code.append(file.content);
}

function showView(preview) {
  $("md-preview").hidden = !preview;
  $("code-box").hidden = preview;
  $("view-preview").setAttribute("aria-pressed", String(preview));
  $("view-source").setAttribute("aria-pressed", String(!preview));
}

/**
 * The Markdown file rendered. Its ```mermaid block is the team diagram, drawn from the same
 * layout as the Team box above (the page has no Mermaid); a link to another file of the
 * project opens that file here; other relative links are plain text.
 */
function renderPreview(file) {
  const paths = new Set(state.preview.files.map((f) => f.path));
  const dir = file.path.includes("/") ? file.path.slice(0, file.path.lastIndexOf("/") + 1) : "";
  const fragment = renderMarkdown(file.content, {
    fence: (lang) => {
      if (lang !== "mermaid" || !state.preview?.diagram || state.preview.diagram.tooLarge) return null;
      const box = el("div", { class: "diagram fit md-diagram" });
      renderDiagram(state.preview.diagram, box, "readme");
      return box;
    },
    relative: (href, label) => {
      const target = (dir + href.split("#")[0]).replace(/^\.\//, "");
      if (!paths.has(target)) return null;
      return el("button", { type: "button", class: "md-link", onclick: () => openFile(target) }, ...label);
    },
  });
  $("md-preview").replaceChildren(fragment);
  $("md-preview").scrollTop = 0;
}

/**
 * The counts in the words the CLI prints and ENVELOPE_EXPORT.md writes (lossCountsText in
 * src/export/loss-report.ts): one count everywhere, registry-only fields among the not carried.
 */
function lossCountsText(loss) {
  // The counts count every entry, listed or not (a very large answer lists fewer: entriesOmitted);
  // how many are registry-only is known only when every entry is listed.
  const { carried, approximated, dropped } = loss.counts;
  const registry = loss.entriesOmitted ? 0 : loss.entries.filter((e) => e.registryOnly).length;
  return `${carried} carried, ${approximated} approximated, ${dropped} not carried${registry ? ` (${registry} of them registry-only)` : ""}`;
}

/** What a loss row means, in a builder's words; the report's own detail is the developer's. */
function lossPlain(e, framework) {
  if (e.registryOnly) return "Catalogue details for Envelope's listing, which the team does not need to run: not in the project's code, kept only in its copy of your definition.";
  if (e.status === "approximated") return `Works, but not exactly as written in ${framework}: the developer reads how in the project's ENVELOPE_EXPORT.md.`;
  if (e.status === "dropped") return `Left out: it would not work in ${framework}. Ask the developer, or choose another framework.`;
  return "";
}

function renderLoss(loss) {
  const body = $("loss-body");
  body.replaceChildren();
  if (!loss) return;
  // Registry data (visibility, pricing, tags…) is listing data for Envelope's registry: no
  // runtime reads it, so it is no loss and is counted apart. What Strict would refuse comes first.
  // The counts are the CLI's words (lossCountsText); the line under them says what each word means.
  $("loss-summary").replaceChildren(`${lossCountsText(loss)}.`);
  $("loss-words").hidden = false;
  const def = definitionValue();
  const framework = targetTitle();
  const order = (e) => (e.registryOnly ? 2 : { dropped: 0, approximated: 1, carried: 3 }[e.status]);
  const entries = [...loss.entries].sort((a, b) => order(a) - order(b));
  for (const e of entries) {
    const kind = e.registryOnly ? "registry" : e.status;
    const label = e.registryOnly ? "registry-only" : e.status === "dropped" ? "not carried" : e.status;
    const plain = lossPlain(e, framework);
    // Named as Strict names it ("Support Lead's access policy"), the JSON name under it.
    const field = el("td", { title: e.pointer }, el("span", { class: "field-name", text: capitalize(fieldWords(e, def)) }), el("code", { class: "field-code", text: e.field }));
    const what = plain
      ? el("td", {}, el("span", { text: plain }), el("details", { class: "dev" }, el("summary", { text: "Details for the developer" }), el("p", { class: "hint" }, ...codeSpans(e.detail))))
      : el("td", {}, ...codeSpans(e.detail));
    body.append(el("tr", { class: kind }, field, el("td", {}, el("span", { class: `badge ${kind}`, text: label })), what));
  }
}

// ---------------------------------------------------------------------------------------
// Copy, download.

async function copyText(text, what, button) {
  let done = false;
  try {
    await navigator.clipboard.writeText(text);
    done = true;
  } catch {
    // A browser without the asynchronous clipboard: a hidden textarea and the copy command.
    const area = el("textarea", { class: "hidden-input", "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    try {
      done = document.execCommand("copy");
    } catch {
      done = false;
    }
    area.remove();
  }
  setStatus(done ? `Copied ${what}.` : `Could not copy ${what}: the browser refused.`, done ? "ok" : "bad");
  if (button && done) {
    const before = button.textContent;
    button.textContent = "Copied";
    setTimeout(() => (button.textContent = before), 1200);
  }
}

function copyFile(path, button) {
  const file = state.preview?.files.find((f) => f.path === path);
  if (file && file.encoding === "utf-8") copyText(file.content, path, button);
}

function copyAll(button) {
  if (!state.preview) return;
  const files = state.preview.files;
  const copied = files.filter((f) => f.encoding === "utf-8");
  const text = copied.map((f) => `==> ${f.path} <==\n${f.content}${f.content.endsWith("\n") || f.content === "" ? "" : "\n"}`).join("\n");
  // A binary file, or one whose content the preview left out (answer-bound.ts), is only in
  // the zip: the status line says so rather than "all".
  const left = files.filter((f) => f.encoding !== "utf-8").map((f) => f.path);
  const what = left.length
    ? `${copied.length} of ${plural(files.length, "file")}; left out, in the zip only: ${left.length <= 3 ? left.join(", ") : plural(left.length, "file")}`
    : `all ${plural(files.length, "file")}`;
  copyText(text, what, button);
}

function fileNameFrom(disposition) {
  const m = /filename="([A-Za-z0-9._-]+)"/.exec(disposition ?? "");
  return m ? m[1] : "";
}

async function download() {
  const button = /** @type {HTMLButtonElement} */ ($("download"));
  button.disabled = true;
  setStatus("Preparing the zip…");
  try {
    const sent = request();
    const res = await fetch(`/v1/exports${query({ target: state.target })}`, { method: "POST", headers: { "content-type": sent.type, accept: "application/zip" }, body: sent.body });
    if (!res.ok) {
      setStatus(problemText(await readJson(res), res), "bad");
      return;
    }
    const blob = await res.blob();
    const name = fileNameFrom(res.headers.get("content-disposition")) || state.preview?.zipName || "project.zip";
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: name, class: "hidden-input" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    setStatus(`Downloaded ${name} (${formatBytes(blob.size)}).`, "ok");
    if (state.preview) {
      const folder = `${state.preview.name}/`;
      showHandoff(`Done: ${name} is downloaded`, [`Send the developer the file ${name} (${formatBytes(blob.size)}) from your downloads.`], `They unzip it; in the folder ${folder}`);
    }
  } catch {
    setStatus("The server cannot be reached.", "bad");
  } finally {
    button.disabled = !state.preview;
  }
}

// ---------------------------------------------------------------------------------------
// The hand-over: what to send the developer.

/** The command that runs the team, as the project's README gives it (its "Run" section), or "". */
function runCommand() {
  const readme = state.preview?.files.find((f) => f.path === "README.md");
  const m = readme ? /^## Run\s*\n+```(?:sh|bash)\n([^\n]+)\n/m.exec(readme.content) : null;
  return m ? m[1] : "";
}

function hideHandoff() {
  state.handedOver = false;
  $("handoff").hidden = true;
  $("handoff").replaceChildren();
  // Another project than the one sent to GitHub: sending it (an update, most likely) is offered again.
  if (state.created) {
    state.created = "";
    syncCreateButton();
  }
}

/**
 * The success box of step 4: a heading, what to send, and the command that runs the team
 * (with a copy button). `where` says where the developer finds the project ("They unzip
 * it; in the folder x/"). `scroll`: bring the box into view (after a download; after a
 * repository is created the user is looking at the GitHub result, which says the same).
 */
function showHandoff(title, send, where, scroll = true) {
  const box = $("handoff");
  const command = runCommand();
  box.replaceChildren(el("h3", { text: title }), el("p", {}, ...send));
  if (command) {
    box.append(
      el("p", { text: `${where} this one command runs the team:` }),
      el("div", { class: "command" }, el("code", { id: "run-command", text: command }), el("button", { type: "button", onclick: (ev) => copyText(command, "the command", ev.currentTarget) }, "Copy command")),
      el("p", { class: "hint", text: "The project's README.md says the rest: what to install and which keys to put in .env." }),
    );
  } else box.append(el("p", { text: `${where} the README.md says how to install and run it.` }));
  box.hidden = false;
  state.handedOver = true;
  updateSteps();
  if (scroll) box.scrollIntoView({ block: "nearest" });
}

// ---------------------------------------------------------------------------------------
// GitHub.

/** After a success the button says so, and offers to create again only once the name is edited. */
function syncCreateButton() {
  const button = /** @type {HTMLButtonElement} */ ($("gh-create"));
  const done = Boolean(state.created);
  button.disabled = !state.preview || state.creating || done;
  // The button names its action only; what happened is said beside it, as text.
  button.textContent = "Create GitHub repo";
  const states = {
    proposed: "Update proposed. To send this project elsewhere, change the name.",
    "up-to-date": "Already up to date. To send this project elsewhere, change the name.",
    taken: "This name is taken: change it, or pick a free name below.",
    created: "Repository created. To create another, change the name.",
  };
  const said = $("gh-create-state");
  said.textContent = done ? (states[state.createdKind] ?? states.created) : "";
  said.hidden = !done;
  // Step 4's link to the GitHub form leads nowhere useful until there is a project.
  $("to-github").classList.toggle("waiting", !state.preview);
}

// Sign in with GitHub (sign-in.js): offered when the server has an OAuth app.

function renderSignIn() {
  const { oauth, signedIn, login } = state.session;
  $("gh-signin-row").hidden = !oauth;
  $("gh-token-row").hidden = oauth;
  if (!oauth) return;
  $("gh-who").textContent = signedIn ? `Signed in to GitHub as @${login}.` : "Sign in with your GitHub account to create the repository there.";
  $("gh-signin").hidden = signedIn;
  $("gh-signout").hidden = !signedIn;
}

/** Off to GitHub and back, with the page's work kept for the trip. */
function startSignIn() {
  const loaded = state.loaded && source.value === state.loaded.shown ? toBase64(state.loaded.bytes) : null;
  const field = (id) => /** @type {HTMLInputElement} */ ($(id));
  const draft = { text: loaded ? null : source.value, loaded, packs: state.packs, target: state.target, strict: state.strict, repository: field("gh-repo").value, description: field("gh-description").value, private: field("gh-private").checked };
  const workflow = Boolean(state.preview?.files?.some((f) => f.path.startsWith(".github/workflows/")));
  signIn(draft, { private: draft.private, workflow });
}

async function endSignIn() {
  const ok = await signOut().catch(() => false);
  state.session = await loadSession();
  renderSignIn();
  $("gh-result").replaceChildren(el("p", { class: ok ? "" : "bad" }, ok ? "Signed out of GitHub on this page; the sign-in was revoked." : "Signing out failed; try again."));
  $("gh-signin").focus();
}

/** The work saved before the trip to GitHub, put back: the definition as it was, its options, the repository fields. */
async function restoreDraft(draft) {
  const field = (id) => /** @type {HTMLInputElement} */ ($(id));
  if (typeof draft.repository === "string") field("gh-repo").value = draft.repository;
  if (typeof draft.description === "string") field("gh-description").value = draft.description;
  field("gh-private").checked = draft.private === true;
  state.strict = draft.strict === true;
  field("strict").checked = state.strict;
  const radio = document.getElementById(`target-${draft.target}`);
  if (radio instanceof HTMLInputElement) {
    radio.checked = true;
    state.target = draft.target;
  }
  if (Array.isArray(draft.packs)) {
    state.packs = draft.packs.filter((p) => p && typeof p.path === "string" && typeof p.content === "string" && Number.isInteger(p.size)).slice(0, MAX_PACK_FILES);
    renderPacks();
  }
  if (typeof draft.loaded === "string") return loadBytes(fromBase64(draft.loaded), "your definition again");
  if (typeof draft.text === "string" && draft.text) {
    source.value = draft.text;
    updateGutter();
    await validateNow();
  }
}

function toBase64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function fromBase64(b64) {
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** After loadTargets (a restored draft names a target): the sign-in state, what the trip to GitHub brought back. */
async function setUpGitHub() {
  const outcome = takeOutcome();
  const draft = takeDraft();
  state.session = await loadSession();
  renderSignIn();
  if (draft) await restoreDraft(draft);
  if (outcome) {
    const [cls, message] = outcome;
    $("gh-result").replaceChildren(el("p", { class: cls }, message));
    $("github").scrollIntoView({ block: "start" });
  }
}

function safeLink(url, text) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return document.createTextNode(text);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return document.createTextNode(text);
  return el("a", { href: parsed.href, target: "_blank", rel: "noopener noreferrer", text });
}

/** A "Copy link" button beside a link to send. */
function copyLink(url) {
  return el("button", { type: "button", class: "copy-link", onclick: (ev) => copyText(String(url), "the link", ev.currentTarget) }, "Copy link");
}

async function createRepository(ev) {
  ev.preventDefault();
  await sendToGitHub(false);
}

/** Creates the repository, or with `update` proposes the new export to an exported one as a pull request. */
async function sendToGitHub(update) {
  const result = $("gh-result");
  const token = /** @type {HTMLInputElement} */ ($("gh-token")).value.trim();
  const repoInput = /** @type {HTMLInputElement} */ ($("gh-repo"));
  const repository = repoInput.value.trim();
  const description = /** @type {HTMLInputElement} */ ($("gh-description")).value.trim();
  const isPrivate = /** @type {HTMLInputElement} */ ($("gh-private")).checked;
  // The answer goes right under the button, and is brought into view there.
  const show = (...nodes) => {
    result.replaceChildren(...nodes);
    result.scrollIntoView({ block: "nearest" });
  };
  const say = (cls, ...nodes) => show(el("p", { class: cls }, ...nodes));
  if (!state.preview) return say("bad", "The definition must be valid first.");
  const oauth = state.session.oauth;
  if (oauth && !state.session.signedIn) return say("bad", "Sign in with GitHub first.");
  if (!oauth && !token) return say("bad", "Enter a GitHub token.");
  if (!/^[^/\s]+\/[^/\s]+$/.test(repository)) return say("bad", "Enter the repository as owner/name.");
  const params = { target: state.target, repository };
  if (update) params.update = "true";
  else if (isPrivate) params.private = "true";
  if (description) params.description = description;
  state.creating = true;
  syncCreateButton();
  say("", update ? `Reading ${repository} and proposing the update… this takes a few seconds.` : `Creating ${repository}… this takes a few seconds.`);
  let res;
  const sent = request();
  try {
    res = await fetch(`/v1/exports/github${query(params)}`, {
      method: "POST",
      // Signed in, the server's cookie carries the sign-in; the page has no token to send.
      headers: { "content-type": sent.type, accept: "application/json", ...(oauth ? {} : { authorization: `Bearer ${token}` }) },
      body: sent.body,
      cache: "no-store",
    });
  } catch {
    state.creating = false;
    syncCreateButton();
    return say("bad", "The server cannot be reached.");
  }
  const data = await readJson(res);
  state.creating = false;
  if (update && (res.status === 201 || res.status === 200) && data) {
    // Done with this name: the button does not offer to create what now holds this update.
    state.created = repository;
    state.createdKind = data.status === "up-to-date" ? "up-to-date" : "proposed";
    syncCreateButton();
    const pr = data.pullRequest;
    if (data.status === "up-to-date" || !pr) {
      show(el("p", { class: "ok" }, safeLink(data.url, data.fullName), " already holds this export: nothing to update."));
      setStatus(`${data.fullName} is up to date.`, "ok");
      return;
    }
    const send = () => ["Send the developer this link to review and merge: ", safeLink(pr.url, pr.url), ". ", copyLink(pr.url)];
    show(
      el("p", { class: "ok" }, data.status === "opened" ? "Opened " : "Already open: ", safeLink(pr.url, `pull request #${pr.number}`), ` on ${data.fullName}: ${countsWords(data.counts)}. They are the project's files made again from your definition as it is now; the pull request shows the developer each change.`),
      el("p", {}, ...send()),
      ...(data.counts?.conflict ? [el("p", { class: "bad" }, `${plural(data.counts.conflict, "file")} with changes on both sides that overlap: the developer resolves them in the pull request before merging.`)] : []),
    );
    setStatus(`Proposed the update to ${data.fullName}.`, "ok");
    showHandoff(`Done: the update is a pull request on ${data.fullName}`, send(), "They merge it; in the project's folder", false);
    return;
  }
  if (res.status === 201 && data) {
    state.created = repository;
    state.createdKind = "created";
    syncCreateButton();
    // Said twice, fresh nodes each time: under the button and in the hand-over box.
    const send = () => ["Send the developer this link: ", safeLink(data.url, data.url), isPrivate ? " (a private repository: add them as a collaborator first). " : ". ", copyLink(data.url)];
    show(
      el("p", { class: "ok" }, "Created ", safeLink(data.url, data.fullName), ` — ${plural(data.files, "file")} in one commit (${String(data.commit).slice(0, 7)}).`),
      el("p", {}, ...send()),
    );
    setStatus(`Created ${data.fullName}.`, "ok");
    showHandoff(`Done: ${data.fullName} is on GitHub`, send(), "They clone it; in its folder", false);
    return;
  }
  if (data && data.kind === "name-taken") {
    // Sending the same name again would only repeat this answer: the button waits for another name.
    state.created = repository;
    state.createdKind = "taken";
  }
  syncCreateButton();
  if (!update && data && data.kind === "name-taken" && data.earlierExport) return offerUpdate(repository, data);
  const taken = data && data.kind === "name-taken";
  // A taken name is said plainly; its hint only lists the free names the buttons below offer.
  const nodes = [el("p", { class: "bad" }, ...(taken ? [`${repository} already exists on GitHub, and it is not an earlier export of this team: choose another name.`] : codeSpans(problemText(data, res))))];
  if (data && data.hint && !taken) nodes.push(el("p", { class: "hint" }, "Hint: ", ...codeSpans(data.hint)));
  if (data && data.repository) nodes.push(el("p", {}, "Left behind: ", safeLink(data.repository.url, data.repository.fullName)));
  if (oauth && data && data.signIn) {
    // The sign-in ended (revoked at GitHub) or lacks a scope: a new one, asking for what is missing.
    if (res.status === 401) {
      state.session = { oauth: true, signedIn: false };
      renderSignIn();
    }
    nodes.push(el("p", {}, el("button", { type: "button", class: "primary", onclick: startSignIn }, "Sign in with GitHub again")));
  }
  const free = freeNames(repository, data, "Free names: ");
  if (free) nodes.push(free);
  show(...nodes);
  setStatus(data && data.kind === "name-taken" ? `${repository} already exists: choose another name.` : "Creating the repository failed.", "bad");
}

/** What an update does to the files, in words: "2 files updated, 1 file added". */
const ACTION_WORDS = [
  ["conflict", "with overlapping changes to resolve"],
  ["merge", "merged with the developer's changes"],
  ["update", "updated"],
  ["create", "added"],
  ["remove", "removed"],
  ["keep", "kept as the developer changed them"],
];

function countsWords(counts) {
  const words = ACTION_WORDS.filter(([action]) => Number(counts?.[action]) > 0).map(([action, done]) => `${plural(Number(counts[action]), "file")} ${done}`);
  return words.length ? words.join(", ") : "no file changes";
}

/** The answer's free names as buttons that put the name in the field (null when it has none). */
function freeNames(repository, data, label) {
  if (!data || !Array.isArray(data.suggestions) || !data.suggestions.length) return null;
  const repoInput = /** @type {HTMLInputElement} */ ($("gh-repo"));
  const owner = repository.split("/")[0];
  const p = el("p", { class: "free-names" }, label);
  for (const s of data.suggestions)
    p.append(
      el("button", { type: "button", onclick: () => {
        repoInput.value = `${owner}/${s}`;
        state.created = "";
        syncCreateButton();
        repoInput.focus();
      } }, `${owner}/${s}`),
    );
  // Said, so a builder does not wonder whether a click creates something at once.
  p.append(el("span", { class: "hint", text: " A name only fills in the Repository box; nothing is created until you press “Create GitHub repo”." }));
  return p;
}

/**
 * The name is taken by an earlier export (the server read it, writing nothing): not a failure
 * but the builder's own repository, most likely. The update comes first, in plain words;
 * another name is the second choice. An export of another team is said as such.
 */
function offerUpdate(repository, data) {
  const result = $("gh-result");
  const earlier = data.earlierExport;
  const team = typeof earlier.name === "string" ? earlier.name : "";
  const ours = state.preview?.team?.name ?? "";
  const framework = state.titles.get(earlier.target) ?? earlier.target;
  if (earlier.upToDate) {
    state.created = repository;
    state.createdKind = "up-to-date";
    syncCreateButton();
    result.replaceChildren(el("p", { class: "ok" }, safeLink(String(earlier.url), repository), ` already holds this export${team ? ` of ${team}` : ""}: nothing to update.`));
    setStatus(`${repository} is up to date.`, "ok");
    result.scrollIntoView({ block: "nearest" });
    return;
  }
  const same = !team || !ours || team === ours;
  const update = el("button", { type: "button", class: same ? "primary" : "", onclick: () => sendToGitHub(true) }, `Update ${repository}`);
  const offer = el("p", { class: "offer" }, update, ` opens a pull request: ${countsWords(earlier.counts)}. The developer reviews and merges it; their own changes are kept.`);
  const holds = el("p", { class: same ? "" : "bad" }, same
    ? `${repository} holds an earlier export of ${team || "this team"}${earlier.version ? ` (version ${earlier.version})` : ""} for ${framework}.`
    : `${repository} holds an export of another team, ${team}, not of ${ours}: updating it would put ${ours} in its place.`);
  const free = freeNames(repository, data, same ? "Or put this project in a new repository: " : "Choose another name: ");
  result.replaceChildren(holds, ...(same ? [offer, ...(free ? [free] : [])] : [...(free ? [free] : []), offer]));
  setStatus(same ? `${repository} holds an earlier export of ${team || "this team"}: update it?` : `${repository} holds another team's export: choose another name.`, same ? "" : "bad");
  result.scrollIntoView({ block: "nearest" });
  (same ? update : /** @type {HTMLElement | null} */ (result.querySelector("button")) ?? update).focus({ preventScroll: true });
}

// ---------------------------------------------------------------------------------------
// Connection packs: files added with the pickers, listed with a remove button each.

function packItem(path) {
  return [...$("packs").children].find((li) => li.getAttribute("data-path") === path);
}

function renderPacks() {
  // Giving a pack to an agent goes with packs only (as --connection goes with --connections).
  $("connection-row").hidden = !state.packs.length;
  const list = $("packs");
  list.replaceChildren();
  for (const p of state.packs) {
    const remove = el("button", { type: "button", "aria-label": `Remove ${p.path}`, onclick: () => removePack(p.path) }, "Remove");
    list.append(el("li", { "data-path": p.path }, el("span", { class: "pack-path", text: p.path }), el("span", { class: "pack-size", text: formatBytes(p.size) }), remove));
  }
}

/**
 * Adds picked files: a folder's under their path in it (`helpdesk/pack.json`), single files
 * under their name. Of a folder only JSON files are taken (its README or .DS_Store is no
 * pack). A path already added is replaced, so adding a pack again after editing it works.
 */
async function addPacks(files, fromFolder) {
  const picked = [...files].filter((f) => !fromFolder || /\.json$/i.test(f.name));
  const skipped = files.length - picked.length;
  const added = [];
  let over = 0;
  for (const f of picked) {
    const path = (fromFolder && f.webkitRelativePath) || f.name;
    const at = state.packs.findIndex((p) => p.path === path);
    if (at < 0 && state.packs.length >= MAX_PACK_FILES) {
      over++;
      continue;
    }
    const bytes = new Uint8Array(await f.arrayBuffer());
    const entry = { path, content: new TextDecoder().decode(bytes), size: bytes.length };
    if (at >= 0) state.packs[at] = entry;
    else state.packs.push(entry);
    added.push(path);
  }
  // In path order, as the server reads them.
  state.packs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (over) setStatus(`At most ${MAX_PACK_FILES} connection files are sent: ${plural(over, "file")} not added.`, "bad");
  else if (added.length) setStatus(`Added ${plural(added.length, "connection file")}${skipped ? ` (${skipped} not JSON, left out)` : ""}.`);
  renderPacks();
  hideHandoff(); // what was handed over had other packs
  if (source.value.trim()) await validateNow();
}

function removePack(path) {
  const at = state.packs.findIndex((p) => p.path === path);
  if (at < 0) return;
  state.packs.splice(at, 1);
  renderPacks();
  // Focus stays in the list: on the next entry's button, else on the add button.
  const next = $("packs").children[Math.min(at, state.packs.length - 1)];
  /** @type {HTMLElement | null} */ (next?.querySelector("button") ?? $("packs-add")).focus();
  setStatus(`Removed ${path}.`);
  hideHandoff();
  if (source.value.trim()) validateNow();
}

// ---------------------------------------------------------------------------------------
// Opening, dropping, pasting.

async function loadFile(file) {
  if (!file) return;
  if (file.size > LIMIT) {
    setStatus(`${file.name} was not opened: it is ${overLimit(file.size)}.`, "bad");
    return;
  }
  await loadBytes(new Uint8Array(await file.arrayBuffer()), file.name);
}

async function loadBytes(bytes, name) {
  replaceSource(new TextDecoder().decode(bytes));
  // The textarea may normalize line ends; what it shows is compared with what it holds later.
  state.loaded = { bytes, shown: source.value };
  setStatus(`Opened ${name} (${formatBytes(bytes.length)}).`);
  await validateNow();
}

/** The example team the server ships (examples/support-tier.envelope.json), as a first try. */
async function loadExample() {
  let res;
  try {
    res = await fetch("/assets/example.envelope.json", { headers: { accept: "application/json" } });
  } catch {
    setStatus("The server cannot be reached.", "bad");
    return;
  }
  if (!res.ok) return setStatus(`The example could not be loaded: the server answered ${res.status}.`, "bad");
  await loadBytes(new Uint8Array(await res.arrayBuffer()), "the example (support-tier.envelope.json)");
}

async function loadTargets() {
  const box = $("targets");
  let targets = [];
  try {
    const res = await fetch("/v1/targets", { headers: { accept: "application/json" } });
    targets = (await res.json()).targets;
  } catch {
    setStatus("The server cannot be reached.", "bad");
    return;
  }
  state.target = targets[0]?.name ?? "";
  for (const t of targets) state.titles.set(t.name, t.title);
  for (const t of targets) {
    const input = el("input", { type: "radio", name: "target", value: t.name, id: `target-${t.name}`, checked: t.name === state.target });
    input.addEventListener("change", () => {
      if (!input.checked) return;
      state.target = t.name;
      hideHandoff(); // what was handed over was the other framework's project
      // Checked again whatever the last answer was (it may have been a 503 or no answer).
      if (source.value.trim()) validateNow();
    });
    box.append(el("label", { for: `target-${t.name}` }, input, t.title));
  }
}

function wire() {
  source.addEventListener("input", () => {
    state.checkGen++; // an answer still on its way is of the old text: drop it
    hideHandoff(); // what was handed over is not this text any more
    updateGutter();
    scheduleValidate();
  });
  source.addEventListener("scroll", syncScroll);
  $("open").addEventListener("click", () => $("file").click());
  $("example").addEventListener("click", loadExample);
  $("file").addEventListener("change", (ev) => {
    const input = /** @type {HTMLInputElement} */ (ev.currentTarget);
    loadFile(input.files?.[0]);
    input.value = "";
  });
  $("clear").addEventListener("click", () => {
    replaceSource("");
    validateNow();
    source.focus();
  });
  $("put-back").addEventListener("click", putBack);
  $("packs-add").addEventListener("click", () => $("packs-files").click());
  $("connection").addEventListener("input", () => {
    state.checkGen++;
    hideHandoff();
    if (source.value.trim()) scheduleValidate(400);
  });
  $("packs-add-folder").addEventListener("click", () => $("packs-folder").click());
  for (const [id, fromFolder] of [["packs-files", false], ["packs-folder", true]]) {
    $(id).addEventListener("change", (ev) => {
      const input = /** @type {HTMLInputElement} */ (ev.currentTarget);
      const files = [...(input.files ?? [])];
      input.value = "";
      addPacks(files, fromFolder);
    });
  }
  $("strict").addEventListener("change", (ev) => {
    state.strict = /** @type {HTMLInputElement} */ (ev.currentTarget).checked;
    if (source.value.trim()) validateNow();
  });
  const drop = $("drop");
  const overlay = $("drop-overlay");
  let depth = 0;
  drop.addEventListener("dragenter", (ev) => {
    ev.preventDefault();
    depth++;
    overlay.hidden = false;
  });
  drop.addEventListener("dragover", (ev) => ev.preventDefault());
  drop.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (!depth) overlay.hidden = true;
  });
  drop.addEventListener("drop", (ev) => {
    ev.preventDefault();
    depth = 0;
    overlay.hidden = true;
    const file = ev.dataTransfer?.files?.[0];
    if (file) loadFile(file);
  });
  // A file dropped beside the box must not make the browser leave the page.
  window.addEventListener("dragover", (ev) => ev.preventDefault());
  window.addEventListener("drop", (ev) => ev.preventDefault());
  $("status-go").addEventListener("click", () => state.statusGo?.());
  $("download").addEventListener("click", download);
  $("copy-all").addEventListener("click", (ev) => copyAll(ev.currentTarget));
  $("copy-file").addEventListener("click", (ev) => copyFile(state.openPath, ev.currentTarget));
  $("github-form").addEventListener("submit", createRepository);
  $("gh-signin").addEventListener("click", startSignIn);
  $("gh-signout").addEventListener("click", endSignIn);
  // The new-token link asks for what the repository needs: repo for a private one.
  $("gh-private").addEventListener("change", (ev) => {
    const scope = /** @type {HTMLInputElement} */ (ev.currentTarget).checked ? "repo" : "public_repo";
    $("gh-token-new").setAttribute("href", `https://github.com/settings/tokens/new?scopes=${scope},workflow&description=Envelope%20export`);
  });
  $("gh-repo").addEventListener("input", () => {
    state.created = ""; // a new name: creating is offered again
    syncCreateButton();
  });
  $("tree").addEventListener("keydown", treeKey);
  $("tree").addEventListener("focusin", (ev) => {
    if (ev.target instanceof HTMLElement && ev.target.matches("summary, button.file")) setTabStop(ev.target);
  });
  $("view-preview").addEventListener("click", () => {
    state.mdView = "preview";
    if (state.openPath) openFile(state.openPath);
  });
  $("view-source").addEventListener("click", () => {
    state.mdView = "source";
    if (state.openPath) openFile(state.openPath);
  });
  $("zoom-fit").addEventListener("click", () => setZoom("fit"));
  $("zoom-full").addEventListener("click", () => setZoom("full"));
}

wire();
updateGutter();
updateSteps();
loadTargets()
  .then(setUpGitHub)
  .then(() => {
    if (source.value.trim() && !state.preview) validateNow();
  });
