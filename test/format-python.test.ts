import { describe, expect, it } from "vitest";
import { formatPython } from "../src/export/format/python.js";

describe("formatPython", () => {
  it("formats like ruff, and a remembered answer belongs to its source, not to the path", () => {
    expect(formatPython("x = ( 1, )\n", "a.py")).toBe("x = (1,)\n");
    expect(formatPython("y = {'a':1}\n", "a.py")).toBe('y = {"a": 1}\n');
    expect(formatPython("x = ( 1, )\n", "b.py")).toBe("x = (1,)\n");
  });

  it("stays right when far more sources pass through than it remembers", () => {
    const sources = Array.from({ length: 3000 }, (_, i) => `value_${i} = '${"x".repeat(2000)}'\n`);
    for (const s of sources) formatPython(s, "m.py");
    for (const [i, s] of sources.entries()) expect(formatPython(s, "m.py")).toBe(`value_${i} = "${"x".repeat(2000)}"\n`);
  });

  it("names the module and shows the source when a template produced invalid Python", () => {
    expect(() => formatPython("def (:\n", "src/pkg/team.py")).toThrow(/generated src\/pkg\/team.py is not valid Python[\s\S]*def \(:/);
  });
});
