// A small Markdown renderer for the page: the README preview, and code spans in messages.
// It builds DOM nodes (text nodes, elements, plain attributes), never markup, so the page's
// Trusted Types policy holds and nothing in a definition can inject HTML. It covers what the
// exported READMEs use: headings, paragraphs, lists, block quotes, tables, fenced code, code
// spans, emphasis, links (http, https and mailto only; the caller decides relative ones).

/**
 * @typedef {object} Options
 * @property {(lang: string, text: string) => Node | null} [fence] a node for a fenced block (e.g. the diagram for mermaid), or null for the default <pre>
 * @property {(href: string, label: Node[]) => Node | null} [relative] a node for a link to a relative href, or null to show only its text
 */

/** Creates an element with text or node children. */
function h(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

const PUNCT = /[!-/:-@[-`{-~]/;

/** The URL an absolute link may take, or "" (javascript:, data: and anything else are refused). */
export function safeHref(href) {
  let url;
  try {
    url = new URL(href);
  } catch {
    return "";
  }
  return url.protocol === "https:" || url.protocol === "http:" || url.protocol === "mailto:" ? url.href : "";
}

function isAbsolute(href) {
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(href) || href.startsWith("//");
}

/**
 * Inline Markdown → nodes: backslash escapes, code spans, links, strong and emphasis. `_` is
 * not emphasis here: the READMEs are full of snake_case names.
 * @param {string} text
 * @param {Options} [opts]
 * @param {boolean} [inLink] no links inside a link's text
 * @returns {Node[]}
 */
export function inline(text, opts = {}, inLink = false) {
  const out = [];
  let buf = "";
  const flush = () => {
    if (buf) out.push(document.createTextNode(buf));
    buf = "";
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length && PUNCT.test(text[i + 1])) {
      buf += text[i + 1];
      i += 2;
      continue;
    }
    if (c === "`") {
      let n = 0;
      while (text[i + n] === "`") n++;
      const fence = "`".repeat(n);
      let j = text.indexOf(fence, i + n);
      // A closing run must be exactly as long as the opening one.
      while (j !== -1 && text[j + n] === "`") {
        let k = j;
        while (text[k] === "`") k++;
        j = text.indexOf(fence, k);
      }
      if (j === -1) {
        buf += fence;
        i += n;
        continue;
      }
      let code = text.slice(i + n, j).replace(/\n/g, " ");
      if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim()) code = code.slice(1, -1);
      flush();
      out.push(h("code", {}, [code]));
      i = j + n;
      continue;
    }
    if (c === "[" && !inLink) {
      const link = parseLink(text, i);
      if (link) {
        flush();
        const label = inline(link.label, opts, true);
        if (isAbsolute(link.href)) {
          const href = safeHref(link.href);
          out.push(...(href ? [h("a", { href, target: "_blank", rel: "noopener noreferrer" }, label)] : label));
        } else {
          const node = opts.relative ? opts.relative(link.href, label) : null;
          out.push(...(node ? [node] : label));
        }
        i = link.end;
        continue;
      }
    }
    if (c === "*" && text[i + 1] === "*") {
      const j = text.indexOf("**", i + 2);
      if (j > i + 2 && text[i + 2] !== " ") {
        flush();
        out.push(h("strong", {}, inline(text.slice(i + 2, j), opts, inLink)));
        i = j + 2;
        continue;
      }
    }
    if (c === "*" && text[i + 1] !== " " && text[i + 1] !== "*") {
      const j = text.indexOf("*", i + 1);
      if (j > i + 1 && text[j - 1] !== " ") {
        flush();
        out.push(h("em", {}, inline(text.slice(i + 1, j), opts, inLink)));
        i = j + 1;
        continue;
      }
    }
    // Raw HTML is not rendered; a <br> (the mermaid labels' line break) is the one tag kept, as a break.
    const br = /^<br\s*\/?>/i.exec(text.slice(i, i + 6));
    if (br) {
      flush();
      out.push(h("br"));
      i += br[0].length;
      continue;
    }
    buf += c;
    i++;
  }
  flush();
  return out;
}

/** `[label](href)` at text[start], or null. */
function parseLink(text, start) {
  let depth = 0;
  let i = start;
  for (; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "`") {
      const j = text.indexOf("`", i + 1);
      if (j === -1) return null;
      i = j;
    } else if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) break;
  }
  if (i >= text.length || text[i + 1] !== "(") return null;
  const close = text.indexOf(")", i + 2);
  if (close === -1) return null;
  const href = text.slice(i + 2, close).trim().split(/\s+/)[0] ?? "";
  if (!href) return null;
  return { label: text.slice(start + 1, i), href, end: close + 1 };
}

