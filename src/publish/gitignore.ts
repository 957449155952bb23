// `.gitignore` semantics, as git reads them (gitignore(5) and git's wildmatch with
// WM_PATHNAME), for publishing a directory: what `git add .` would leave out is left out.
// Our own small matcher rather than a dependency: the rules are few, and
// test/github/gitignore.test.ts checks this matcher against `git check-ignore` itself.
//
// Not covered, on purpose: `.git/info/exclude` and `core.excludesFile` (the user's machine,
// not the project), and case folding (git's default on Linux is case-sensitive).

/** One pattern line of one `.gitignore`. */
export interface IgnoreRule {
  /** The `.gitignore` it came from, relative to the published directory (`.gitignore`, `a/.gitignore`). */
  source: string;
  line: number;
  /** The line as written (for messages). */
  text: string;
  negated: boolean;
  directoryOnly: boolean;
  /** The directory of `source` ("" at the top), with a trailing slash when not empty. */
  base: string;
  /** Matches the path relative to `base` (anchored patterns) or the entry's name (others). */
  regex: RegExp | undefined;
  anchored: boolean;
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: "a-zA-Z0-9",
  alpha: "a-zA-Z",
  blank: " \\t",
  cntrl: "\\x00-\\x1f\\x7f",
  digit: "0-9",
  graph: "\\x21-\\x7e",
  lower: "a-z",
  print: "\\x20-\\x7e",
  punct: "!-\\/:-@\\[-`{-~",
  space: " \\t\\n\\r\\f\\v",
  upper: "A-Z",
  xdigit: "0-9a-fA-F",
};

const escapeRegex = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/**
 * A bracket expression starting at `pattern[start] === "["`: its regex and where it ends,
 * or undefined when it is not closed (git's wildmatch then matches nothing).
 */
function bracket(pattern: string, start: number): { regex: string; end: number } | undefined {
  let i = start + 1;
  let negated = false;
  if (pattern[i] === "!" || pattern[i] === "^") {
    negated = true;
    i++;
  }
  let body = "";
  let first = true;
  for (; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "]" && !first) return { regex: `(?!/)[${negated ? "^" : ""}${body}]`, end: i };
    first = false;
    if (c === "\\" && i + 1 < pattern.length) {
      body += escapeRegex(pattern[++i]!);
    } else if (c === "[" && pattern[i + 1] === ":") {
      const close = pattern.indexOf(":]", i + 2);
      const cls = close < 0 ? undefined : POSIX_CLASSES[pattern.slice(i + 2, close)];
      if (cls === undefined) return undefined; // an unknown class: wildmatch gives up
      body += cls;
      i = close + 1;
    } else if (c === "-" && body !== "" && pattern[i + 1] !== "]" && i + 1 < pattern.length) {
      body += "-"; // a range between the previous and the next character
    } else {
      body += escapeRegex(c);
    }
  }
  return undefined;
}

/** The regex of a glob (already stripped of `!`, a leading `/` and a trailing `/`). */
export function globToRegex(glob: string): RegExp | undefined {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        let j = i;
        while (glob[j] === "*") j++;
        const atStart = i === 0 || glob[i - 1] === "/";
        const atEnd = j === glob.length || glob[j] === "/";
        if (atStart && atEnd) {
          if (j === glob.length) out += ".*"; // `x/**` (or `**`): everything inside
          else {
            out += "(?:.*/)?"; // `**/`: zero or more directories
            j++;
          }
          i = j - 1;
          continue;
        }
        // Other runs of asterisks are one asterisk.
        out += "[^/]*";
        i = j - 1;
        continue;
      }
      out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const b = bracket(glob, i);
      if (!b) return undefined;
      out += b.regex;
      i = b.end;
    } else if (c === "\\") {
      if (i + 1 >= glob.length) return undefined; // a trailing backslash matches nothing
      out += escapeRegex(glob[++i]!);
    } else out += escapeRegex(c);
  }
  return new RegExp(`^${out}$`, "s");
}

/** Trailing spaces are dropped unless escaped with a backslash. */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " ") {
    let slashes = 0;
    for (let k = end - 2; k >= 0 && line[k] === "\\"; k--) slashes++;
    if (slashes % 2 === 1) break; // `\ `: an escaped space stays
    end--;
  }
  return line.slice(0, end);
}

/** The rules of one `.gitignore` whose directory is `dir` ("" for the top). */
export function parseGitignore(text: string, dir: string): IgnoreRule[] {
  const base = dir ? `${dir}/` : "";
  const source = `${base}.gitignore`;
  const rules: IgnoreRule[] = [];
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  lines.forEach((raw, index) => {
    const line = trimTrailingSpaces(raw.replace(/\r$/, ""));
    if (line === "" || line.startsWith("#")) return;
    let pattern = line;
    const negated = pattern.startsWith("!");
    if (negated) pattern = pattern.slice(1);
    const directoryOnly = pattern.endsWith("/") && !pattern.endsWith("\\/");
    if (directoryOnly) pattern = pattern.slice(0, -1); // one slash only, as git: `a//` matches nothing
    if (pattern === "") return;
    // A slash at the start or in the middle anchors the pattern to the file's directory.
    const anchored = pattern.includes("/");
    if (pattern.startsWith("/")) pattern = pattern.slice(1);
    rules.push({ source, line: index + 1, text: line, negated, directoryOnly, base, regex: globToRegex(pattern), anchored });
  });
  return rules;
}

/**
 * The rule that decides whether `path` (relative to the published directory) is ignored:
 * the last matching rule of the deepest file wins, as in git. `rules` are ordered from the
 * top `.gitignore` down, each file's lines in order. Undefined: no rule matches.
 */
export function decidingRule(rules: readonly IgnoreRule[], path: string, isDirectory: boolean): IgnoreRule | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (!rule.regex || (rule.directoryOnly && !isDirectory)) continue;
    if (rule.base && !path.startsWith(rule.base)) continue;
    const subject = rule.anchored ? path.slice(rule.base.length) : name;
    if (rule.regex.test(subject)) return rule;
  }
  return undefined;
}
