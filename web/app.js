// The handoff page of `envelope serve`. Everything that comes from a definition is hostile
// input: it reaches the page only as text nodes (textContent, append(string)) and plain
// attributes, never as markup. The page's Content-Security-Policy enforces Trusted Types with
// no policy, so an innerHTML with a string would throw rather than parse. Requests go only to
// this origin. The GitHub token lives in its input field and in the one request that uses it.

const LIMIT = 1024 * 1024;
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

function setStatus(text, kind = "") {
  const s = $("status");
  s.textContent = text;
  s.className = `status ${kind}`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function formatBytes(n) {
  return n < 1024 ? `${n} bytes` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Over the limit by a few bytes still rounds to "1.0 MiB": say the exact sizes. */
function overLimit(n) {
  return `${n.toLocaleString("en")} bytes; the limit is 1 MiB (${LIMIT.toLocaleString("en")} bytes)`;
}

// ---------------------------------------------------------------------------------------
// What is sent: the opened file's bytes while the text is as opened, else the text.

function currentBody() {
  if (state.loaded && source.value === state.loaded.shown) return state.loaded.bytes;
  return source.value;
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
  source.focus();
  source.setSelectionRange(offset, Math.min(offset + 1, source.value.length));
  const top = (line - 1) * LINE_HEIGHT;
  if (top < source.scrollTop || top > source.scrollTop + source.clientHeight - 2 * LINE_HEIGHT) source.scrollTop = Math.max(0, top - source.clientHeight / 3);
  syncScroll();
}

// ---------------------------------------------------------------------------------------
// Validation as you type.

function scheduleValidate(delay = 250) {
  clearTimeout(state.timer);
  state.timer = setTimeout(validateNow, delay);
}

function showDiagnostics(diagnostics, valid) {
  state.diagnostics = diagnostics;
  drawMarks(diagnostics);
  const list = $("diagnostics");
  list.replaceChildren();
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  $("problem-count").textContent = diagnostics.length ? `(${plural(errors, "error")}, ${plural(warnings, "warning")})` : "";
  if (!diagnostics.length && valid) list.append(el("li", { class: "ok-line", text: "No problems." }));
  const lines = source.value.split("\n");
  for (const d of diagnostics) {
    const where = d.line > 0 ? `Line ${d.line}, column ${d.column}` : "Whole file";
    const button = el(
      "button",
      { type: "button", class: `diag ${d.severity}`, "data-line": d.line, "data-column": d.column, onclick: () => (d.line > 0 ? goTo(d.line, d.column) : source.focus()) },
      el("span", { class: "where", text: `${where} · ${d.severity} ` }),
      el("span", { class: "code-name", text: d.code }),
      " ",
      el("span", { class: "message", text: d.count > 1 ? `${d.message} (×${d.count})` : d.message }),
      d.pointer ? el("span", { class: "hint-line", text: `at ${d.pointer}` }) : null,
      d.line > 0 && lines[d.line - 1] !== undefined ? el("span", { class: "snippet", text: snippet(lines[d.line - 1], d.column) }) : null,
      d.hint ? el("span", { class: "hint-line", text: `hint: ${d.hint}` }) : null,
    );
    list.append(el("li", {}, button));
  }
}

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
    return;
  }
  if (bodySize(body) > LIMIT) {
    state.valid = false;
    showDiagnostics([], false);
    clearProject("");
    setStatus(`The definition is ${overLimit(bodySize(body))}.`, "bad");
    return;
  }
  const ctl = (state.checkCtl = new AbortController());
  setStatus("Checking…");
  let res;
  try {
    res = await fetch(`/v1/exports${query({ target: state.target })}`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body, signal: ctl.signal });
  } catch (e) {
    if (e.name !== "AbortError") setStatus("The server cannot be reached.", "bad");
    return;
  }
  const data = await readJson(res);
  if (gen !== state.checkGen) return;
  const diagnostics = data && Array.isArray(data.diagnostics) ? data.diagnostics : null;
  const problem = data && typeof data.type === "string" ? data.type.slice(data.type.lastIndexOf(":") + 1) : "";
  if (res.ok && data && diagnostics) {
    state.valid = true;
    showDiagnostics(diagnostics, true);
    setStatus(`Valid${data.warnings ? ` (${plural(data.warnings, "warning")})` : ""}.`, "ok");
    renderProject(data);
  } else if (problem === "lossy-export" && diagnostics) {
    // Valid, but Strict refuses it for this target: the loss report says which fields.
    state.valid = true;
    showDiagnostics(diagnostics, false);
    if (!diagnostics.length) {
      $("diagnostics").append(el("li", { class: "ok-line", text: "The definition has no problems; Strict stops the export because not every field is carried (see the loss report)." }));
    }
    clearProject(problemText(data, res));
    if (data.loss) renderLoss(data.loss);
    setStatus(problemText(data, res), "bad");
  } else if (problem === "invalid-definition" && diagnostics) {
    state.valid = false;
    showDiagnostics(diagnostics, false);
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    const warnings = diagnostics.length - errors;
    setStatus(`Invalid: ${plural(errors, "error")}${warnings ? `, ${plural(warnings, "warning")}` : ""}.`, "bad");
    clearProject("Fix the errors to see the project.");
  } else if (problem === "malformed-definition" && diagnostics) {
    state.valid = false;
    showDiagnostics(diagnostics, false);
    setStatus(`Not readable: ${data.detail}`, "bad");
    clearProject("Fix the errors to see the project.");
  } else {
    state.valid = false;
    clearProject(problemText(data, res));
    setStatus(problemText(data, res), "bad");
  }
}

