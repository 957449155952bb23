import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { className, fieldNamespace, MAX_NAME_LENGTH, memberNamespace, packageName, toSnake } from "../src/model/namer.js";
import { FRAMEWORK_MODULES, PYTHON_BUILTINS, PYTHON_KEYWORDS, PYTHON_STDLIB_MODULES } from "../src/model/reserved-words.js";

const PY_IDENT = /^[a-z_][a-z0-9_]*$/;

describe("packageName", () => {
  it.each([
    ["support-tier", "support_tier"],
    ["crewai", "crewai_team"],
    ["langgraph", "langgraph_team"],
    ["test", "test_team"],
    ["typing", "typing_team"],
    ["json", "json_team"],
    ["class", "class_team"],
    ["3d-studio", "team_3d_studio"],
    ["train", "train_team"],
    ["a--b", "a_b"],
  ])("%s → %s", (slug, expected) => {
    expect(packageName(slug)).toBe(expected);
  });
  it("class names avoid framework classes", () => {
    expect(className("support_tier")).toBe("SupportTier");
    expect(className("crew")).toBe("CrewTeam");
  });
});

describe("member and field namespaces", () => {
  it("keeps keys that normalize alike distinct, in definition order", () => {
    const ns = memberNamespace();
    expect(["data-analyst", "data_analyst", "Data_Analyst"].map((k) => ns.claim(k))).toEqual(["data_analyst", "data_analyst_2", "data_analyst_3"]);
  });
  it("suffixes reserved words and prefixes leading digits", () => {
    const ns = memberNamespace();
    expect(ns.claim("class")).toBe("class_");
    expect(ns.claim("input")).toBe("input_");
    expect(ns.claim("crew")).toBe("crew"); // a member name only where a target reserves it
    expect(memberNamespace(new Set(["crew"])).claim("crew")).toBe("crew_");
    expect(ns.claim("os")).toBe("os_");
    expect(ns.claim("42", { prefix: "agent" })).toBe("agent_42");
    expect(ns.claim("---", { prefix: "agent" })).toBe("agent");
  });
  it("prefers a kind suffix when a step or gate collides with an agent", () => {
    const ns = memberNamespace();
    expect(ns.claim("research")).toBe("research");
    expect(ns.claim("research", { collisionSuffix: "_step" })).toBe("research_step");
    expect(ns.claim("research", { collisionSuffix: "_step" })).toBe("research_step_2");
  });
  it("bounds names to MAX_NAME_LENGTH (no key length makes a line the formatter cannot break), still distinct", () => {
    const ns = memberNamespace();
    const long = "writer-" + "very-long-key-that-a-builder-typed-".repeat(3);
    const [a, b] = [ns.claim(long), ns.claim(long + "-2")];
    expect(a).toBe(toSnake(long).slice(0, MAX_NAME_LENGTH));
    expect(b).toBe(`${a}_2`);
    expect(ns.claim("x".repeat(39) + "_y")).toBe("x".repeat(39)); // no trailing underscore left by the cut
  });
  it("field names avoid pydantic's BaseModel members", () => {
    const ns = fieldNamespace();
    expect(["schema", "model_config", "json", "title", "café au lait"].map((k) => ns.claim(k))).toEqual(["schema_", "model_config_", "json_", "title", "cafe_au_lait"]);
  });
  it("property: any set of keys yields valid, distinct, non-reserved identifiers", () => {
    const reserved = (n: string) => PYTHON_KEYWORDS.has(n) || PYTHON_BUILTINS.has(n) || PYTHON_STDLIB_MODULES.has(n) || FRAMEWORK_MODULES.has(n);
    const keyArb = fc.oneof(
      fc.string(),
      fc.constantFrom(...PYTHON_KEYWORDS, ...[...PYTHON_BUILTINS].slice(0, 40), "crewai", "langgraph", "test", "typing", "a-b", "a_b", "A_B", "1x", ""),
    );
    fc.assert(
      fc.property(fc.array(keyArb, { maxLength: 30 }), (keys) => {
        const ns = memberNamespace();
        const names = keys.map((k) => ns.claim(k, { prefix: "agent" }));
        expect(new Set(names).size).toBe(names.length);
        for (const n of names) {
          expect(n).toMatch(PY_IDENT);
          expect(reserved(n)).toBe(false);
        }
      }),
    );
  });
  it("property: package names are valid and never shadow a module", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{1,60}$/), (slug) => {
        const p = packageName(slug);
        expect(p).toMatch(PY_IDENT);
        expect(PYTHON_STDLIB_MODULES.has(p) || FRAMEWORK_MODULES.has(p) || PYTHON_KEYWORDS.has(p)).toBe(false);
      }),
    );
  });
  it("toSnake folds accents and camelCase", () => {
    expect(toSnake("Ünïcode dataAnalyst")).toBe("unicode_data_analyst");
  });
});
