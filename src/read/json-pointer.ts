// RFC 6901 JSON pointers: the one way every module names a place in a definition.

// Pointers are made and read for every field of every definition (validation, the loss
// report, diagnostics): tokens without `~` or `/`, nearly all, skip the replacing.
export function escapeToken(token: string | number): string {
  const text = String(token);
  return text.includes("~") || text.includes("/") ? text.replace(/~/g, "~0").replace(/\//g, "~1") : text;
}

export function pointerOf(...tokens: Array<string | number>): string {
  return tokens.map((t) => "/" + escapeToken(t)).join("");
}

export function childPointer(parent: string, token: string | number): string {
  return parent + "/" + escapeToken(token);
}

export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  const tokens = pointer.slice(1).split("/");
  return pointer.includes("~") ? tokens.map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~")) : tokens;
}

/** The pointer's last segment, unescaped (the property name or array index). */
export function lastToken(pointer: string): string {
  const tokens = parsePointer(pointer);
  return tokens[tokens.length - 1] ?? "";
}

/** A pointer as people read it: `/agents/1/model` → `agents[1].model`. */
export function pathLabel(pointer: string): string {
  let out = "";
  for (const token of parsePointer(pointer)) {
    if (/^(0|[1-9][0-9]*)$/.test(token)) out += `[${token}]`;
    else out += out === "" ? token : `.${token}`;
  }
  return out;
}
