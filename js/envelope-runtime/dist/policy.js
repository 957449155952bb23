// Access policies (agents[].accessPolicy / allowedHosts) and their evaluation, with the
// same decisions as every Envelope target (envelope-export's spec/access-policy-vectors.json).
// Rules are checked top to bottom, the first match wins; a rule without `host`, `methods` or
// `pathPrefix` matches any value of it; `host` is a hostname, `*.` and a hostname (any
// subdomain, not the domain itself) or `*`; `require_approval` is deny with the rule's
// reason; `{{VAR}}` in a host or path prefix is expanded when the request is made. A host
// that cannot be read, or a placeholder without a value, fails closed: an allow rule never
// matches, a deny or require_approval rule matches every host (or path).
import { hasPlaceholder, render } from "./placeholders.js";
/** `allowedHosts` is an allow rule per host with defaultAction deny. */
export function fromAllowedHosts(hosts) {
    return { defaultAction: "deny", rules: hosts.map((host) => ({ host, action: "allow", reason: `${host} is an allowed host` })) };
}
function removeDotSegments(path) {
    // RFC 3986 section 5.2.4, so /api/v2/tickets/../users cannot pass a prefix rule.
    const segments = path.replace(/%2e/gi, ".").split("/");
    const output = [];
    segments.forEach((segment, index) => {
        const last = index === segments.length - 1;
        if (segment === ".") {
            if (last)
                output.push("");
        }
        else if (segment === "..") {
            if (output.length > 1)
                output.pop();
            if (last)
                output.push("");
        }
        else
            output.push(segment);
    });
    const normalized = output.join("/");
    return normalized.startsWith("/") ? normalized : "/" + normalized;
}
const LABEL = String.raw `[^\x00-\x20\x7f*/:@?#\[\]\\%.]+`;
const HOST_PATTERN = new RegExp(String.raw `^(?:\*|(?:\*\.)?${LABEL}(?:\.${LABEL})*\.?)$`);
const CONTROL = /[\x00-\x1f\x7f]/;
function hostMatches(pattern, host) {
    const p = pattern.toLowerCase();
    if (hasPlaceholder(p) || !HOST_PATTERN.test(p))
        return undefined;
    const bare = p.replace(/\.+$/, "");
    if (bare === "*")
        return true;
    if (bare.startsWith("*.")) {
        const suffix = bare.slice(1);
        return host.endsWith(suffix) && host.length > suffix.length;
    }
    return host === bare;
}
/** Python's urlsplit, as far as the policy needs it (so every target reads a URL alike). */
function splitUrl(url) {
    const m = /^([A-Za-z][A-Za-z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#.*)?$/s.exec(url);
    if (!m)
        return { scheme: "", netloc: "", host: "", port: undefined, path: url, query: undefined };
    const netloc = m[2] ?? "";
    const hostPort = netloc.slice(netloc.lastIndexOf("@") + 1);
    let host;
    let port;
    if (hostPort.startsWith("[")) {
        const end = hostPort.indexOf("]");
        if (end < 0)
            return undefined;
        host = hostPort.slice(1, end);
        const rest = hostPort.slice(end + 1);
        port = rest.startsWith(":") ? rest.slice(1) : undefined;
    }
    else {
        const colon = hostPort.indexOf(":");
        host = colon < 0 ? hostPort : hostPort.slice(0, colon);
        port = colon < 0 ? undefined : hostPort.slice(colon + 1);
    }
    return { scheme: m[1], netloc, host: host.toLowerCase(), port, path: m[3] ?? "", query: m[4] };
}
/** Decide whether `method url` may be requested under `policy`. */
export function evaluate(policy, method, url, variables) {
    const refused = (reason) => ({ allowed: false, reason, rule: null, url: "" });
    const trimmed = url.trim();
    const parts = splitUrl(trimmed);
    if (!parts)
        return refused("the URL is not valid");
    if (CONTROL.test(trimmed))
        return refused("the URL is not valid");
    if (parts.port !== undefined && parts.port !== "" && (!/^[0-9]+$/.test(parts.port) || Number(parts.port) > 65535))
        return refused("the URL is not valid");
    const host = parts.host.replace(/\.+$/, "");
    if (!["http", "https"].includes(parts.scheme.toLowerCase()) || !host)
        return refused("only http and https URLs are allowed");
    const path = removeDotSegments(parts.path || "/");
    const target = `${parts.scheme}://${parts.netloc}${path}${parts.query !== undefined && parts.query !== "" ? "?" + parts.query : ""}`;
    const verb = method.toUpperCase();
    for (const [i, rule] of policy.rules.entries()) {
        const index = i + 1;
        const unread = rule.action !== "allow";
        let unreadable = false;
        if (rule.host !== undefined) {
            const matched = hostMatches(render(rule.host, variables), host);
            unreadable = matched === undefined;
            if (!(matched === undefined ? unread : matched))
                continue;
        }
        if (rule.methods !== undefined && !rule.methods.some((m) => m.toUpperCase() === verb))
            continue;
        if (rule.pathPrefix !== undefined) {
            const prefix = render(rule.pathPrefix, variables);
            if (hasPlaceholder(prefix)) {
                unreadable = true;
                if (!unread)
                    continue;
            }
            else if (!path.startsWith(prefix))
                continue;
        }
        if (rule.action === "allow")
            return { allowed: true, reason: rule.reason ?? `allowed by rule ${index}`, rule: index, url: target };
        let reason = rule.action === "require_approval" ? (rule.reason ?? "this request requires human approval") : (rule.reason ?? `denied by rule ${index}`);
        if (unreadable && !rule.reason)
            reason += ` (rule ${index} has a host or path prefix that cannot be read; it fails closed)`;
        return { allowed: false, reason, rule: index, url: target };
    }
    return { allowed: policy.defaultAction === "allow", reason: `no rule matched; defaultAction is ${policy.defaultAction}`, rule: null, url: target };
}
/** Headers the model may not set: `Host` would reach another virtual host than the URL the policy allowed; the others frame the request or the connection, which the HTTP client owns. */
export const REFUSED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "keep-alive", "te", "trailer", "upgrade", "proxy-authorization", "proxy-connection"]);
/** Why one of `pairs` may not be sent, or undefined. */
export function refusedHeader(pairs) {
    for (const [name] of pairs) {
        if (REFUSED_HEADERS.has(name.trim().toLowerCase()))
            return `the ${name.trim()} header is set by the HTTP client from the URL and the body, never by the request's headers`;
    }
    return undefined;
}
