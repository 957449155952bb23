// One access-policy shape for every agent: `allowedHosts` becomes the equivalent
// deny-by-default policy, and an agent with neither field gets no egress at all.
import { pointerOf } from "../read/json-pointer.js";
import type { AccessPolicyModel, AccessRuleModel } from "./types.js";

interface RawRule {
  host?: string;
  methods?: string[];
  pathPrefix?: string;
  action: "allow" | "deny" | "require_approval";
  reason?: string;
}

export function normalizeAccessPolicy(agentIndex: number, agent: { allowedHosts?: string[]; accessPolicy?: { defaultAction: "allow" | "deny"; rules?: RawRule[] } }): AccessPolicyModel {
  if (agent.accessPolicy) {
    const rules = (agent.accessPolicy.rules ?? []).map((r, j) => rule(r, pointerOf("agents", agentIndex, "accessPolicy", "rules", j)));
    return finish("accessPolicy", pointerOf("agents", agentIndex, "accessPolicy"), agent.accessPolicy.defaultAction, rules);
  }
  if (agent.allowedHosts) {
    const rules = agent.allowedHosts.map((host, j) =>
      rule({ host, action: "allow", reason: `${host} is an allowed host` }, pointerOf("agents", agentIndex, "allowedHosts", j)),
    );
    return finish("allowedHosts", pointerOf("agents", agentIndex, "allowedHosts"), "deny", rules);
  }
  return { source: "none", defaultAction: "deny", rules: [], allowsAny: false };
}

function rule(r: RawRule, pointer: string): AccessRuleModel {
  const out: AccessRuleModel = { pointer, action: r.action, effect: r.action === "allow" ? "allow" : "deny" };
  if (r.host !== undefined) out.host = r.host;
  if (r.methods !== undefined) out.methods = [...r.methods];
  if (r.pathPrefix !== undefined) out.pathPrefix = r.pathPrefix;
  if (r.reason !== undefined) out.reason = r.reason;
  return out;
}

function finish(source: AccessPolicyModel["source"], pointer: string, defaultAction: "allow" | "deny", rules: AccessRuleModel[]): AccessPolicyModel {
  return { source, pointer, defaultAction, rules, allowsAny: defaultAction === "allow" || rules.some((r) => r.effect === "allow") };
}
