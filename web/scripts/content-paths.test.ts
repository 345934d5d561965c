import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import rules from "../../contracts/content-paths.json";
import { judgePath, kindOfPattern } from "./content-paths.mjs";

// The table the server's rule is tested on too (internal/sitecontent/
// paths_test.go): both judge every case alike.
type Case = { kind: "image" | "drawing"; path: string; refused: string | null };
const { cases } = JSON.parse(readFileSync(new URL("../../contracts/cases/content-paths.json", import.meta.url), "utf8")) as { cases: Case[] };

describe("the rule for the paths the content names", () => {
  it.each(cases.map((c) => [c.kind, JSON.stringify(c.path), c] as const))("%s %s", (_, __, c) => {
    const judged = judgePath(c.kind, c.path);
    expect(judged?.key ?? null).toBe(c.refused);
    if (judged) expect(judged.problem).not.toMatch(/[\n\r]/);
    // The schema's pattern (the same) lets exactly the good ones through.
    expect(new RegExp(rules.kinds[c.kind].pattern, "u").test(c.path)).toBe(c.refused === null);
  });

  it("says the trial's path in plain words", () => {
    const trial = `x/${"../".repeat(20)}tmp/secret/secret-plan.jpg`;
    expect(judgePath("image", trial)?.problem).toBe(`"${trial}" has a . or .. folder in it: the path must stay inside content/images/, like products/chair.jpg`);
  });

  it("knows each kind by its pattern, as the schemas give it", () => {
    expect(kindOfPattern(rules.kinds.image.pattern)).toBe("image");
    expect(kindOfPattern(rules.kinds.drawing.pattern)).toBe("drawing");
    // As an earlier schema, kept by a content repository made before, had it.
    expect(rules.kinds.drawing.former.length).toBeGreaterThan(0);
    for (const former of rules.kinds.drawing.former) expect(kindOfPattern(former)).toBe("drawing");
    expect(kindOfPattern("\\S")).toBeNull();
  });
});
