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

/** Edits from `a` to `b`: insert, delete, replace, or swap two neighbours ("agnets" → "agents" is one). */
export function editDistance(a: string, b: string): number {
  // Optimal string alignment: Levenshtein plus adjacent transpositions (three rows kept).
  let before: number[] = []; // the row two back, read only from the second row on
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = prev;
    prev = row;
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
    const d = editDistance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  // Allow about one typo per four characters; beyond that a guess is noise.
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(name.length / 4)) ? best : undefined;
}
