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

function hostMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase().replace(/\.+$/, "");
  if (p.startsWith("*.")) {
    const suffix = p.slice(1);
    return host.endsWith(suffix) && host.length > suffix.length;
  }
  return host === p;
}

/** Splits an http(s) URL like Python's urllib.parse.urlsplit does for the parts we need. */
function splitUrl(url: string): { scheme: string; host: string; path: string } | undefined {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)/.exec(url.trim());
  if (!m) return undefined;
  const authority = m[2]!.replace(/^.*@/, "");
  const host = authority.startsWith("[") ? authority.slice(0, authority.indexOf("]") + 1) : authority.replace(/:\d*$/, "");
  return { scheme: m[1]!.toLowerCase(), host: host.toLowerCase().replace(/\.+$/, ""), path: m[3]! };
}

export function evaluatePolicy(policy: AccessPolicyModel, method: string, url: string, variables: Record<string, string>): PolicyDecision {
  const parts = splitUrl(url);
  if (!parts || !["http", "https"].includes(parts.scheme) || !parts.host) {
    return { decision: "deny", reason: "only http and https URLs are allowed", rule: null };
  }
  const path = removeDotSegments(parts.path || "/");
  const verb = method.toUpperCase();
  for (const [i, rule] of policy.rules.entries()) {
    const index = i + 1;
    if (rule.host !== undefined) {
      const pattern = expandPlaceholders(rule.host, variables);
      if (/\{\{[A-Za-z_][A-Za-z0-9_]*\}\}/.test(pattern) || !hostMatches(pattern, parts.host)) continue;
    }
    if (rule.methods !== undefined && !rule.methods.map((m) => m.toUpperCase()).includes(verb)) continue;
    if (rule.pathPrefix !== undefined) {
      const prefix = expandPlaceholders(rule.pathPrefix, variables);
      if (/\{\{[A-Za-z_][A-Za-z0-9_]*\}\}/.test(prefix) || !path.startsWith(prefix)) continue;
    }
    if (rule.action === "allow") return { decision: "allow", reason: rule.reason ?? `allowed by rule ${index}`, rule: index };
    if (rule.action === "require_approval") return { decision: "deny", reason: rule.reason ?? "this request requires human approval", rule: index };
    return { decision: "deny", reason: rule.reason ?? `denied by rule ${index}`, rule: index };
  }
  return { decision: policy.defaultAction, reason: `no rule matched; defaultAction is ${policy.defaultAction}`, rule: null };
}
