// Access policies: `require_approval` is deny in v1 (say so), and hosts must be hostname
// patterns — one with a scheme, path, port or inner wildcard cannot be read, and then fails
// closed at run time: an allow rule never matches, a deny rule matches every host.
import { findPlaceholders } from "../../model/placeholders.js";
import { isReadableHostPattern } from "../../model/evaluate-policy.js";
import { pointerOf } from "../../read/json-pointer.js";
import { isObject, objectItems, str, stringItems, type RuleContext } from "../rule-context.js";

export function checkAccessPolicies(ctx: RuleContext): void {
  for (const [i, agent] of objectItems(ctx.root.agents)) {
    for (const [j, host] of stringItems(agent.allowedHosts)) {
      checkHost(ctx, host, pointerOf("agents", i, "allowedHosts", j), "allow");
    }
    const policy = agent.accessPolicy;
    if (!isObject(policy)) continue;
    for (const [j, rule] of objectItems(policy.rules)) {
      const host = str(rule.host);
      if (host !== undefined) checkHost(ctx, host, pointerOf("agents", i, "accessPolicy", "rules", j, "host"), str(rule.action));
      if (str(rule.action) === "require_approval") {
        ctx.report("W_REQUIRE_APPROVAL", pointerOf("agents", i, "accessPolicy", "rules", j, "action"), "`require_approval` is treated as `deny` in v1: matching requests are refused with this rule's reason", {
          hint: "use `allow` or `deny` to say what should happen today",
        });
      }
    }
  }
}

/** `*`, a hostname, or `*.` and a hostname; each `{{NAME}}` stands for (part of) a label. */
export function isHostPattern(host: string): boolean {
  return isReadableHostPattern(host.replace(/\{\{[A-Za-z_][A-Za-z0-9_]*\}\}/g, "x"));
}

function checkHost(ctx: RuleContext, host: string, pointer: string, action: string | undefined): void {
  if (isHostPattern(host)) return;
  let hint = "write a hostname such as \"api.example.com\" or a leading wildcard such as \"*.example.com\"";
  if (/^[a-z]+:\/\//i.test(host)) hint = "drop the scheme: hosts are matched without \"https://\"";
  else if (host.includes("/")) hint = "drop the path: use the rule's `pathPrefix` for paths";
  else if (/:\d+$/.test(host)) hint = "drop the port: hosts are matched by name only";
  else if (host.includes("*")) hint = "write \"*\" for every host, or a leading \"*.\" for subdomains";
  else if (host.includes("{{") && findPlaceholders(host).length === 0) hint = "placeholders are written {{NAME}} with no spaces";
  const effect = action === "allow" ? "so this allow rule never matches a request" : "so this rule fails closed: it applies to every host";
  ctx.report("W_POLICY_HOST_PATTERN", pointer, `${JSON.stringify(host)} is not a hostname pattern, ${effect}`, { hint });
}