function problemText(data, res) {
  if (data && typeof data.detail === "string") return `${data.title ?? "Error"}: ${data.detail}`;
  return `The server answered ${res.status}.`;
}

// ---------------------------------------------------------------------------------------
// The project: preview, diagram, files, loss report.

function clearProject(message) {
  state.preview = null;
  $("project-summary").textContent = message;
  $("diagram").replaceChildren();
  $("tree").replaceChildren();
  $("code").replaceChildren();
  $("file-path").textContent = "No file open";
  $("loss-body").replaceChildren();
  $("loss-summary").textContent = "What happens to every field of the definition in this target.";
  for (const id of ["download", "copy-all", "copy-file", "gh-create"]) /** @type {HTMLButtonElement} */ ($(id)).disabled = true;
}

function renderProject(data) {
  state.preview = data;
  $("project-summary").textContent = `${data.team.name} ${data.team.version} → ${data.title}: ${plural(data.files.length, "file")}, ${formatBytes(data.totalBytes)}. The zip unpacks into ${data.name}/.`;
  renderDiagram(data.diagram);
  renderTree(data.files);
  renderLoss(data.loss);
  const keep = data.files.find((f) => f.path === state.openPath) ?? data.files.find((f) => f.path === "README.md") ?? data.files[0];
  if (keep) openFile(keep.path);
  for (const id of ["download", "copy-all", "gh-create"]) /** @type {HTMLButtonElement} */ ($(id)).disabled = false;
  const repo = /** @type {HTMLInputElement} */ ($("gh-repo"));
  repo.placeholder = `owner/${data.name}`;
}

