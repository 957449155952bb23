// Access-policy semantics, once, in TypeScript: the same decisions the generated projects'
// http_request tools make (spec/access-policy-vectors.json holds the shared vectors). Used to
// test that normalization preserves meaning, and to pick requests for generated tests.
import type { AccessPolicyModel } from "./types.js";

export interface PolicyDecision {
  decision: "allow" | "deny";
  reason: string;
  /** 1-based index of the matching rule; null when defaultAction applied or the URL was refused. */
  rule: number | null;
}

const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;

export function expandPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (m, name: string) => (Object.hasOwn(values, name) ? values[name]! : m));
}

/** RFC 3986 §5.2.4, with %2e decoded first, so `..` cannot escape a path prefix. */
export function removeDotSegments(path: string): string {
  const segments = path.replace(/%2e/gi, ".").split("/");
  const out: string[] = [];
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    if (seg === ".") {
      if (last) out.push("");
    } else if (seg === "..") {
      if (out.length > 1) out.pop();
      if (last) out.push("");
    } else out.push(seg);
  });
  const joined = out.join("/");
  return joined.startsWith("/") ? joined : "/" + joined;
}

// A hostname: dot-separated labels without wildcards, URL delimiters or blanks. The same
// grammar as policy.py's _HOST_PATTERN; validation warns about anything else.
const LABEL = "[^\\x00-\\x20\\x7f*/:@?#\\[\\]\\\\%.]+";
const HOST_PATTERN = new RegExp(`^(?:\\*|(?:\\*\\.)?${LABEL}(?:\\.${LABEL})*\\.?)$`);
const CONTROL = /[\x00-\x1f\x7f]/;
const UNEXPANDED = /\{\{[A-Za-z_][A-Za-z0-9_]*\}\}/;

/** Whether a host pattern (placeholders expanded) can be read: `*`, `*.name` or `name`. */
export function isReadableHostPattern(pattern: string): boolean {
  return !UNEXPANDED.test(pattern) && HOST_PATTERN.test(pattern.toLowerCase());
}

/** Whether `host` matches the pattern; undefined when the pattern cannot be read. */
function hostMatches(pattern: string, host: string): boolean | undefined {
  if (!isReadableHostPattern(pattern)) return undefined;
  const p = pattern.toLowerCase().replace(/\.+$/, "");
  if (p === "*") return true;
  if (p.startsWith("*.")) {
    const suffix = p.slice(1);
    return host.endsWith(suffix) && host.length > suffix.length;
  }
  return host === p;
}

/** Splits an http(s) URL like Python's urllib.parse.urlsplit does for the parts we need. */
function splitUrl(url: string): { scheme: string; host: string; path: string } | "invalid" | undefined {
  const text = url.trim();
  if (CONTROL.test(text)) return "invalid";
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)/.exec(text);
  if (!m) return undefined;
  const authority = m[2]!.replace(/^.*@/, "");
  const bracket = authority.startsWith("[") ? authority.indexOf("]") : -1;
  const host = bracket >= 0 ? authority.slice(0, bracket + 1) : authority.replace(/:[^:]*$/, "");
  // urlsplit's .port: digits only, 0-65535 (an empty port is no port).
  const port = /:([^:\]]*)$/.exec(authority.slice(bracket + 1))?.[1];
  if (port !== undefined && port !== "" && (!/^\d+$/.test(port) || Number(port) > 65535)) return "invalid";
  return { scheme: m[1]!.toLowerCase(), host: host.toLowerCase().replace(/\.+$/, ""), path: m[3]! };
}

export function evaluatePolicy(policy: AccessPolicyModel, method: string, url: string, variables: Record<string, string>): PolicyDecision {
  const parts = splitUrl(url);
  if (parts === "invalid") return { decision: "deny", reason: "the URL is not valid", rule: null };
  if (!parts || !["http", "https"].includes(parts.scheme) || !parts.host) {
    return { decision: "deny", reason: "only http and https URLs are allowed", rule: null };
  }
  const path = removeDotSegments(parts.path || "/");
  const verb = method.toUpperCase();
  for (const [i, rule] of policy.rules.entries()) {
    const index = i + 1;
    // What cannot be read fails closed: no allow, and a deny that covers everything.
    const closed = rule.action !== "allow";
    let unreadable = false;
    if (rule.host !== undefined) {
      const matched = hostMatches(expandPlaceholders(rule.host, variables), parts.host);
      unreadable = matched === undefined;
      if (!(matched ?? closed)) continue;
    }
    if (rule.methods !== undefined && !rule.methods.map((m) => m.toUpperCase()).includes(verb)) continue;
    if (rule.pathPrefix !== undefined) {
      const prefix = expandPlaceholders(rule.pathPrefix, variables);
      if (UNEXPANDED.test(prefix)) {
        unreadable = true;
        if (!closed) continue;
      } else if (!path.startsWith(prefix)) continue;
    }
    if (rule.action === "allow") return { decision: "allow", reason: rule.reason ?? `allowed by rule ${index}`, rule: index };
    let reason = rule.reason ?? (rule.action === "require_approval" ? "this request requires human approval" : `denied by rule ${index}`);
    if (unreadable && !rule.reason) reason += ` (rule ${index} has a host or path prefix that cannot be read; it fails closed)`;
    return { decision: "deny", reason, rule: index };
  }
  return { decision: policy.defaultAction, reason: `no rule matched; defaultAction is ${policy.defaultAction}`, rule: null };
}
