import { describe, expect, it } from "vitest";
import table from "../../contracts/cases/content-references.json";
import { referenceProblems } from "./content-references.mjs";

// The table the server's check is tested on too (internal/sitecontent/
// references_test.go): both give every case the same problems.
describe("the fields that name another part of their file", () => {
  it("has cases", () => expect(table.cases.length).toBeGreaterThan(0));
  it.each(table.cases.map((c) => [c.case, c] as const))("%s", (_, c) => {
    expect(referenceProblems(c.file, c.document)).toEqual(c.problems);
  });
});