function renderDiagram(d) {
  const box = $("diagram");
  box.replaceChildren();
  if (!d || d.tooLarge || !d.nodes.length) {
    box.append(el("p", { class: "empty", text: d ? d.summary : "No diagram." }));
    return;
  }
  const root = svg("svg", { viewBox: `0 0 ${Number(d.width)} ${Number(d.height)}`, width: Number(d.width), height: Number(d.height), role: "img", "aria-label": d.summary });
  root.append(svg("title", {}, d.summary));
  const defs = svg("defs");
  const marker = svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
  marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow" }));
  defs.append(marker);
  root.append(defs);
  for (const l of d.labels) root.append(svg("text", { x: Number(l.x), y: Number(l.y), class: "heading" }, l.text));
  for (const e of d.edges) {
    const [[x1, y1], [x2, y2]] = e.points.map((p) => p.map(Number));
    const mid = (y1 + y2) / 2;
    root.append(svg("path", { d: `M${x1},${y1} C${x1},${mid} ${x2},${mid} ${x2},${y2}`, class: `edge ${e.kind === "manages" ? "manages" : "flow"}`, "marker-end": "url(#arrow)" }));
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
  box.append(root);
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
      const details = el("details", { open: true }, el("summary", { text: `${name}/` }), build(child));
      ul.append(el("li", {}, details));
    }
    for (const { name, file } of node.files) {
      const open = el("button", { type: "button", class: "file", "data-path": file.path, title: file.path, onclick: () => openFile(file.path) }, name);
      const copy = el("button", { type: "button", class: "copy", "aria-label": `Copy ${file.path}`, disabled: file.encoding !== "utf-8", onclick: (ev) => copyFile(file.path, ev.currentTarget) }, "Copy");
      ul.append(el("li", {}, open, copy));
    }
    return ul;
  };
  $("tree").replaceChildren(build(root));
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
  for (const b of $("tree").querySelectorAll("button.file")) b.setAttribute("aria-current", String(b.getAttribute("data-path") === path));
  $("file-path").textContent = `${path} · ${formatBytes(file.size)}${file.executable ? " · executable" : ""}`;
  const code = $("code");
  code.replaceChildren();
  /** @type {HTMLButtonElement} */ ($("copy-file")).disabled = file.encoding !== "utf-8";
  if (file.encoding !== "utf-8") {
    code.append(`(a binary file of ${formatBytes(file.size)}; it is in the zip)`);
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

function renderLoss(loss) {
  const body = $("loss-body");
  body.replaceChildren();
  if (!loss) return;
  const c = loss.counts;
  $("loss-summary").textContent = `${c.carried} carried, ${c.approximated} approximated, ${c.dropped} not carried.`;
  const order = { dropped: 0, approximated: 1, carried: 2 };
  const entries = [...loss.entries].sort((a, b) => order[a.status] - order[b.status]);
  for (const e of entries) {
    const label = e.status === "dropped" ? "not carried" : e.status;
    body.append(el("tr", { class: e.status }, el("td", { text: e.field, title: e.pointer }), el("td", {}, el("span", { class: `badge ${e.status}`, text: label })), el("td", { text: e.detail })));
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
  const text = state.preview.files
    .filter((f) => f.encoding === "utf-8")
    .map((f) => `==> ${f.path} <==\n${f.content}${f.content.endsWith("\n") || f.content === "" ? "" : "\n"}`)
    .join("\n");
  copyText(text, `all ${state.preview.files.length} files`, button);
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
    const res = await fetch(`/v1/exports${query({ target: state.target })}`, { method: "POST", headers: { "content-type": "application/json", accept: "application/zip" }, body: currentBody() });
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
  } catch {
    setStatus("The server cannot be reached.", "bad");
  } finally {
    button.disabled = !state.preview;
  }
}

// ---------------------------------------------------------------------------------------
// GitHub.

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

async function createRepository(ev) {
  ev.preventDefault();
  const result = $("gh-result");
  const token = /** @type {HTMLInputElement} */ ($("gh-token")).value.trim();
  const repoInput = /** @type {HTMLInputElement} */ ($("gh-repo"));
  const repository = repoInput.value.trim();
  const description = /** @type {HTMLInputElement} */ ($("gh-description")).value.trim();
  const isPrivate = /** @type {HTMLInputElement} */ ($("gh-private")).checked;
  const say = (cls, ...nodes) => result.replaceChildren(el("p", { class: cls }, ...nodes));
  if (!state.preview) return say("bad", "The definition must be valid first.");
  if (!token) return say("bad", "Enter a GitHub token.");
  if (!/^[^/\s]+\/[^/\s]+$/.test(repository)) return say("bad", "Enter the repository as owner/name.");
  const params = { target: state.target, repository };
  if (isPrivate) params.private = "true";
  if (description) params.description = description;
  const button = /** @type {HTMLButtonElement} */ ($("gh-create"));
  button.disabled = true;
  say("", `Creating ${repository}… this takes a few seconds.`);
  let res;
  try {
    res = await fetch(`/v1/exports/github${query(params)}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${token}` },
      body: currentBody(),
      cache: "no-store",
    });
  } catch {
    button.disabled = false;
    return say("bad", "The server cannot be reached.");
  }
  const data = await readJson(res);
  button.disabled = false;
  if (res.status === 201 && data) {
    say("ok", "Created ", safeLink(data.url, data.fullName), ` — ${plural(data.files, "file")} in one commit (${String(data.commit).slice(0, 7)}).`);
    setStatus(`Created ${data.fullName}.`, "ok");
    return;
  }
  const nodes = [el("p", { class: "bad", text: problemText(data, res) })];
  if (data && data.hint) nodes.push(el("p", { class: "hint", text: `Hint: ${data.hint}` }));
  if (data && data.repository) nodes.push(el("p", {}, "Left behind: ", safeLink(data.repository.url, data.repository.fullName)));
  if (data && Array.isArray(data.suggestions) && data.suggestions.length) {
    const owner = repository.split("/")[0];
    const p = el("p", {}, "Free names: ");
    for (const s of data.suggestions) p.append(el("button", { type: "button", onclick: () => { repoInput.value = `${owner}/${s}`; repoInput.focus(); } }, `${owner}/${s}`));
    nodes.push(p);
  }
  result.replaceChildren(...nodes);
  setStatus("Creating the repository failed.", "bad");
}

