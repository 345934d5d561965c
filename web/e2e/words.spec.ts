import type { Page } from "@playwright/test";
import { test, expect, axeViolations, unique } from "./fixtures";
import { sidewaysScroll, smallTargets } from "./targets";

// Every page of the workspace, read as the studio's owner reads it on her
// phone: no file name or path of the content, no git word, no server
// set-up (its environment variables, its shell commands). Run by the
// "editor-phone" project (375 px), whose server has the Content section
// and the releases. It only reads: the pages it opens and the one form it
// sends (refused, nothing saved) change nothing.
//
// The words, and how each is matched (where what the studio writes itself
// may hold the word in another sense, it is matched as a whole word):
// - "commit", "branch": whole words, any case ("commitment" is fine);
// - "main" is not scanned alone: the studio's own texts use it ("the main
//   menu"); "main branch" is caught by "branch";
// - "bin/studio", "content/", "web/public", ".json": anywhere, any case;
// - "Src": the whole word, as written (a field's label made of its key);
// - an environment variable: a word of capitals and underscores
//   (STUDIO_PASSWORD, SMTP_HOST, BUILDER_DIR);
// - a shell command of the server: "studio user".
// Each is looked for in the page's visible text (innerText), its title,
// and the title, aria-label and placeholder of every element.
const FORBIDDEN: { word: string; pattern: RegExp }[] = [
  { word: "commit", pattern: /\bcommit(s|ted)?\b/i },
  { word: "branch", pattern: /\bbranch(es)?\b/i },
  { word: "bin/studio", pattern: /bin\/studio/i },
  { word: "content/", pattern: /\bcontent\//i },
  { word: "web/public", pattern: /web\/public/i },
  { word: ".json", pattern: /\.json\b/i },
  { word: "Src", pattern: /\bSrc\b/ },
  { word: "an environment variable", pattern: /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/ },
  { word: "a shell command", pattern: /\bstudio user\b/i },
];

// The words of the page a person meets: what it shows, and what a screen
// reader or a hover says.
async function wordsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const said: string[] = [document.title, ...document.body.innerText.split("\n")];
    for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
      for (const attr of ["title", "aria-label", "placeholder"]) {
        const value = el.getAttribute(attr);
        if (value) said.push(`${attr}="${value}"`);
      }
    }
    return said.map((line) => line.trim()).filter(Boolean);
  });
}

// Each forbidden word the page holds, as "PATH: “line” (word)".
async function forbiddenWords(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  for (const line of await wordsOf(page)) {
    for (const { word, pattern } of FORBIDDEN) {
      if (pattern.test(line)) found.push(`${where}: “${line.slice(0, 200)}” (${word})`);
    }
  }
  return found;
}

// The workspace's own addresses that a page links to: pages, not files
// (exports, thumbnails) nor leaving a preview. An address is one page
// whatever its query (the inbox's filters, a page to come back to).
async function workspaceLinks(page: Page): Promise<string[]> {
  const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  const own = new URL(page.url()).origin;
  return hrefs
    .map((href) => new URL(href))
    .filter((url) => url.origin === own && /^\/studio(\/|$)/.test(url.pathname))
    .filter((url) => !/\.csv$|\/thumbnail$|\/preview\/leave$/.test(url.pathname))
    .map((url) => url.pathname);
}

// Every page of the workspace, signed in as the owner, each visited once
// (visit is called on it): those the workspace's links lead to, from its
// navigation and the Content section's index on, with an enquiry sent
// first so that its page is among them. Says which product's form it read.
async function everyPage(page: Page, openStudio: (page: Page) => Promise<void>, visit: (path: string) => Promise<void>) {
  // An enquiry, sent as the site's form sends one, so its page is read too.
  const sender = unique("Meera Iyer");
  const sent = await page.request.post("/api/enquiries", {
    data: { kind: "contact", name: sender, email: "meera@example.com", message: "Is the Marwar chair made in walnut?" },
    headers: { "X-Forwarded-For": `198.51.100.${Math.floor(Math.random() * 250) + 1}` },
  });
  expect(sent.status()).toBe(201);

  // Signed in as the owner: every page the workspace's links lead to, from
  // its navigation and the Content section's index on.
  await openStudio(page);
  const seen = new Set<string>();
  const queue = ["/studio", "/studio/content", "/studio/content/discard"];
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    await page.goto(path);
    // The first: a text's page shows its rendering, with its own heading, beside it.
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await visit(path);
    queue.push(...(await workspaceLinks(page)).filter((link) => !seen.has(link)));
  }
  // The pages the test must have reached, or it read too little.
  const enquiry = [...seen].find((path) => /^\/studio\/enquiries\/\d+$/.test(path));
  const product = [...seen].find((path) => /^\/studio\/content\/products\/\d+$/.test(path));
  for (const path of ["/studio/content", "/studio/content/products", "/studio/content/products/new", "/studio/content/home", "/studio/accounts", "/studio/account", "/studio/insights", "/studio/releases"]) {
    expect(seen, `the workspace's links lead to ${path}`).toContain(path);
  }
  expect(enquiry, "the enquiry sent is in the inbox").toBeDefined();
  expect(product, "a product's form is linked from the products").toBeDefined();
  expect(seen, "a product's form links to its delete confirmation").toContain(`${product}/delete`);

  return { seen, product: product! };
}

test("no workspace page says a file name, a git word or the server's set-up", async ({ page, browser, openStudio }) => {
  test.setTimeout(600_000);
  const found: string[] = [];

  // Signed out: the sign-in page and the forgotten password's, shown to anyone.
  const visitor = await browser.newContext();
  const signedOut = await visitor.newPage();
  for (const path of ["/studio", "/studio/forgot-password"]) {
    await signedOut.goto(path);
    await expect(signedOut.getByRole("heading", { level: 1 })).toBeVisible();
    found.push(...(await forbiddenWords(signedOut, `${path} (signed out)`)));
  }
  await visitor.close();

  const { seen, product } = await everyPage(page, openStudio, async (path) => {
    found.push(...(await forbiddenWords(page, path)));
  });

  // A form refused by its checks: the problems are said in her words too.
  await page.goto(product);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("heading", { level: 2, name: /^Nothing was saved/ })).toBeVisible();
  found.push(...(await forbiddenWords(page, `${product} (refused)`)));

  // Each finding once: a hint repeated in a list's every item is one.
  expect([...new Set(found)], `${seen.size} pages read`).toEqual([]);
});

// Every page of the workspace on a phone: each target a finger presses is
// 44 × 44 px at least, nothing scrolls sideways at 320 or 375 px, and axe
// finds nothing (once for each kind of page: a product's form stands for
// every product's).
test("every workspace page has targets of 44 px, fits a phone and is clean under axe", async ({ page, openStudio }) => {
  test.setTimeout(900_000);
  const kinds = new Set<string>();
  const found: string[] = [];
  await everyPage(page, openStudio, async (path) => {
    found.push(...(await smallTargets(page)).map((small) => `${path}: ${small}`));
    found.push(...(await sidewaysScroll(page)).map((wide) => `${path}: ${wide}`));
    const kind = path.replace(/\d+/g, "N");
    if (!kinds.has(kind)) {
      kinds.add(kind);
      found.push(...(await axeViolations(page)).map((v) => `${path}: axe ${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`));
    }
  });
  expect(found, `${kinds.size} kinds of page`).toEqual([]);
});
