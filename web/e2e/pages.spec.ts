import type { Page } from "@playwright/test";
import { test, expect, hydrated, recordAnalytics, trackedEvents } from "./fixtures";
import { pages, policyMeta, service, site } from "./content";
import { warranty } from "../app/lib/facts";

// The studio pages (About, Bespoke, Contact) and the three policies: their
// headings, the facts they state, and that every fact matches content/.

const { inStockDays, customDays, attempts } = service.delivery;

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
  test("tells the story, shows the team and three projects, and links to Contact", async ({ page }) => {
    await page.goto("/about");
    await hydrated(page);
    await expect(page).toHaveTitle(`About us | ${site.name}`);
    await expect(page.getByRole("heading", { level: 1, name: "About us" })).toBeVisible();
    const main = page.getByRole("main");
    await expect(main).toContainText(site.region);
    await expect(main).toContainText(site.city);
    await expect(main).toContainText("furniture, interiors and lighting as one language");

    const team = page.getByRole("region", { name: "The team" });
    for (const person of pages.about.founders) {
      await expect(team.getByRole("heading", { level: 3, name: person.name })).toBeVisible();
      await expect(team).toContainText(person.role);
      const img = team.getByRole("img", { name: person.alt });
      await expect(img).toHaveAttribute("width", "600");
      await expect(img).toHaveAttribute("height", "600");
    }
    expect(pages.about.founders.map((p) => p.role)).toEqual([
      "Co-founder, product designer",
      "Co-founder, interior and lighting designer",
    ]);
    await expect(team.getByRole("heading", { level: 3, name: "Skilled craftsmen" })).toBeVisible();
    await expect(team.getByRole("img", { name: pages.about.craftsmen.alt })).toHaveAttribute("width", "600");

    const glimpses = page.getByRole("region", { name: "Glimpses" });
    await expect(glimpses.getByRole("listitem")).toHaveCount(3);
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
  test("shows the hero, three pillars, three disciplines and a Let's begin button", async ({ page }) => {
    await page.goto("/bespoke");
    await hydrated(page);
    await expect(page).toHaveTitle(`Bespoke Solution | ${site.name}`);
    await expect(page.getByRole("heading", { level: 1, name: "Bespoke Solution" })).toBeVisible();
    const hero = page.locator(".bespoke-hero img");
    await expect(hero).toHaveAttribute("src", "/images/bespoke.svg");
    await expect(hero).toHaveAttribute("width", "1600");
    await expect(hero).toHaveAttribute("height", "700");
    await expect(hero).not.toHaveAttribute("loading", "lazy");

    const pillars = page.getByRole("region", { name: "How we work" });
    for (const name of ["No Blueprint", "Craft Over Compromise", "Design That Breathes You"]) {
      await expect(pillars.getByRole("heading", { level: 3, name })).toBeVisible();
    }
    const disciplines = page.getByRole("region", { name: "What we make" });
    for (const name of ["Interior", "Furniture", "Lighting"]) {
      await expect(disciplines.getByRole("heading", { level: 3, name })).toBeVisible();
    }
    for (const img of await disciplines.getByRole("img").all()) {
      await expect(img).toHaveAttribute("width", "1200");
      await expect(img).toHaveAttribute("height", "800");
    }
    await expect(page.getByRole("main")).toContainText(`${customDays} days`);
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
      await expect(details.getByRole("link", { name: p.display })).toHaveAttribute("href", `tel:${p.tel}`);
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
    await details.getByRole("link", { name: site.phones[0]!.display }).click();
    await details.getByRole("link", { name: site.email }).click();
    expect((await trackedEvents(page, "contact_attempt")).map((e) => e.params.method)).toEqual(["phone", "email"]);
  });

  test("the FAQ answers four questions, one open at a time", async ({ page }) => {
    await page.goto("/contact-us");
    await hydrated(page);
    const faq = page.getByRole("region", { name: "Frequently asked questions" });
    const questions = faq.locator("summary");
    await expect(questions).toHaveText([
      "Can I customise a product?",
      "How do I place an order?",
      "Do you deliver across India?",
      "What if my order arrives damaged?",
    ]);
    const items = faq.locator("details");
    const openStates = () => items.evaluateAll((ds) => ds.map((d) => (d as HTMLDetailsElement).open));
    expect(await openStates()).toEqual([false, false, false, false]);

    await questions.nth(2).click();
    expect(await openStates()).toEqual([false, false, true, false]);
    await expect(items.nth(2)).toContainText(`${inStockDays} days for in-stock items`);
    await expect(items.nth(2)).toContainText(`${customDays} days for custom pieces`);

    // Opening another closes the first.
    await questions.nth(3).click();
    expect(await openStates()).toEqual([false, false, false, true]);
    await expect(items.nth(3)).toContainText("repaired or replaced at no cost");

    // A click on the open one closes it.
    await questions.nth(3).click();
    expect(await openStates()).toEqual([false, false, false, false]);

    // By keyboard too.
    await questions.nth(1).focus();
    await page.keyboard.press("Enter");
    expect(await openStates()).toEqual([false, true, false, false]);
    await expect(items.nth(1)).toContainText("form on this page");
    await expect(items.nth(1).getByRole("link", { name: site.email })).toHaveAttribute("href", `mailto:${site.email}`);

    await questions.nth(0).click();
    await expect(items.nth(0)).toContainText("made in another size, material or finish");
  });
});