// ---------------------------------------------------------------------------------------
// Opening, dropping, pasting.

async function loadFile(file) {
  if (!file) return;
  if (file.size > LIMIT) {
    setStatus(`${file.name} was not opened: it is ${overLimit(file.size)}.`, "bad");
    return;
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  source.value = new TextDecoder().decode(bytes);
  // The textarea may normalize line ends; what it shows is compared with what it holds later.
  state.loaded = { bytes, shown: source.value };
  source.scrollTop = 0;
  updateGutter();
  setStatus(`Opened ${file.name} (${formatBytes(bytes.length)}).`);
  await validateNow();
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
  for (const t of targets) {
    const input = el("input", { type: "radio", name: "target", value: t.name, id: `target-${t.name}`, checked: t.name === state.target });
    input.addEventListener("change", () => {
      if (!input.checked) return;
      state.target = t.name;
      // Checked again whatever the last answer was (it may have been a 503 or no answer).
      if (source.value.trim()) validateNow();
    });
    box.append(el("label", { for: `target-${t.name}` }, input, t.title));
  }
}

function wire() {
  source.addEventListener("input", () => {
    state.checkGen++; // an answer still on its way is of the old text: drop it
    updateGutter();
    scheduleValidate();
  });
  source.addEventListener("scroll", syncScroll);
  $("open").addEventListener("click", () => $("file").click());
  $("file").addEventListener("change", (ev) => {
    const input = /** @type {HTMLInputElement} */ (ev.currentTarget);
    loadFile(input.files?.[0]);
    input.value = "";
  });
  $("clear").addEventListener("click", () => {
    source.value = "";
    state.loaded = null;
    updateGutter();
    validateNow();
    source.focus();
  });
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
  $("download").addEventListener("click", download);
  $("copy-all").addEventListener("click", (ev) => copyAll(ev.currentTarget));
  $("copy-file").addEventListener("click", (ev) => copyFile(state.openPath, ev.currentTarget));
  $("github-form").addEventListener("submit", createRepository);
}

wire();
updateGutter();
loadTargets().then(() => {
  if (source.value.trim()) validateNow();
});
