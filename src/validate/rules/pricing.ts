// Pricing: the fields each pricing model needs. `amount` for per_run/per_k_tokens is an error
// (the schema says it is required, and `validate` is the registry's gate); an export, which
// carries no pricing, reports it as a registry warning (validate.ts). `interval` stays a
// warning: the schema gives it a default ("month").
import { has, isObject, str, type RuleContext } from "../rule-context.js";

export function checkPricing(ctx: RuleContext): void {
  const pricing = ctx.root.pricing;
  if (!isObject(pricing)) return;
  const model = str(pricing.model);
  if ((model === "per_run" || model === "per_k_tokens") && !has(pricing, "amount")) {
    ctx.report("E_PRICING_AMOUNT_MISSING", "/pricing/model", `pricing model "${model}" needs \`amount\``, { hint: "add e.g. \"amount\": 0.05" });
  }
  if (model === "subscription" && !has(pricing, "interval")) {
    ctx.report("W_PRICING_INTERVAL_MISSING", "/pricing/model", "pricing model \"subscription\" needs `interval`", { hint: "allowed: \"month\", \"year\"" });
  }
}
