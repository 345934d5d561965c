import { describe, expect, it } from "vitest";
import table from "../../../contracts/cases/shown-path.json";
import { shownPath } from "./notFound";

// The server's rule too (internal/server/pathpage.go): the page hydrates
// with the text the server filled in.
describe("the path a not-found notice names", () => {
  it.each(table.cases)("$case", ({ path, shown }) => expect(shownPath(path)).toBe(shown));
});
