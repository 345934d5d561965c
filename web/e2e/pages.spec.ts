import type { Page } from "@playwright/test";
import { test, expect, hydrated, recordAnalytics, trackedEvents } from "./fixtures";
import { markdownDoc, pages, service, site } from "./content";
import { warranty } from "../app/lib/facts";

// The studio pages (About, Bespoke, Contact) and the policies: their
// headings, the facts they state, and that every fact matches content/.


// The map frame would load a page from the map's host; the tests answer it
// here, so no request leaves the machine.
async function stubMap(page: Page) {
  await page.route((url) => url.href.startsWith(new URL(site.map.embedUrl).origin), (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>map</title><p>map</p>" }),
  );
}

// Every tel: and mailto: link on the page is one of the site's own; the
// e-mail address is always offered, and with `all` every phone too.
async function expectContactLinksMatchSite(page: Page, { all }: { all: boolean }) {
  const main = page.getByRole("main");
  const tels = await main.locator('a[href^="tel:"]').evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  const mails = await main.locator('a[href^="mailto:"]').evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  const siteTels = site.phones.map((p) => `tel:${p.tel}`);
  for (const href of tels) expect(siteTels).toContain(href);
  for (const href of mails) expect(href).toBe(`mailto:${site.email}`);
  expect(mails.length).toBeGreaterThan(0);
  if (all) for (const href of siteTels) expect(tels).toContain(href);
  // The visible text of each phone link is that phone's display form.
  for (const p of site.phones) {
    const link = main.locator(`a[href="tel:${p.tel}"]`).first();
    if (all || (await link.count())) await expect(link).toHaveText(p.display);
  }
}

test.describe("About", () => {
  test("tells the story, shows the team and the projects, and links to Contact", async ({ page }) => {
    await page.goto("/about");
    await hydrated(page);
    await expect(page).toHaveTitle(`About us | ${site.name}`);
    await expect(page.getByRole("heading", { level: 1, name: "About us" })).toBeVisible();
    const main = page.getByRole("main");
    await expect(main).toContainText(site.region);
    await expect(main).toContainText(site.city);

    const team = page.getByRole("region", { name: "The team" });
    for (const person of pages.about.founders) {
      await expect(team.getByRole("heading", { level: 3, name: person.name })).toBeVisible();
      await expect(team).toContainText(person.role);
      const img = team.getByRole("img", { name: person.alt });
      await expect(img).toHaveAttribute("width", "600");
      await expect(img).toHaveAttribute("height", "600");
    }
    await expect(team.getByRole("heading", { level: 3, name: pages.about.craftsmen.title })).toBeVisible();
    await expect(team.getByRole("img", { name: pages.about.craftsmen.alt })).toHaveAttribute("width", "600");

    const glimpses = page.getByRole("region", { name: "Glimpses" });
    await expect(glimpses.getByRole("listitem")).toHaveCount(pages.about.projects.length);
    for (const project of pages.about.projects) {
      await expect(glimpses.getByRole("heading", { level: 3, name: `${project.title}, ${project.place}` })).toBeVisible();
      const img = glimpses.getByRole("img", { name: project.alt });
      await expect(img).toHaveAttribute("width", "1200");
      await expect(img).toHaveAttribute("height", "800");
      await expect(img).toHaveAttribute("loading", "lazy");
    }

    await page.getByRole("main").getByRole("link", { name: "Contact us" }).click();
    await expect(page).toHaveURL(/\/contact-us$/);
    await expect(page.getByRole("heading", { level: 1, name: "Get in touch" })).toBeVisible();
  });
});

test.describe("Bespoke", () => {
  test("shows the hero, the pillars, the disciplines and a Let's begin button", async ({ page }) => {
    await page.goto("/bespoke");
    await hydrated(page);
    await expect(page).toHaveTitle(`Bespoke Solution | ${site.name}`);
    await expect(page.getByRole("heading", { level: 1, name: "Bespoke Solution" })).toBeVisible();
    const hero = page.locator(".bespoke-hero img");
    await expect(hero).toHaveAttribute("src", pages.bespoke.hero.image);
    await expect(hero).toHaveAttribute("width", "1600");
    await expect(hero).toHaveAttribute("height", "700");
    await expect(hero).not.toHaveAttribute("loading", "lazy");

    const pillars = page.getByRole("region", { name: "How we work" });
    for (const { title } of pages.bespoke.pillars) await expect(pillars.getByRole("heading", { level: 3, name: title })).toBeVisible();
    const disciplines = page.getByRole("region", { name: "What we make" });
    for (const { title } of pages.bespoke.disciplines) await expect(disciplines.getByRole("heading", { level: 3, name: title })).toBeVisible();
    for (const img of await disciplines.getByRole("img").all()) {
      await expect(img).toHaveAttribute("width", "1200");
      await expect(img).toHaveAttribute("height", "800");
    }
    await expect(page.getByRole("main")).not.toContainText("{{");
    await expect(page.getByRole("button", { name: "Let's begin" })).toBeVisible();
  });
});

test.describe("Contact", () => {
  test.beforeEach(async ({ page }) => stubMap(page));

  test("has the form, the map with a plain link, the studio's details and the marquee", async ({ page }) => {
    await page.goto("/contact-us");
    await hydrated(page);
    await expect(page).toHaveTitle(`Contact us | ${site.name}`);
    await expect(page.getByRole("heading", { level: 1, name: "Get in touch" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText(`within ${service.emailReplyHours} hours on business days`);

    for (const label of ["Your Name", "Your Email", "Message"]) {
      await expect(page.getByLabel(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByRole("button", { name: "Send Message" })).toBeVisible();

    const map = page.locator("iframe");
    await expect(map).toHaveAttribute("title", new RegExp(`^Map showing ${site.name}`));
    await expect(map).toHaveAttribute("loading", "lazy");
    await expect(map).toHaveAttribute("src", site.map.embedUrl);
    await expect(page.getByRole("link", { name: /^Open the map/ })).toHaveAttribute("href", site.map.linkUrl);

    const details = page.getByRole("region", { name: "Call, write or visit" });
    for (const p of site.phones) {
      await expect(details.getByRole("link", { name: p.display, exact: true })).toHaveAttribute("href", `tel:${p.tel}`);
    }
    await expect(details.getByRole("link", { name: site.email })).toHaveAttribute("href", `mailto:${site.email}`);
    const address = details.getByRole("link", { name: new RegExp(site.address.street) });
    await expect(address).toHaveAttribute("href", site.map.linkUrl);
    await expect(address).toContainText(site.address.postalCode);
    await expect(address).toContainText(site.address.locality);

    await expect(page.getByRole("main").getByText(site.marquee, { exact: true }).first()).toBeAttached();
    await expectContactLinksMatchSite(page, { all: true });
  });

  test("phone and e-mail clicks are tracked as contact attempts", async ({ page }) => {
    await recordAnalytics(page);
    await page.goto("/contact-us");
    await hydrated(page);
    // Keep the browser from handing tel:/mailto: to the system.
    await page.evaluate(() =>
      document.querySelectorAll('a[href^="tel:"], a[href^="mailto:"]').forEach((a) => a.addEventListener("click", (e) => e.preventDefault())),
    );
    const details = page.getByRole("region", { name: "Call, write or visit" });
    await details.getByRole("link", { name: site.phones[0]!.display, exact: true }).click();
    await details.getByRole("link", { name: site.email }).click();
    expect((await trackedEvents(page, "contact_attempt")).map((e) => e.params.method)).toEqual(["phone", "email"]);
  });

  test("the FAQ answers the questions of content/pages/faq.md, one open at a time", async ({ page }) => {
    const faqDoc = markdownDoc("pages/faq.md");
    const plain = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();
    await page.goto("/contact-us");
    await hydrated(page);
    const faq = page.getByRole("region", { name: "Frequently asked questions" });
    const questions = faq.locator("summary");
    await expect(questions).toHaveText(faqDoc.sections.map((s) => s.title));
    const items = faq.locator("details");
    const openStates = () => items.evaluateAll((ds) => ds.map((d) => (d as HTMLDetailsElement).open));
    const only = (i: number) => faqDoc.sections.map((_, j) => j === i);
    expect(await openStates()).toEqual(only(-1));

    const [first, last] = [0, faqDoc.sections.length - 1];
    await questions.nth(last).click();
    expect(await openStates()).toEqual(only(last));
    await expect(items.nth(last)).toContainText(plain(faqDoc.sections[last]!.html).slice(0, 60));

    // Opening another closes the first.
    await questions.nth(first).click();
    expect(await openStates()).toEqual(only(first));

    // A click on the open one closes it.
    await questions.nth(first).click();
    expect(await openStates()).toEqual(only(-1));

    // By keyboard too.
    await questions.nth(last).focus();
    await page.keyboard.press("Enter");
    expect(await openStates()).toEqual(only(last));
    await expect(items.nth(last)).not.toContainText("{{");
  });
});

// The policies: each route and its file in content/policies/, whose
// title and sections the page must show.
const policies = [
  { path: "/shipping-policy", file: "shipping" },
  { path: "/terms-conditions", file: "terms" },
  { path: "/returns", file: "returns" },
  { path: "/privacy-policy", file: "privacy" },
].map((p) => {
  const doc = markdownDoc(`policies/${p.file}.md`);
  return { ...p, doc, title: doc.meta.title!, sections: doc.toc.filter((t) => t.depth === 2).map((t) => t.text) };
});

test.describe("policies", () => {
  // The contents and the measure of the text are laid out for each screen.
  for (const policy of policies) {
    test(`${policy.title}: numbered sections with anchors, contents, last updated, no placeholders`, { tag: "@both" }, async ({ page }) => {
      await page.goto(policy.path);
      await hydrated(page);
      await expect(page).toHaveTitle(`${policy.title} | ${site.name}`);
      await expect(page.getByRole("heading", { level: 1, name: policy.title })).toBeVisible();

      const meta = policy.doc.meta;
      const updated = page.locator("time", { hasText: /\d{4}/ }).first();
      await expect(updated).toHaveAttribute("datetime", meta.updated!);
      await expect(page.getByText(/^Last updated/)).toBeVisible();

      const text = page.locator(".policy__text");
      const headings = text.getByRole("heading", { level: 2 });
      await expect(headings).toHaveText(policy.sections);

      // The table of contents lists the same sections, each a link to its heading.
      const toc = page.getByRole("navigation", { name: "Contents" });
      const tocLinks = toc.getByRole("link");
      await expect(tocLinks).toHaveText(policy.sections);
      for (const [i, name] of policy.sections.entries()) {
        const heading = headings.nth(i);
        const id = await heading.getAttribute("id");
        expect(id).toBeTruthy();
        await expect(tocLinks.nth(i)).toHaveAttribute("href", `#${id}`);
        // The heading links to itself, so a section can be shared.
        await expect(heading.getByRole("link", { name })).toHaveAttribute("href", `#${id}`);
      }
      const last = policy.sections.length - 1;
      await tocLinks.nth(last).click();
      await expect(page).toHaveURL(new RegExp(`#${await headings.nth(last).getAttribute("id")}$`));
      await expect(headings.nth(last)).toBeInViewport();

      // No template text left anywhere in the rendered policy.
      const rendered = await page.locator(".policy").innerText();
      for (const marker of ["[", "]", "{", "}", "XXX", "insert", "TBD", "TODO", "lorem", "your company", "example.com", "placeholder", "N/A", "___"]) {
        expect(rendered.toLowerCase(), `"${marker}" in ${policy.path}`).not.toContain(marker.toLowerCase());
      }
      await expectContactLinksMatchSite(page, { all: policy.doc.source.includes("{{contact.phoneLinks}}") });

      // A comfortable measure: the first line of the longest run of plain
      // text holds at most 80 characters.
      const firstLine = await text.evaluate((el) => {
        const texts = [...el.querySelectorAll("p")].map((p) => p.firstChild).filter((n): n is Text => n instanceof Text);
        const node = texts.reduce((a, b) => (b.length > a.length ? b : a));
        const range = document.createRange();
        const top = (i: number) => {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          return range.getBoundingClientRect().top;
        };
        let n = 1;
        while (n < node.length && top(n) === top(0)) n++;
        return { chars: n, wrapped: n < node.length };
      });
      expect(firstLine.wrapped).toBe(true);
      expect(firstLine.chars).toBeLessThanOrEqual(80);
    });
  }

  for (const policy of policies) {
    test(`${policy.title}: states every fact its text names, as content/ has it`, async ({ page }) => {
      await page.goto(policy.path);
      const text = page.locator(".policy__text");
      const facts = [...policy.doc.source.matchAll(/\{\{\s*(site|service)\.([\w.]+)\s*\}\}/g)].map(([, file, path]) => {
        const from = file === "site" ? site : { ...service, warranty: warranty(service.warranty.years) };
        return String(path!.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], from));
      });
      for (const fact of facts) await expect(text).toContainText(fact);
      await expect(text).not.toContainText("{{");
    });
  }

  test("print shows the policy text alone", async ({ page }) => {
    await page.goto("/returns");
    await hydrated(page);
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("banner")).toBeHidden();
    await expect(page.getByRole("contentinfo")).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Contents" })).toBeHidden();
    const returns = policies.find((p) => p.path === "/returns")!;
    await expect(page.getByRole("heading", { level: 1, name: returns.title })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: returns.sections.at(-1) })).toBeVisible();
  });
});
