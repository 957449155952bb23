// Secrets, variables and `{{NAME}}` references: names declared once, every reference
// resolvable, no secret sent to the model through a prompt, nothing declared for nothing.
import { buildScope, findPlaceholders, resolvePlaceholder } from "../../model/placeholders.js";
import { pointerOf } from "../../read/json-pointer.js";
import { isObject, objectItems, str, stringItems, type RuleContext } from "../rule-context.js";

interface Reference {
  name: string;
  pointer: string;
  inPrompt: boolean;
}

/** Every `{{NAME}}` in the places where the runtime substitutes them. */
function collectReferences(root: Record<string, unknown>): Reference[] {
  const refs: Reference[] = [];
  const scan = (text: string, pointer: string, inPrompt: boolean) => {
    for (const use of findPlaceholders(text)) refs.push({ name: use.name, pointer, inPrompt });
  };
  for (const [i, agent] of objectItems(root.agents)) {
    const prompt = str(agent.prompt);
    if (prompt !== undefined) scan(prompt, pointerOf("agents", i, "prompt"), true);
    for (const [j, host] of stringItems(agent.allowedHosts)) scan(host, pointerOf("agents", i, "allowedHosts", j), false);
    if (isObject(agent.accessPolicy)) {
      for (const [j, rule] of objectItems(agent.accessPolicy.rules)) {
        for (const field of ["host", "pathPrefix"] as const) {
          const v = str(rule[field]);
          if (v !== undefined) scan(v, pointerOf("agents", i, "accessPolicy", "rules", j, field), false);
        }
      }
    }
  }
  if (isObject(root.schedule)) {
    const p = str(root.schedule.conditionPrompt);
    if (p !== undefined) scan(p, pointerOf("schedule", "conditionPrompt"), true);
    const w = str(root.schedule.webhookSecret);
    if (w !== undefined) scan(w, pointerOf("schedule", "webhookSecret"), false);
  }
  return refs;
}

export function checkPlaceholders(ctx: RuleContext): void {
  const secrets = stringItems(ctx.root.requiredSecrets);
  const variables = stringItems(ctx.root.requiredVariables);
  const seen = new Map<string, string>();
  for (const [list, items] of [["requiredSecrets", secrets], ["requiredVariables", variables]] as const) {
    for (const [i, name] of items) {
      const first = seen.get(name);
      if (first !== undefined) {
        ctx.report("E_DUPLICATE_ENV_NAME", pointerOf(list, i), `"${name}" is already declared in ${first}`, {
          hint: "declare each name once, as a secret (sensitive) or a variable (not sensitive)",
        });
      } else seen.set(name, `${list}[${i}]`);
    }
  }
  const inputKeys = isObject(ctx.root.inputs) ? Object.keys(ctx.root.inputs) : [];
  const scope = buildScope(secrets.map(([, n]) => n), variables.map(([, n]) => n), inputKeys);
  const used = new Set<string>();
  for (const ref of collectReferences(ctx.root)) {
    const resolved = resolvePlaceholder(ref.name, scope);
    if (!resolved) {
      ctx.report("W_PLACEHOLDER_UNKNOWN", ref.pointer, `{{${ref.name}}} is neither a declared secret, a declared variable nor a team input; it will stay as literal text`, {
        hint: `declare it in \`requiredVariables\` (or \`requiredSecrets\`), or add an input named "${ref.name.toLowerCase()}"`,
      });
      continue;
    }
    used.add(ref.name);
    if (resolved.kind === "secret" && ref.inPrompt) {
      ctx.report("W_SECRET_IN_PROMPT", ref.pointer, `secret {{${ref.name}}} is used in a prompt, so its value will be sent to the model provider`, {
        hint: "pass credentials to tools, not to the model; or declare it as a variable if it is not sensitive. The value is also kept wherever the framework records the messages it sends (the exported README says where)",
      });
    }
  }
  // Secrets are credentials for outbound requests: an agent that may reach the network can
  // send one as {{NAME}} in a request header, so a secret is unused only when none can.
  const anyEgress = objectItems(ctx.root.agents).some(([, a]) => hasEgress(a));
  for (const [i, name] of secrets) {
    if (used.has(name) || anyEgress) continue;
    ctx.report("W_SECRET_UNUSED", pointerOf("requiredSecrets", i), `secret "${name}" is declared, but no agent may make outbound requests and nothing references {{${name}}}`, {
      hint: "remove it, or give the agent that needs it an `accessPolicy` or `allowedHosts`",
    });
  }
  for (const [i, name] of variables) {
    if (used.has(name)) continue;
    ctx.report("W_VARIABLE_UNUSED", pointerOf("requiredVariables", i), `variable "${name}" is declared but no prompt or access-policy rule references {{${name}}}`, {
      hint: "exported projects still require it at start; reference it in a prompt or remove it",
    });
  }
}

function hasEgress(agent: Record<string, unknown>): boolean {
  if (Array.isArray(agent.allowedHosts)) return agent.allowedHosts.length > 0;
  const policy = agent.accessPolicy;
  if (!isObject(policy)) return false;
  return policy.defaultAction === "allow" || objectItems(policy.rules).some(([, r]) => r.action === "allow");
}