/** Only code spans (and escapes): for messages, where `*` is not emphasis. */
export function codeSpans(text) {
  const out = [];
  const parts = String(text).split(/(`[^`]+`)/);
  for (const p of parts) {
    if (p.length > 2 && p.startsWith("`") && p.endsWith("`")) out.push(h("code", {}, [p.slice(1, -1)]));
    else if (p) out.push(document.createTextNode(p));
  }
  return out;
}

/** Splits a table row on `|` outside code spans and escapes. */
function cells(line) {
  let s = line.trim();
  if (s.startsWith("|")) s = s.slice(1);
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1);
  const out = [];
  let cur = "";
  let code = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "\\" && s[i + 1] === "|") {
      cur += "|";
      i++;
    } else if (c === "`") {
      code = !code;
      cur += c;
    } else if (c === "|" && !code) {
      out.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * Markdown text → a fragment of DOM nodes.
 * @param {string} text
 * @param {Options} [opts]
 * @returns {DocumentFragment}
 */
export function renderMarkdown(text, opts = {}) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const root = document.createDocumentFragment();
  let i = 0;
  const para = [];
  const endPara = () => {
    if (para.length) root.append(h("p", {}, inline(para.join("\n"), opts)));
    para.length = 0;
  };
  while (i < lines.length) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      endPara();
      const mark = fence[1];
      const body = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(mark)) body.push(lines[i++]);
      i++; // the closing fence (or the end)
      const code = body.join("\n");
      const lang = fence[2] ?? "";
      root.append(opts.fence?.(lang, code) ?? h("pre", { class: "md-code" }, [h("code", lang ? { "data-lang": lang } : {}, [code])]));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endPara();
      root.append(h(`h${heading[1].length}`, {}, inline(heading[2], opts)));
      i++;
      continue;
    }
    if (line.includes("|") && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1]) && lines[i + 1].includes("-")) {
      endPara();
      const head = cells(line);
      i += 2;
      const rows = [];
      while (i < lines.length && lines[i].includes("|") && lines[i].trim()) rows.push(cells(lines[i++]));
      const table = h("table", {}, [
        h("thead", {}, [h("tr", {}, head.map((c) => h("th", { scope: "col" }, inline(c, opts))))]),
        h("tbody", {}, rows.map((r) => h("tr", {}, head.map((_, k) => h("td", {}, inline(r[k] ?? "", opts)))))),
      ]);
      root.append(h("div", { class: "md-table" }, [table]));
      continue;
    }
    if (BULLET.test(line)) {
      endPara();
      i = list(lines, i, root, opts);
      continue;
    }
    if (/^\s*>/.test(line)) {
      endPara();
      const quoted = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) quoted.push(lines[i++].replace(/^\s*> ?/, ""));
      root.append(h("blockquote", {}, [renderMarkdown(quoted.join("\n"), opts)]));
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      endPara();
      root.append(h("hr"));
      i++;
      continue;
    }
    if (!line.trim()) endPara();
    else para.push(line.trim());
    i++;
  }
  endPara();
  return root;
}

/** A list starting at lines[start]; nested by indentation. Returns the index after it. */
function list(lines, start, parent, opts) {
  const first = BULLET.exec(lines[start]);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const el = h(ordered ? "ol" : "ul");
  if (ordered && parseInt(first[2], 10) !== 1) el.setAttribute("start", String(parseInt(first[2], 10)));
  let i = start;
  let item = null;
  let text = [];
  const endItem = () => {
    if (item) item.prepend(...inline(text.join("\n"), opts));
    text = [];
  };
  while (i < lines.length) {
    const line = lines[i];
    const m = BULLET.exec(line);
    if (m && m[1].length === indent && /\d/.test(m[2]) === ordered) {
      endItem();
      item = h("li");
      el.append(item);
      text = [m[3]];
      i++;
    } else if (m && m[1].length > indent && item) {
      endItem();
      i = list(lines, i, item, opts);
    } else if (line.trim() && /^\s/.test(line) && item && !m) {
      text.push(line.trim()); // a continuation line of the item
      i++;
    } else break;
  }
  endItem();
  parent.append(el);
  return i;
}
