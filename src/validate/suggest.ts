// "Did you mean …?" for unknown property names: common synonyms first, then edit distance.

/** Names people write for a field the schema calls something else. */
const SYNONYMS: Record<string, string> = {
  systemprompt: "prompt",
  system_prompt: "prompt",
  instructions: "prompt",
  instruction: "prompt",
  llm: "model",
  llmconfig: "modelConfig",
  model_config: "modelConfig",
  reportsto: "reportsToKey",
  reports_to: "reportsToKey",
  parent: "reportsToKey",
  manager: "reportsToKey",
  depends_on: "dependsOn",
  dependson: "dependsOn",
  needs: "dependsOn",
  agent: "agentKey",
  agent_key: "agentKey",
  secrets: "requiredSecrets",
  variables: "requiredVariables",
  env: "requiredVariables",
  steps: "pipeline",
  allowed_hosts: "allowedHosts",
  allowlist: "allowedHosts",
  access_policy: "accessPolicy",
  policy: "accessPolicy",
  after_step: "afterStep",
  triggers_step: "triggersStep",
  threshold: "thresholdCount",
  max_tokens: "maxTokens",
  maxtokens: "maxTokens",
  timeout_ms: "timeoutMs",
  timeout: "timeoutMs",
  path: "pathPrefix",
  method: "methods",
  hostname: "host",
  schema: "$schema",
};

export function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** The allowed name closest to `name`, or undefined when nothing is close enough. */
export function suggestName(name: string, allowed: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const synonym = Object.hasOwn(SYNONYMS, lower) ? SYNONYMS[lower] : undefined;
  if (synonym && allowed.includes(synonym)) return synonym;
  const byCase = allowed.find((a) => a.toLowerCase() === lower);
  if (byCase) return byCase;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of allowed) {
    const d = levenshtein(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  // Allow about one typo per four characters; beyond that a guess is noise.
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(name.length / 4)) ? best : undefined;
}
