// Markdown and Mermaid text from a definition: shown as text, never interpreted as markup.

const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/**
 * Inline Markdown text on one line (a paragraph or a table cell): characters that start
 * emphasis, code, links, HTML, entities, table cells or strikethrough are backslash-escaped,
 * and so is a line-start marker (heading, list, quote); ordinary punctuation stays readable.
 */
export function mdText(value: string): string {
  return value
    .replace(/\r\n|\r|\n/g, " ")
    .replace(INVISIBLE, "")
    .replace(/[\\`*_[\]<>|~&]/g, "\\$&")
    .replace(/^(\s*)([#+\-=])/, "$1\\$2")
    .replace(/^(\s*\d+)([.)])/, "$1\\$2");
}

/** Inline code span that contains `value` exactly (longest backtick run + 1 as fence). */
export function mdCode(value: string): string {
  const flat = value.replace(/\r\n|\r|\n/g, " ").replace(INVISIBLE, "");
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") || flat === "" ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * A loss-report detail: the rules write names of code between backticks (`result`), which
 * become code spans; everything else is text as mdText makes it. A span holding a `|` stays
 * text, as it would end a table cell.
 */
export function mdDetail(value: string): string {
  // Backticks pair up left to right: the odd pieces are between a pair (when it closes).
  const pieces = value.split("`");
  return pieces
    .map((piece, i) => {
      if (i % 2 === 0) return mdText(piece);
      const closed = i < pieces.length - 1;
      return closed && piece && !/[|\r\n]/.test(piece) ? mdCode(piece) : mdText(closed ? `\`${piece}\`` : `\`${piece}`);
    })
    .join("");
}

/** A Mermaid node label inside `["…"]`: quotes and markup as Mermaid entity codes. */
export function mermaidLabel(value: string): string {
  return value
    .replace(/\r\n|\r|\n/g, " ")
    .replace(INVISIBLE, "")
    .replace(/[#"<>&`*_[\](){}|;:\\]/g, (ch) => `#${ch.charCodeAt(0)};`);
}
