// Pricing (registry-only, so warnings): the fields each pricing model needs.
import { has, isObject, str, type RuleContext } from "../rule-context.js";

export function checkPricing(ctx: RuleContext): void {
  const pricing = ctx.root.pricing;
  if (!isObject(pricing)) return;
  const model = str(pricing.model);
  if ((model === "per_run" || model === "per_k_tokens") && !has(pricing, "amount")) {
    ctx.report("W_PRICING_AMOUNT_MISSING", "/pricing/model", `pricing model "${model}" needs \`amount\``, { hint: "add e.g. \"amount\": 0.05" });
  }
  if (model === "subscription" && !has(pricing, "interval")) {
    ctx.report("W_PRICING_INTERVAL_MISSING", "/pricing/model", "pricing model \"subscription\" needs `interval`", { hint: "allowed: \"month\", \"year\"" });
  }
}
