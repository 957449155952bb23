// What a step waits for. The schema calls the pipeline "an ordered sequence" that runs "in
// order", and `dependsOn` lists the steps that must complete first. We read that as:
//   - `dependsOn` present (even empty) → exactly those steps;
//   - `dependsOn` omitted → the step before it in the list (the first step waits for none).
// A plain list therefore runs in sequence, and a DAG is written with explicit `dependsOn`.

export interface StepDependencies {
  deps: string[];
  /** True when `dependsOn` was omitted and the previous step was assumed. */
  implicit: boolean;
}

export function effectiveDependencies(
  steps: ReadonlyArray<{ key: string; dependsOn?: readonly string[] | undefined }>,
): Map<string, StepDependencies> {
  const out = new Map<string, StepDependencies>();
  steps.forEach((step, i) => {
    if (out.has(step.key)) return;
    if (step.dependsOn !== undefined) out.set(step.key, { deps: [...new Set(step.dependsOn)], implicit: false });
    else out.set(step.key, { deps: i === 0 ? [] : [steps[i - 1]!.key], implicit: true });
  });
  return out;
}
