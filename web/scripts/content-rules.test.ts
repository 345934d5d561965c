import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { checkContent } from "./content-rules";

// The content check on the studio's own content, and on copies of it with
// one of the studio's usual mistakes made in it.

const contentDir = fileURLToPath(new URL("../../content", import.meta.url));
const publicDir = fileURLToPath(new URL("../public", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "content-check-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const readJson = (dir: string, name: string): Json => JSON.parse(readFileSync(join(dir, name), "utf8"));
const editJson = (dir: string, name: string, edit: (d: Json) => void) => {
  const d = readJson(dir, name);
  edit(d);
  writeFileSync(join(dir, name), JSON.stringify(d, null, 2));
};
const firstPolicy = readdirSync(join(contentDir, "policies")).find((f) => f.endsWith(".md"))!;

function problemsAfter(spoil: (dir: string) => void): string[] {
  const dir = mkdtempSync(join(root, "c-"));
  cpSync(contentDir, dir, { recursive: true });
  spoil(dir);
  return checkContent(dir, publicDir);
}

describe("the content check", () => {
  it("finds nothing wrong with the shipped content", () => {
    expect(checkContent(contentDir, publicDir)).toEqual([]);
  });

  it.each<[string, (dir: string) => void, RegExp]>([
    [
      "a missing comma",
      (dir) => {
        const lines = readFileSync(join(dir, "site.json"), "utf8").split("\n");
        const i = lines.findIndex((l) => l.includes('"city"'));
        lines[i] = lines[i]!.replace(/,$/, "");
        writeFileSync(join(dir, "site.json"), lines.join("\n"));
      },
      /^content\/site\.json: line \d+, column \d+: not valid JSON \(.*\)\. Is a comma missing at the end of the line before\?$/,
    ],
    ["a product name over 80 characters", (dir) => editJson(dir, "catalogue.json", (c) => (c.products[0].name = "Ç".repeat(81))), /^content\/catalogue\.json: product \d+ \(Ç+\): name: is 81 characters long: it may have at most 80, so shorten it$/],
    ["a product with no photograph", (dir) => editJson(dir, "catalogue.json", (c) => (c.products[0].images = [])), /^content\/catalogue\.json: product \d+ \(.+\): images: add at least one$/],
    ["a product id used twice", (dir) => editJson(dir, "catalogue.json", (c) => (c.products[1].id = c.products[0].id)), /^content\/catalogue\.json: product \d+ \(.+\): id: \d+ is used by another product$/],
    ["a featured id that does not exist", (dir) => editJson(dir, "catalogue.json", (c) => (c.featured.fresh = 9999)), /^content\/catalogue\.json: featured: product 9999 is not in the catalogue$/],
    ["an unknown category", (dir) => editJson(dir, "catalogue.json", (c) => (c.products[0].category = "Beds")), /^content\/catalogue\.json: product \d+ \(.+\): category: "Beds" is not one of "categories"/],
    [
      "two tabs that would share an address",
      (dir) => editJson(dir, "catalogue.json", (c) => (c.categories[1].tabs = [c.categories[0].tabs?.[0] ?? c.categories[0].name].map((n: string) => n.toUpperCase()).concat("Page"))),
      /^content\/catalogue\.json: categories: the tabs ".+" and ".+" would share the address \/products\/[a-z-]+; rename one$/,
    ],
    ["a tab named as the list's own word", (dir) => editJson(dir, "catalogue.json", (c) => (c.categories[0].tabs = ["Material", "Chairs"])), /^content\/catalogue\.json: categories: the tab "Material" needs another name \(its address would be \/products\/material\)$/],
    [
      "two finishes that would share an address",
      (dir) => editJson(dir, "catalogue.json", (c) => (c.filters.finish[`${Object.keys(c.filters.finish)[0]}!`.toUpperCase()] = ["Gold"])),
      /^content\/catalogue\.json: filters\.finish: the finishes ".+" and ".+" would share the address \/products\/finish\/[a-z-]+; rename one$/,
    ],
    ["a missing image", (dir) => editJson(dir, "catalogue.json", (c) => (c.products[0].images[0].src = "products/gone.jpg")), /^content\/catalogue\.json: product \d+ \(.+\): images\[0\]\.src: content\/images\/products\/gone\.jpg does not exist$/],
    ["an empty alt text", (dir) => editJson(dir, "catalogue.json", (c) => (c.products[0].images[0].alt = " ")), /^content\/catalogue\.json: product \d+ \(.+\): images\[0\]\.alt: is empty$/],
    ["a misspelt field", (dir) => editJson(dir, "catalogue.json", (c) => ((c.products[0].descripton = c.products[0].description), delete c.products[0].description)), /^content\/catalogue\.json: product \d+ \(.+\): descripton: is not a field here \(a typo\? the fields are id, name/],
    ["a number in quotes", (dir) => editJson(dir, "service.json", (s) => (s.warranty.years = "3")), /^content\/service\.json: warranty\.years: should be a whole number \(no quotes\)$/],
    ["delivery days that are not days", (dir) => editJson(dir, "service.json", (s) => (s.delivery.inStockDays = "two weeks")), /^content\/service\.json: delivery\.inStockDays: "two weeks" is not a number of days or a range/],
    ["a phone without its country code", (dir) => editJson(dir, "site.json", (s) => (s.phones[0].tel = "02912624410")), /^content\/site\.json: phones\[0\]\.tel: "02912624410" is not the same number with its country code/],
    ["a number shown changed without the number for links", (dir) => editJson(dir, "site.json", (s) => (s.phones[0].display = "+91 98290 12345")), /^content\/site\.json: phones\[0\]\.tel: "\+\d+" is not the number shown, "\+91 98290 12345"; change both together$/],
    ["a WhatsApp label that names no phone", (dir) => editJson(dir, "site.json", (s) => (s.whatsappPhone = "Fax")), /^content\/site\.json: whatsappPhone: "Fax" is the label of none of the phones/],
    ["a city the address does not agree with", (dir) => editJson(dir, "site.json", (s) => (s.city = "Jaipur")), /^content\/site\.json: address\.locality: ".+" is not the city "Jaipur"; change both together$/],
    ["a chat follow-up that names no option", (dir) => editJson(dir, "chat.json", (c) => c.options[0].followUp.unshift("no-such-option")), /^content\/chat\.json: options "[\w-]+": followUp: "no-such-option" is not the id of any option$/],
    ["a chat placeholder that names no fact", (dir) => editJson(dir, "chat.json", (c) => (c.options[0].answer += " Call {{site.fax}}.")), /^content\/chat\.json: options "[\w-]+": answer: \{\{site\.fax\}\} names no fact/],
    ["a home text whose placeholder names no fact", (dir) => editJson(dir, "pages.json", (p) => (p.home.craft.text += " In {{site.town}}.")), /^content\/pages\.json: home\.craft\.text: \{\{site\.town\}\} names no fact/],
    ["a drawing that is not in web/public", (dir) => editJson(dir, "pages.json", (p) => (p.about.founders[0].image = "/images/gone.svg")), /^content\/pages\.json: about\.founders\[0\]\.image: web\/public\/images\/gone\.svg does not exist$/],
    [
      "the trial's hero, outside content/images/",
      (dir) => editJson(dir, "pages.json", (p) => (p.home.hero.src = `x/${"../".repeat(20)}tmp/secret/secret-plan.jpg`)),
      /^content\/pages\.json: home\.hero\.src: "x\/(\.\.\/){20}tmp\/secret\/secret-plan\.jpg" has a \. or \.\. folder in it: the path must stay inside content\/images\/, like products\/chair\.jpg$/,
    ],
    [
      "a hero outside content/images/, its schema's pattern loosened (a push may change it)",
      (dir) => {
        editJson(dir, "schema/pages.schema.json", (s) => (s.properties.home.properties.hero.properties.src.pattern = "\\S"));
        editJson(dir, "pages.json", (p) => (p.home.hero.src = "../site.json.jpg"));
      },
      /^content\/pages\.json: home\.hero\.src: "\.\.\/site\.json\.jpg" has a \. or \.\. folder in it/,
    ],
    ["a drawing outside web/public/images/", (dir) => editJson(dir, "pages.json", (p) => (p.about.founders[0].image = "/images/../../../etc/x.svg")), /^content\/pages\.json: about\.founders\[0\]\.image: "\/images\/\.\.\/\.\.\/\.\.\/etc\/x\.svg" has a \. or \.\. folder in it: the path must stay inside web\/public\/images\/, like \/images\/craft\.svg$/],
    ["a picture in a drawing's place that is not in content/images/", (dir) => editJson(dir, "pages.json", (p) => (p.about.founders[0].image = "pages/gone.jpg")), /^content\/pages\.json: about\.founders\[0\]\.image: content\/images\/pages\/gone\.jpg does not exist$/],
    ["an SVG of the content in a drawing's place", (dir) => editJson(dir, "pages.json", (p) => (p.about.founders[0].image = "hero.svg")), /^content\/pages\.json: about\.founders\[0\]\.image: "hero\.svg" is not one of the site's drawings, written as \/images\/name\.svg, or a JPEG, PNG, WebP or AVIF picture under content\/images\//],
    ["a product photograph outside content/images/", (dir) => editJson(dir, "catalogue.json", (c) => (c.products[0].images[0].src = "/etc/chair.jpg")), /^content\/catalogue\.json: product \d+ \(.+\): images\[0\]\.src: "\/etc\/chair\.jpg" begins with a slash: write the path inside content\/images\//],
    ["a home link to no page", (dir) => editJson(dir, "pages.json", (p) => (p.home.disciplines[0].link.to = "/furniture")), /^content\/pages\.json: home\.disciplines\[0\]\.link\.to: "\/furniture" is not a page of the site/],
    ["a space's title leading to no page", (dir) => editJson(dir, "pages.json", (p) => (p.home.showcase.items[0].to = "/products/sofas")), /^content\/pages\.json: home\.showcase\.items\[0\]\.to: "\/products\/sofas" is not a page of the site/],
    ["a search word listed twice", (dir) => editJson(dir, "catalogue.json", (c) => (c.synonyms = [{ word: "Sofa", finds: ["seating"] }, { word: "sofa ", finds: ["lounge chair"] }])), /^content\/catalogue\.json: synonyms\[1\]\.word: "sofa " is listed twice; keep one and put all its words there$/],
    ["a search word that finds no words", (dir) => editJson(dir, "catalogue.json", (c) => (c.synonyms = [{ word: "sofa", finds: [] }])), /^content\/catalogue\.json: synonyms\[0\]\.finds/],
    ["a home section without its title", (dir) => editJson(dir, "pages.json", (p) => delete p.home.values[0].title), /^content\/pages\.json: home\.values\[0\]\.title: is missing$/],
    [
      "a policy placeholder that names no fact",
      (dir) => writeFileSync(join(dir, "policies", firstPolicy), readFileSync(join(dir, "policies", firstPolicy), "utf8") + "\nWrite to {{site.mail}}.\n"),
      new RegExp(`^content/policies/${firstPolicy.replace(".", "\\.")}: \\{\\{site\\.mail\\}\\} names no fact`),
    ],
    [
      "a policy date that is no date",
      (dir) => writeFileSync(join(dir, "policies", firstPolicy), readFileSync(join(dir, "policies", firstPolicy), "utf8").replace(/^updated: .*$/m, "updated: 20 Nov 2026")),
      /^content\/policies\/.+\.md: updated: "20 Nov 2026" is not a date written as YYYY-MM-DD/,
    ],
  ])("%s gets one line naming the file and the field", (_, spoil, want) => {
    const problems = problemsAfter(spoil);
    expect(problems.filter((p) => want.test(p)), problems.join("\n")).toHaveLength(1);
  });

  it("takes a picture of content/images/ in a drawing's place", async () => {
    const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#c8734b" } }).png().toBuffer();
    const problems = problemsAfter((dir) => {
      mkdirSync(join(dir, "images", "pages"), { recursive: true });
      writeFileSync(join(dir, "images", "pages", "home-craft-3f9a1c.png"), png);
      editJson(dir, "pages.json", (p) => (p.home.craft.image = "pages/home-craft-3f9a1c.png"));
    });
    expect(problems).toEqual([]);
  });

  it("reports every problem at once, across files", () => {
    const problems = problemsAfter((dir) => {
      editJson(dir, "service.json", (s) => delete s.emailReplyHours);
      editJson(dir, "catalogue.json", (c) => (c.featured.whatsHot = [9998]));
      editJson(dir, "pages.json", (p) => (p.home.hero.alt = ""));
    });
    expect(problems).toEqual([
      "content/service.json: emailReplyHours: is missing",
      "content/pages.json: home.hero.alt: is empty",
      "content/catalogue.json: featured: product 9998 is not in the catalogue",
    ]);
  });
});
