// A prompt as literal text and typed placeholders, so each target substitutes `{{NAME}}` at
// run time and leaves every other character — `{word}`, JSON, quotes — exactly as written.
import { PLACEHOLDER_RE, resolvePlaceholder, type PlaceholderScope } from "./placeholders.js";
import type { PromptSegment } from "./types.js";

export function promptSegments(text: string, scope: PlaceholderScope): PromptSegment[] {
  const segments: PromptSegment[] = [];
  let literal = "";
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER_RE)) {
    const resolved = resolvePlaceholder(m[1]!, scope);
    literal += text.slice(last, m.index);
    last = m.index + m[0].length;
    if (!resolved) {
      // Unknown names stay literal (validation warned about them).
      literal += m[0];
      continue;
    }
    if (literal) segments.push({ kind: "text", text: literal });
    literal = "";
    segments.push(
      resolved.kind === "input"
        ? { kind: "input", name: m[1]!, inputKey: resolved.target, raw: m[0] }
        : { kind: resolved.kind, name: m[1]!, raw: m[0] },
    );
  }
  literal += text.slice(last);
  if (literal) segments.push({ kind: "text", text: literal });
  return segments;
}
