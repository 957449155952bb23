// The v1.1 schedule rules (src/model/schedule-rules.ts): which model answers a condition.
import { describe, expect, it } from "vitest";
import { conditionAgent, INTERVAL_CRON, modelTier } from "../src/model/schedule-rules.js";
import type { AgentModel } from "../src/model/types.js";

const agent = (key: string, model?: string): AgentModel => ({ key, ...(model ? { llm: { provider: "openai", known: true, model, source: "model", pointer: "" } } : {}) }) as AgentModel;

describe("schedule rules", () => {
  it("ranks model names by their tier words", () => {
    expect(modelTier("gpt-5-nano")).toBe(0);
    expect(modelTier("gemini-2.5-flash-lite")).toBe(0);
    expect(modelTier("claude-haiku-4-5")).toBe(1);
    expect(modelTier("gpt-4.1")).toBe(2);
    expect(modelTier("claude-opus-4-5")).toBe(3);
  });
  it("picks the cheapest declared model, the first on a tie, the first agent without any", () => {
    expect(conditionAgent([agent("a", "claude-opus-4-5"), agent("b", "claude-sonnet-4-5"), agent("c", "gpt-4.1-mini"), agent("d", "claude-haiku-4-5")]).key).toBe("c");
    expect(conditionAgent([agent("a"), agent("b", "claude-opus-4-5")]).key).toBe("b");
    expect(conditionAgent([agent("a"), agent("b")]).key).toBe("a");
  });
  it("maps every interval to a cron", () => {
    expect(INTERVAL_CRON).toEqual({ "15min": "*/15 * * * *", "1h": "0 * * * *", "6h": "0 */6 * * *", "24h": "0 0 * * *" });
  });
});
