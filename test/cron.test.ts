import { describe, expect, it } from "vitest";
import { cronProblem } from "../src/model/cron.js";

describe("cronProblem", () => {
  it.each(["0 9 * * 1", "*/15 * * * *", "0 0 1 JAN,JUL *", "30 8-18/2 * * MON-FRI", "0 0 * * 7", "5,10,15 * 1-31 1-12 0-6"])("accepts %s", (expr) => {
    expect(cronProblem(expr)).toBeUndefined();
  });
  it.each([
    ["", "empty"],
    ["0 9 * *", "5 fields"],
    ["0 9 * * * *", "5 fields"],
    ["60 * * * *", "minute"],
    ["0 24 * * *", "hour"],
    ["0 0 0 * *", "day of month"],
    ["0 0 * 13 *", "month"],
    ["0 0 * * 8", "day of week"],
    ["0 0 * * FOO", "day of week"],
    ["*/0 * * * *", "step"],
    ["5-1 * * * *", "backwards"],
    ["1-2-3 * * * *", "range"],
  ])("rejects %j (%s)", (expr, why) => {
    expect(cronProblem(expr)).toContain(why);
  });
});
