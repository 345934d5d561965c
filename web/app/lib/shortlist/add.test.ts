import { describe, expect, it } from "vitest";
import { addedLine } from "./add";

// A small catalogue of its own, with names of more than one word.
const products = [
  { id: 3, name: "Marwar chair", material: ["Metal", "Wood"], finish: ["Black", "Light Oak"] },
  { id: 7, name: "Jali screen", material: ["Wood"], finish: ["Walnut"] },
];
const asked = (query: string) => addedLine(new URLSearchParams(query), products);

describe("Add to shortlist sent as a form (?add=)", () => {
  it("names a line by the product and the options as the catalogue writes them", () => {
    expect(asked("add=3&material=Wood&finish=Light+Oak")).toEqual({ product: products[0], material: "Wood", finish: "Light Oak" });
    expect(asked("add=3&material=Wood&finish=Light%20Oak")).toMatchObject({ finish: "Light Oak" });
  });

  it("takes an option left out or empty as the product's first", () => {
    expect(asked("add=3")).toMatchObject({ material: "Metal", finish: "Black" });
    expect(asked("add=3&material=&finish=Light+Oak")).toMatchObject({ material: "Metal", finish: "Light Oak" });
  });

  it("adds nothing for a product the catalogue does not have, and says so", () => {
    for (const id of ["99", "", "abc", "3.5", "-3", "1e2"]) {
      expect(asked(`add=${id}&material=Wood`), id).toEqual({ problem: "The piece you asked to add is not in the catalogue now, so nothing was added." });
    }
  });

  it("adds nothing for an option the product does not offer, and names it", () => {
    expect(asked("add=7&material=Metal&finish=Walnut")).toEqual({ problem: "Jali screen is not made in Metal, so nothing was added." });
    expect(asked("add=3&material=Wood&finish=light-oak")).toEqual({ problem: "Marwar chair is not made with a light-oak finish, so nothing was added." });
  });
});