// The three policies: their numbered sections, in order.
const policies = [
  {
    path: "/shipping-policy",
    file: "shipping",
    title: "Shipping Policy",
    sections: [
      "1. Introduction",
      "2. Order confirmation and processing",
      "3. Shipping timeline",
      "4. Delivery partners and attempts",
      "5. Serviceability",
      "6. Multiple product orders",
      "7. Shipping costs and refunds",
      "8. Order tracking",
      "9. Invoice and taxation",
      "10. Contact",
    ],
  },
  {
    path: "/terms-conditions",
    file: "terms",
    title: "Terms and Conditions",
    sections: [
      "1. General",
      "2. Definitions",
      "3. Registration of Your Account",
      "4. Communication and Unsubscription",
      "5. Disclaimer of Warranties",
      "6. Availability and Accessibility",
      "7. Third Party Links",
      "8. Trademark and Copyright",
      "9. User Warranties and Restrictions",
    ],
  },
  {
    path: "/returns",
    file: "returns",
    title: "Returns and Refund",
    sections: [
      "10.1 Orders once placed",
      "10.2 Damage on delivery and later defects",
      "10.3 Warranty",
      "10.4 How a claim is resolved",
      "10.5 Modifying products",
      "10.6 When a piece is out of stock",
    ],
  },
];

test.describe("policies", () => {
  for (const policy of policies) {
    test(`${policy.title}: numbered sections with anchors, contents, last updated, no placeholders`, async ({ page }) => {
      await page.goto(policy.path);
      await hydrated(page);
      await expect(page).toHaveTitle(`${policy.title} | ${site.name}`);
      await expect(page.getByRole("heading", { level: 1, name: policy.title })).toBeVisible();

      const meta = policyMeta(policy.file);
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
      await expectContactLinksMatchSite(page, { all: policy.file !== "terms" });

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

  test("the shipping policy states every delivery fact", async ({ page }) => {
    await page.goto("/shipping-policy");
    const text = page.locator(".policy__text");
    for (const fact of [
      `within ${inStockDays} days`,
      `take ${customDays} days to dispatch`,
      "Sundays and public holidays are not counted",
      `up to ${attempts} attempts`,
      "the package returns to our warehouse",
      "serviceable pin codes only",
      "pin code",
      "depend on where the order is delivered",
      "Shipping charges are not refundable",
      "several national courier partners",
      "order confirmation, then dispatch with a shipping confirmation and tracking",
      "GST invoice",
    ]) {
      await expect(text).toContainText(fact);
    }
    await expect(text).toContainText(site.address.street);
  });

  test("the terms list the conduct and content rules, false information, indemnity and the age rule", async ({ page }) => {
    await page.goto("/terms-conditions");
    const text = page.locator(".policy__text");
    for (const n of ["9.1", "9.2", "9.3", "9.4", "9.5", "9.6", "9.7"]) {
      await expect(text.getByRole("heading", { level: 3, name: new RegExp(`^${n.replace(".", "\\.")} `) })).toBeVisible();
    }
    for (let i = 1; i <= 9; i++) await expect(text.getByText(`9.3.${i}`, { exact: true })).toBeVisible();
    for (let i = 1; i <= 8; i++) await expect(text.getByText(`9.4.${i}`, { exact: true })).toBeVisible();
    await expect(text.getByText("9.3.10", { exact: true })).toHaveCount(0);
    await expect(text.getByText("9.4.9", { exact: true })).toHaveCount(0);
    for (const fact of [
      "bots, scrapers",
      "malware",
      "impersonates another person",
      "harms minors",
      "reject your registration, cancel your orders and bar you",
      "indemnify the studio",
      `${service.minimumAge} years or older`,
      "supervision of a parent or guardian",
      "as a guest",
    ]) {
      await expect(text).toContainText(fact);
    }
  });

  test("the returns policy states the decision time, warranty and refund rules", async ({ page }) => {
    await page.goto("/returns");
    const text = page.locator(".policy__text");
    for (const fact of [
      "cannot be exchanged or cancelled",
      "delivery and installation team",
      `within ${service.returns.decisionWorkingDays} working days`,
      "clear photographs",
      "written description",
      "order number",
      `lasts ${warranty(service.warranty.years).words} from the date of delivery`,
      "polyurethane, PVC, leather or fabric, or upholstery",
      "negligence or mishandling",
      "at our discretion",
      "borne by the buyer",
      "discourage modifying",
      "alternate product of similar value",
      "credit note",
      `full refund within ${service.returns.refundWorkingDays} working days`,
      "confirmed them to you in writing",
      "bank account",
    ]) {
      await expect(text).toContainText(fact);
    }
  });

  test("print shows the policy text alone", async ({ page }) => {
    await page.goto("/returns");
    await hydrated(page);
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("banner")).toBeHidden();
    await expect(page.getByRole("contentinfo")).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Contents" })).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Returns and Refund" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "10.6 When a piece is out of stock" })).toBeVisible();
  });
});
