// Standard 5-field cron (minute hour day-of-month month day-of-week), as understood by
// cron(8) and GitHub Actions' `schedule`. Returns a reason when an expression is invalid.

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly FieldSpec[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"] },
  { name: "day of week", min: 0, max: 7, names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] },
];

export function cronProblem(expr: string): string | undefined {
  const parts = expr.trim().split(/\s+/);
  if (expr.trim() === "") return "the cron expression is empty";
  if (parts.length !== 5) {
    return `a cron expression has 5 fields (minute hour day-of-month month day-of-week); this one has ${parts.length}`;
  }
  for (let i = 0; i < 5; i++) {
    const problem = fieldProblem(parts[i]!, FIELDS[i]!);
    if (problem) return problem;
  }
  return undefined;
}

function fieldProblem(field: string, spec: FieldSpec): string | undefined {
  for (const item of field.split(",")) {
    const [range, step, ...rest] = item.split("/");
    if (rest.length > 0 || range === undefined || range === "") return `invalid ${spec.name} field "${field}"`;
    if (step !== undefined && !/^[1-9][0-9]*$/.test(step)) return `invalid step "/${step}" in the ${spec.name} field`;
    if (range === "*") continue;
    const bounds = range.split("-");
    if (bounds.length > 2) return `invalid range "${range}" in the ${spec.name} field`;
    const values: number[] = [];
    for (const b of bounds) {
      const v = valueOf(b, spec);
      if (v === undefined) return `"${b}" is not a valid ${spec.name} (${spec.min}-${spec.max}${spec.names ? ` or ${spec.names[0]}-${spec.names.at(-1)}` : ""})`;
      values.push(v);
    }
    if (values.length === 2 && values[0]! > values[1]!) return `range "${range}" in the ${spec.name} field runs backwards`;
  }
  return undefined;
}

function valueOf(token: string, spec: FieldSpec): number | undefined {
  if (/^[0-9]+$/.test(token)) {
    const n = Number(token);
    return n >= spec.min && n <= spec.max ? n : undefined;
  }
  const idx = spec.names?.indexOf(token.toUpperCase()) ?? -1;
  return idx >= 0 ? idx + (spec.min === 0 ? 0 : 1) : undefined;
}

const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function fieldWords(field: string, spec: FieldSpec, names?: readonly string[]): string {
  const one = (token: string): string => {
    const v = valueOf(token, spec);
    return v === undefined ? token : names ? names[v - (spec.min === 0 ? 0 : 1)]! : String(v);
  };
  return field
    .split(",")
    .map((item) => {
      const [range, step] = item.split("/");
      const base = range === "*" ? "" : range!.includes("-") ? range!.split("-").map(one).join(" to ") : one(range!);
      if (step) return `every ${step} ${spec.name}s${base ? ` from ${base}` : ""}`;
      return base;
    })
    .join(", ");
}

/** A valid cron expression in plain English (times are UTC, as GitHub Actions runs them). */
export function describeCron(expr: string): string {
  const [min, hour, dom, month, dow] = expr.trim().split(/\s+/) as [string, string, string, string, string];
  const pad = (s: string) => s.padStart(2, "0");
  let when: string;
  if (/^\d+$/.test(min) && /^\d+$/.test(hour)) when = `at ${pad(hour)}:${pad(min)} UTC`;
  else if (/^\d+$/.test(min) && hour === "*") when = `at minute ${min} of every hour (UTC)`;
  else if (min === "*" && hour === "*") when = "every minute";
  else when = `at minute ${fieldWords(min, FIELDS[0]!) || "every"} of hour ${fieldWords(hour, FIELDS[1]!) || "every"} (UTC)`;
  const parts = [when];
  if (dow !== "*") parts.push(`on ${fieldWords(dow, FIELDS[4]!, DAY_NAMES)}`);
  if (dom !== "*") parts.push(`on day ${fieldWords(dom, FIELDS[2]!)} of the month`);
  if (month !== "*") parts.push(`in ${fieldWords(month, FIELDS[3]!, MONTH_NAMES)}`);
  if (dow === "*" && dom === "*" && month === "*" && /^\d+$/.test(hour)) parts.push("every day");
  return parts.join(" ");
}
