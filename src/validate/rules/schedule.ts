// Schedule: a cron team needs a valid 5-field expression; `continuous` has no behaviour yet.
import { cronProblem } from "../../model/cron.js";
import { isObject, str, type RuleContext } from "../rule-context.js";

export function checkSchedule(ctx: RuleContext): void {
  const schedule = ctx.root.schedule;
  if (!isObject(schedule)) return;
  const type = str(schedule.type);
  if (type === "cron") {
    const cron = schedule.cron;
    if (cron === undefined) {
      ctx.report("E_CRON_INVALID", "/schedule", "`schedule.type: \"cron\"` needs `schedule.cron`, a 5-field cron expression", {
        hint: "e.g. \"0 9 * * 1\" for every Monday at 09:00 UTC",
      });
    } else if (typeof cron === "string") {
      const problem = cronProblem(cron);
      if (problem) {
        ctx.report("E_CRON_INVALID", "/schedule/cron", `invalid cron expression "${cron}": ${problem}`, {
          hint: "fields: minute (0-59) hour (0-23) day-of-month (1-31) month (1-12) day-of-week (0-7); e.g. \"0 9 * * 1\"",
        });
      }
    }
  } else if (type === "continuous") {
    ctx.report("W_SCHEDULE_CONTINUOUS", "/schedule/type", "`continuous` schedules are declared for forward compatibility only and have no behaviour yet; the team runs on demand", {
      hint: "use \"cron\", \"event\" or \"condition\" for a team that should start by itself",
    });
  }
}
