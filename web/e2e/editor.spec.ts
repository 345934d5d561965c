import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { test, expect, expectNoAxeViolations, hydrated, unique } from "./fixtures";
import { catalogue, products, site, vocabulary } from "./content";
import { expectNoSidewaysScroll, expectTargetsOf44, sidewaysScroll } from "./targets";
import { DEFAULT_LIST_STATE, PAGE_SIZE, filterProducts, listPath } from "../app/lib/filters";

// The workspace's Content section, driven as the studio's owner would, on a
// phone: a server of its own with the builder (playwright.config.ts,
// "editor"), whose content.git the tests change. They run in order; each
// leaves nothing unpublished.
test.describe.configure({ mode: "serial" });

// A camera-sized photograph, made now: 4000 × 3000 with a camera's noise.
async function cameraPhoto(dir: string, name: string, hue: number): Promise<string> {
  const width = 4000;
  const height = 3000;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) {
    const noise = (Math.random() * 48) | 0;
    const x = (i / 3) % width;
    pixels[i] = (hue + x / 20 + noise) & 255;
    pixels[i + 1] = (hue / 2 + noise) & 255;
    pixels[i + 2] = (255 - hue + noise) & 255;
  }
  const file = join(dir, name);
  await sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toFile(file);
  return file;
}

async function openContent(page: Page, openStudio: (page: Page) => Promise<void>) {
  await openStudio(page);
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Content" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Content" })).toBeVisible();
}

// axe runs in the page: not where JavaScript is off.
async function openProduct(page: Page, name: string, { axe = true } = {}) {
  await page.goto("/studio/content/products");
  if (axe) await expectNoAxeViolations(page);
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(`: ${escape(name)}$`) })).toBeVisible();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// axe runs in the page: not where JavaScript is off.
async function discardChanges(page: Page, { axe = true } = {}) {
  await page.goto("/studio/content");
  if (await page.getByRole("link", { name: "Discard changes" }).count()) {
    await page.getByRole("link", { name: "Discard changes" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Discard the unpublished changes?" })).toBeVisible();
    if (axe) await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Discard changes" }).click();
    await expect(page.getByRole("status")).toContainText("discarded");
  }
}

async function anonymousHeading(browser: Browser, path: string): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(path);
  const heading = (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
  await context.close();
  return heading;
}

test("the owner renames a product, adds two phone photographs, previews it and publishes it", async ({ page, browser, openStudio }, info) => {
  test.setTimeout(360_000);
  const dir = info.outputPath("photos");
  mkdirSync(dir, { recursive: true });
  const [first, second] = await Promise.all([cameraPhoto(dir, "workshop-1.jpg", 60), cameraPhoto(dir, "workshop-2.jpg", 190)]);
  const product = products[products.length - 1]!;
  const newName = unique("Jharokha");
  const altFirst = `${newName} in the workshop, seen from the front`;
  const altSecond = `${newName} in the workshop, its joinery close up`;

  await openContent(page, openStudio);
  await openProduct(page, product.name);
  await expectNoAxeViolations(page);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(newName);
  await page.getByLabel("Add photographs").setInputFiles([first, second]);
  // On a phone's upload speed (8 Mbit/s), the upload shows its progress.
  const network = await page.context().newCDPSession(page);
  await network.send("Network.enable");
  await network.send("Network.emulateNetworkConditions", { offline: false, latency: 40, downloadThroughput: -1, uploadThroughput: 1_000_000 });
  await page.getByRole("button", { name: "Upload the photographs" }).click();
  // Each is sent on its own, the bar counting both.
  const progress = page.getByRole("progressbar", { name: /^Uploading photograph 1 of 2, “workshop-1\.jpg” \([\d.]+ MB in all\)…$/ });
  await expect(progress).toBeVisible();
  await expect.poll(() => progress.evaluate((bar: HTMLProgressElement) => bar.value)).toBeGreaterThan(0.1);
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeDisabled();
  await network.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(page.getByRole("status")).toContainText("2 photographs added");
  await expect(page.getByRole("progressbar")).toBeHidden();
  // The page that replaced the form starts where a screen reader hears its news.
  await expect(page.getByRole("status")).toBeFocused();
  const count = product.images.length + 2;
  const firstAdded = page.getByRole("group", { name: `Photograph ${count - 1}` });
  const secondAdded = page.getByRole("group", { name: `Photograph ${count}` });
  // Each shows its thumbnail (decorative: its alt text is the field beside it).
  await expect(firstAdded.locator("img")).toBeVisible();
  await expect.poll(() => firstAdded.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await firstAdded.getByRole("textbox", { name: "Alt text" }).fill(altFirst);
  await secondAdded.getByRole("textbox", { name: "Alt text" }).fill(altSecond);
  // The second goes before the first.
  await page.getByRole("button", { name: `Move earlier: Photograph ${count}` }).click();
  await expect(page.getByRole("group", { name: `Photograph ${count - 1}` }).getByRole("textbox", { name: "Alt text" })).toHaveValue(altSecond);
  await expect(page.getByRole("group", { name: `Photograph ${count}` }).getByRole("textbox", { name: "Alt text" })).toHaveValue(altFirst);
  // The name typed before the upload is still there: nothing was lost.
  await expect(page.getByRole("textbox", { name: "Name", exact: true })).toHaveValue(newName);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Saved to the unpublished changes");

  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Content" }).click();
  const unpublished = page.getByRole("region", { name: "Unpublished changes" });
  await expect(unpublished).toContainText(`Product ${product.id}: Name, 2 photographs added`);
  await expectNoAxeViolations(page);

  // Preview: the owner sees the draft at the real address at once (nothing is built: each page is
  // rendered from the draft when asked for); a visitor does not.
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Preview of unpublished changes")).toBeVisible();
  await page.goto(`/product/${product.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(newName);
  await expect(page.getByText("Preview of unpublished changes")).toBeVisible();
  // Client navigation reads the draft's route data too: away to the home page and back.
  await hydrated(page);
  await page.getByRole("link", { name: site.name }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/product/${product.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(newName);
  expect(await anonymousHeading(browser, `/product/${product.id}`)).toBe(product.name);

  // Publish, followed to live.
  await page.getByRole("link", { name: "Back to the workspace" }).click();
  await page.getByRole("button", { name: "Publish" }).click();
  // The page follows the publish by itself.
  await expect(page.getByRole("status").first()).toContainText(/Live|Stopped/, { timeout: 150_000 });
  await expect(page.getByRole("status").first()).toContainText("Live");
  expect(await anonymousHeading(browser, `/product/${product.id}`)).toBe(newName);
  const visitor = await browser.newPage();
  await visitor.goto(`/product/${product.id}`);
  // The photographs are live, in the order the owner gave them.
  await visitor.getByRole("button", { name: `Image ${count - 1} of ${count}` }).click();
  await expect(visitor.getByRole("img", { name: altSecond })).toBeVisible();
  await visitor.getByRole("button", { name: `Image ${count} of ${count}` }).click();
  await expect(visitor.getByRole("img", { name: altFirst })).toBeVisible();
  await visitor.close();
});

// The Home page's intention heading, changed and published, on a phone and
// on a laptop: Save says "Saving…" while it is sent, and after Publish the
// page follows the build to Live by itself (no tap, no reload), then leads
// to the site.
test("a publish is followed to Live with no tap, on a phone and a laptop", async ({ browser, openStudio }, info) => {
  test.setTimeout(600_000);
  for (const width of [375, 1280]) {
    const context = await browser.newContext({ baseURL: info.project.use.baseURL, viewport: { width, height: 800 } });
    const page = await context.newPage();
    await openContent(page, openStudio);
    await page.getByRole("link", { name: "Home page" }).click();
    const title = page.getByRole("group", { name: "Intention" }).getByRole("textbox", { name: "Title" });
    const heading = unique("Our intention");
    await title.fill(heading);
    // While the save is sent its button says so, disabled (watched as it
    // happens: a locator waits for the page's navigation to end).
    const save = page.getByRole("button", { name: "Save", exact: true });
    await save.evaluate((button: HTMLButtonElement) => {
      const said = () => console.log(`the Save button: ${button.textContent}, ${button.disabled ? "disabled" : "enabled"}`);
      new MutationObserver(said).observe(button, { attributes: true, childList: true, characterData: true, subtree: true });
    });
    const saying = page.waitForEvent("console", { predicate: (message) => message.text() === "the Save button: Saving…, disabled", timeout: 60_000 });
    await save.click();
    await saying;
    await expect(page.getByRole("status")).toContainText("Saved to the unpublished changes");

    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Content" }).click();
    await page.getByRole("button", { name: "Publish" }).click();
    const progress = page.getByRole("status");
    await expect(progress).toContainText(/Checking|Waiting for another publish to finish|Making the pictures|Making the pages|Checking the new version|Live/);
    // Not reloaded: what this document was given stays.
    await page.evaluate(() => ((window as unknown as { followed: boolean }).followed = true));
    await expect(progress).toContainText(/Live|Stopped/, { timeout: 300_000 });
    await expect(progress).toContainText("Live");
    expect(await page.evaluate(() => (window as unknown as { followed?: boolean }).followed)).toBe(true);
    await expectNoAxeViolations(page);
    await progress.getByRole("link", { name: "See it on the site" }).click();
    await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
    await context.close();
  }
});

// Without JavaScript the page refreshes itself until the publish is live.
test("without JavaScript, a publish's page refreshes itself to Live", async ({ browser, openStudio }, info) => {
  test.setTimeout(360_000);
  const context = await browser.newContext({ baseURL: info.project.use.baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await openContent(page, openStudio);
  await page.getByRole("link", { name: "Home page" }).click();
  const heading = unique("Our intention");
  await page.getByRole("group", { name: "Intention" }).getByRole("textbox", { name: "Title" }).fill(heading);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Saved to the unpublished changes");
  await page.goto("/studio/content");
  await page.getByRole("button", { name: "Publish" }).click();
  // Under way at first (a build takes seconds), then, with no tap, live.
  await expect(page.getByRole("status")).toContainText(/Waiting for another publish to finish|Checking|Making the pictures|Making the pages|Checking the new version/);
  await expect(page.getByRole("status")).toContainText(/Live|Stopped/, { timeout: 300_000 });
  await expect(page.getByRole("status")).toContainText("Live");
  await page.getByRole("link", { name: "See it on the site" }).click();
  await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
  await context.close();
});

test("bad input is refused beside its field, and nothing is saved", async ({ page, openStudio }, info) => {
  test.setTimeout(240_000);
  const dir = info.outputPath("bad");
  mkdirSync(dir, { recursive: true });
  const notAPhoto = join(dir, "invoice.jpg");
  writeFileSync(notAPhoto, "This is a text file whose name says JPEG.\n");
  const tooLarge = join(dir, "huge.jpg");
  writeFileSync(tooLarge, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(31 * 1024 * 1024)]));
  const narrow = join(dir, "narrow.jpg");
  await sharp({ create: { width: 800, height: 600, channels: 3, background: "#a0522d" } }).jpeg().toFile(narrow);
  const product = products[0]!;

  await openContent(page, openStudio);
  await openProduct(page, product.name);
  const name = page.getByRole("textbox", { name: "Name", exact: true });
  await name.fill("");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  // The page opens on the list of problems, each a link to its field.
  const problems = page.getByRole("region", { name: /^Nothing was saved/ });
  await expect(problems).toBeFocused();
  await expect(problems.getByRole("listitem")).toHaveCount(1);
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription(/is empty/);
  await expectNoAxeViolations(page);
  await problems.getByRole("link", { name: "Name", exact: true }).click();
  await expect(name).toBeFocused();

  await name.fill(product.name);
  await page.getByLabel("Add photographs").setInputFiles([notAPhoto, tooLarge, narrow]);
  await page.getByRole("button", { name: "Upload the photographs" }).click();
  // The script says beside each what became of it: too large (before
  // sending it), not a photograph (the server's words), sent.
  const chosen = page.getByRole("list", { name: "Photographs chosen" });
  await expect(chosen.getByRole("listitem").filter({ hasText: "huge.jpg" })).toContainText(/“huge\.jpg” is [\d.]+ MB: a photograph may be up to 30 MB/);
  await expect(chosen.getByRole("listitem").filter({ hasText: "invoice.jpg" })).toContainText("“invoice.jpg” is not a photograph");
  await expect(chosen.getByRole("listitem").filter({ hasText: "narrow.jpg" })).toContainText("Uploaded. “narrow.jpg” is 800 px wide");
  await expect(page.getByText("1 of 3 photographs uploaded. 2 were not sent: see why beside each.")).toBeVisible();
  await expectNoAxeViolations(page);
  // The form takes the one sent.
  await page.getByRole("button", { name: "Upload the photographs" }).click();
  await expect(page.getByRole("status")).toContainText("1 photograph added");
  await expect(page.getByRole("status")).toContainText("“narrow.jpg” is 800 px wide");
  const added = page.getByRole("group", { name: `Photograph ${product.images.length + 1}` });
  await expect(added).toBeVisible();

  // The narrow one has no alt text yet: Save says so beside it.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const alt = added.getByRole("textbox", { name: "Alt text" });
  await expect(alt).toHaveAttribute("aria-invalid", "true");
  await expect(alt).toHaveAccessibleDescription(/is empty|needs alt text/);
  await expectNoAxeViolations(page);

  // Markup is text: kept as typed, shown as typed.
  const markup = `<b>Bold</b> <script>alert("x")</script> ${unique("Chair")}`;
  await alt.fill("A brown test swatch");
  await name.fill(markup);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Saved to the unpublished changes");
  await expect(name).toHaveValue(markup);
  await page.goto("/studio/content/products");
  await expect(page.getByRole("link", { name: markup })).toBeVisible();
  await discardChanges(page);
  await page.goto("/studio/content/products");
  await expect(page.getByRole("link", { name: product.name, exact: true })).toBeVisible();
});

test("on a phone, every target of the Content pages is 44 px at least, and nothing scrolls sideways", async ({ page, openStudio }) => {
  await openContent(page, openStudio);
  for (const path of ["/studio/content", "/studio/content/products", `/studio/content/products/${products[1]!.id}`]) {
    await page.goto(path);
    await expectTargetsOf44(page);
    await expectNoSidewaysScroll(page);
  }
});

test("adding a product: its description is several lines, and a refusal names each field, a name over 80 characters among them", async ({ page, openStudio }) => {
  await openContent(page, openStudio);
  await page.getByRole("link", { name: "Add a product" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Add a product" })).toBeVisible();
  // Enter in the description starts a line: it sends nothing.
  const description = page.getByRole("textbox", { name: "Description" });
  await description.fill("Carved by hand.");
  await description.press("End");
  await description.press("Enter");
  await description.pressSequentially("In teak.");
  await expect(description).toHaveValue("Carved by hand.\nIn teak.");
  await expect(page.getByRole("heading", { level: 1, name: "Add a product" })).toBeVisible();
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Kikar ".repeat(14).trim());
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const problems = page.getByRole("region", { name: /^Nothing was saved/ });
  await expect(problems).toBeFocused();
  await expect(problems.getByRole("listitem").filter({ hasText: /^Name: / })).toHaveText("Name: is 83 characters long: it may have at most 80, so shorten it");
  await expect(problems.getByRole("listitem").filter({ hasText: /^Photographs: / })).toHaveText("Photographs: add at least one");
  // Each names its field: none starts with a bare colon.
  for (const item of await problems.getByRole("listitem").allTextContents()) expect(item).toMatch(/^[^:\s][^:]*: /);
  await expect(description).toHaveValue("Carved by hand.\nIn teak.");
  await problems.getByRole("link", { name: "Photographs" }).click();
  await expect(page).toHaveURL(/#f-products-0-images$/);
  await expectNoAxeViolations(page);
  await expectTargetsOf44(page);
  await expectNoSidewaysScroll(page);
  // Nothing was saved.
  await page.goto("/studio/content");
  await expect(page.getByRole("link", { name: "Discard changes" })).toHaveCount(0);
});

test("Move earlier sets the catalogue's order, and the keyboard stays on the piece's button", async ({ page, openStudio }) => {
  await openContent(page, openStudio);
  await page.goto("/studio/content/products");
  const names = page.getByRole("table").getByRole("link");
  const before = await names.allTextContents();
  const third = before[2]!;
  const earlier = page.getByRole("button", { name: `Move earlier: ${third}`, exact: true });
  await earlier.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText(new RegExp(`^“${escape(third)}” is now number 2 of ${before.length} in the catalogue\\.`));
  await expect(earlier).toBeFocused();
  await expect(names).toHaveText([before[0]!, third, before[1]!, ...before.slice(3)]);
  await expectNoAxeViolations(page);
  // Moved to the top, the piece's other button keeps the keyboard.
  await earlier.click();
  await expect(page.getByRole("button", { name: `Move later: ${third}`, exact: true })).toBeFocused();
  await expect(names.first()).toHaveText(third);
  await page.goto("/studio/content");
  const saves = page.getByRole("region", { name: "Unpublished changes" }).getByRole("listitem");
  await expect(saves.filter({ hasText: `moved earlier, to number 1 of ${before.length} (${third})` })).toHaveCount(1);
  await discardChanges(page);
});

test("each photograph is sent on its own: what cannot be sent is said first, and one that fails is tried again with one tap", async ({ page, openStudio }, info) => {
  test.setTimeout(240_000);
  const dir = info.outputPath("one-by-one");
  mkdirSync(dir, { recursive: true });
  const tooLarge = join(dir, "huge.jpg");
  writeFileSync(tooLarge, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(31 * 1024 * 1024)]));
  const empty = join(dir, "empty.jpg");
  writeFileSync(empty, "");
  const heic = join(dir, "IMG_0001.HEIC");
  writeFileSync(heic, Buffer.from("\0\0\0\x18ftypheic\0\0\0\0mif1heic", "latin1"));
  const [first, second] = await Promise.all(
    ["courtyard-1.jpg", "courtyard-2.jpg"].map(async (name, i) => {
      const file = join(dir, name);
      await sharp({ create: { width: 1600, height: 1200, channels: 3, background: i ? "#6b8e23" : "#b8860b" } }).jpeg().toFile(file);
      return file;
    }),
  );
  const product = products[1]!;
  // Each photograph sent is a request of its own; the connection of the
  // first is lost.
  const sent: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/studio/content/photos") sent.push(request.url());
  });
  let lose = true;
  await page.route("**/studio/content/photos", (route) => {
    if (!lose) return route.continue();
    lose = false;
    return route.abort("connectionreset");
  });

  await openContent(page, openStudio);
  await openProduct(page, product.name);
  await page.getByLabel("Add photographs").setInputFiles([tooLarge, empty, heic, first!, second!]);
  await page.getByRole("button", { name: "Upload the photographs" }).click();
  const chosen = page.getByRole("list", { name: "Photographs chosen" });
  const row = (name: string) => chosen.getByRole("listitem").filter({ hasText: name });
  await expect(row("huge.jpg")).toContainText(/“huge\.jpg” is 3\d\.\d MB: a photograph may be up to 30 MB/);
  await expect(row("empty.jpg")).toContainText("“empty.jpg” is empty (0 bytes)");
  await expect(row("IMG_0001.HEIC")).toContainText(
    "“IMG_0001.HEIC” is an iPhone HEIC photo: choose it again from Photos, which sends a JPEG, or set the camera to Most Compatible.",
  );
  await expect(row("courtyard-2.jpg")).toContainText("Uploaded");
  // The one lost says so, and its "Try again" is where the keyboard is.
  const again = page.getByRole("button", { name: "Try again: courtyard-1.jpg" });
  await expect(again).toBeFocused();
  await expect(again).toHaveAccessibleDescription(/^The connection stopped after [\d.]+ of [\d.]+ MB: try again\.$/);
  await expect(page.getByText(/^1 of 5 photographs uploaded\. 1 stopped: press its “Try again”\. 3 were not sent/)).toBeVisible();
  // Only the two photographs were sent: the three others were said before.
  expect(sent).toHaveLength(2);
  await expectNoAxeViolations(page);

  // One tap sends it again, and the form takes both.
  await again.click();
  await expect(page.getByRole("status")).toContainText("2 photographs added");
  expect(sent).toHaveLength(3);
  const count = product.images.length + 2;
  await expect(page.getByRole("group", { name: `Photograph ${count}` })).toBeVisible();
});

test("without JavaScript, the server says an empty or HEIC file is one", async ({ browser, openStudio }, info) => {
  const dir = info.outputPath("no-script");
  mkdirSync(dir, { recursive: true });
  const empty = join(dir, "empty.jpg");
  writeFileSync(empty, "");
  const heic = join(dir, "IMG_0001.HEIC");
  writeFileSync(heic, Buffer.from("\0\0\0\x18ftypheic\0\0\0\0mif1heic", "latin1"));
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await openContent(page, openStudio);
  await openProduct(page, products[0]!.name, { axe: false });
  await page.getByLabel("Add photographs").setInputFiles([empty, heic]);
  await page.getByRole("button", { name: "Upload the photographs" }).click();
  const photos = page.getByRole("group", { name: "Photographs" });
  await expect(photos).toHaveAccessibleDescription(/“empty\.jpg” is empty \(0 bytes\)/);
  await expect(photos).toHaveAccessibleDescription(/“IMG_0001\.HEIC” is an iPhone HEIC photo: choose it again from Photos, which sends a JPEG, or set the camera to Most Compatible\./);
  await context.close();
});

test("two people changing different fields of one product: the second save keeps both, and says so", async ({ browser, openStudio }) => {
  const product = products[2]!;
  const asha = await (await browser.newContext()).newPage();
  // Ravi's browser runs no script: the merge is the server's.
  const ravi = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await openContent(asha, openStudio);
  await openProduct(asha, product.name);
  await openContent(ravi, openStudio);
  await openProduct(ravi, product.name, { axe: false });
  const name = unique(product.name);
  const description = unique("Carved by hand from one piece of sheesham");
  await asha.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await asha.getByRole("button", { name: "Save", exact: true }).click();
  await expect(asha.getByRole("status")).toContainText("Saved");

  await ravi.getByRole("textbox", { name: "Description", exact: true }).fill(description);
  await ravi.getByRole("button", { name: "Save", exact: true }).click();
  await expect(ravi.getByRole("status")).toContainText(/Saved to the unpublished changes\. .+’s change to the name, saved meanwhile, is kept\./);
  await expect(ravi.getByRole("textbox", { name: "Name", exact: true })).toHaveValue(name);
  await expect(ravi.getByRole("textbox", { name: "Description", exact: true })).toHaveValue(description);
  await discardChanges(asha);
  await ravi.context().close();
  await asha.context().close();
});

test("two people changing the same field: the second sees both values, chooses one, and saves", async ({ browser, openStudio }) => {
  const product = products[2]!;
  const asha = await (await browser.newContext()).newPage();
  const ravi = await (await browser.newContext()).newPage();
  for (const page of [asha, ravi]) {
    await openContent(page, openStudio);
    await openProduct(page, product.name, { axe: false });
  }
  const ashas = unique("Kikar");
  const ravis = unique("Kikar lounger");
  const description = unique("A low chair for a long evening");
  await asha.getByRole("textbox", { name: "Name", exact: true }).fill(ashas);
  await asha.getByRole("button", { name: "Save", exact: true }).click();
  await expect(asha.getByRole("status")).toContainText("Saved");

  await ravi.getByRole("textbox", { name: "Name", exact: true }).fill(ravis);
  await ravi.getByRole("textbox", { name: "Description", exact: true }).fill(description);
  await ravi.getByRole("button", { name: "Save", exact: true }).click();
  await expect(ravi.getByRole("alert")).toContainText(`changed the name of ${product.name} (product ${product.id}) too`);
  const choice = ravi.getByRole("region", { name: "Choose which to keep" }).getByRole("group", { name: "Name" });
  await expect(choice.getByRole("radio", { name: /^Yours/ })).toHaveAccessibleName(new RegExp(escape(ravis)));
  const theirs = choice.getByRole("radio", { name: /^Saved meanwhile by .+, at \d\d:\d\d/ });
  await expect(theirs).toHaveAccessibleName(new RegExp(escape(ashas)));
  // What Ravi typed is kept in the form, his other change with it.
  await expect(ravi.getByRole("textbox", { name: "Name", exact: true })).toHaveValue(ravis);
  await expect(ravi.getByRole("textbox", { name: "Description", exact: true })).toHaveValue(description);
  await expectNoAxeViolations(ravi);

  await theirs.check();
  await ravi.getByRole("button", { name: "Save", exact: true }).click();
  await expect(ravi.getByRole("status")).toContainText("Saved");
  await expect(ravi.getByRole("textbox", { name: "Name", exact: true })).toHaveValue(ashas);
  await expect(ravi.getByRole("textbox", { name: "Description", exact: true })).toHaveValue(description);
  await discardChanges(ravi);
  await asha.context().close();
  await ravi.context().close();
});

test("the forms work with JavaScript off, and by keyboard alone", async ({ browser, openStudio }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await openContent(page, openStudio);
  await page.getByRole("link", { name: "Studio details" }).click();
  const phone = page.getByRole("group", { name: "Phone 1" });
  const label = unique("Studio desk");
  await phone.getByRole("textbox", { name: "Label" }).fill(label);
  // Enter in a field saves (the form's first button is Save), not a list button.
  await phone.getByRole("textbox", { name: "Label" }).press("Enter");
  await expect(page.getByRole("status")).toContainText("Saved to the unpublished changes");
  await expect(page.getByRole("group", { name: "Phone 1" }).getByRole("textbox", { name: "Label" })).toHaveValue(label);

  // From the last phone field, Tab reaches its buttons, each with a focus ring.
  await page.getByRole("group", { name: "Phone 1" }).getByRole("textbox", { name: "Number for links" }).focus();
  await page.keyboard.press("Tab");
  const focused = page.locator(":focus");
  await expect(focused).toHaveAccessibleName(/^(Move later|Remove): Phone 1$/);
  expect(await focused.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("solid");
  await discardChanges(page, { axe: false });
  await context.close();
});

test("a policy's text is previewed beside it, and the Filter menu's groups are renamed, then discarded", async ({ page, openStudio }) => {
  await openContent(page, openStudio);
  await page.getByRole("link", { name: "FAQ" }).click();
  const text = page.getByRole("textbox", { name: "Text (Markdown)" });
  const question = unique("Do you make lamps to order?");
  await text.fill(`${await text.inputValue()}\n## ${question}\n\nYes, in brass and cane: write to {{site.email}}.\n`);
  await page.getByRole("button", { name: "Show the preview" }).click();
  // Rendered by the site's own renderer: the fact filled in, as the site shows it.
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.getByRole("heading", { name: question })).toBeVisible();
  await expect(preview.getByText(/in brass and cane: write to/).getByRole("link", { name: site.email, exact: true })).toHaveAttribute("href", `mailto:${site.email}`);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Saved to the unpublished changes");

  await page.goto("/studio/content/vocabulary");
  const materials = page.getByRole("group", { name: "Material", exact: true });
  const first = materials.getByRole("group").first();
  const renamed = unique("Woods");
  await first.getByRole("textbox", { name: "Name" }).fill(renamed);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Saved to the unpublished changes");
  await expect(page.getByRole("group", { name: renamed })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.goto("/studio/content");
  await expect(page.getByRole("region", { name: "Unpublished changes" })).toContainText("FAQ: text");
  await expect(page.getByRole("region", { name: "Unpublished changes" })).toContainText("Categories, materials and finishes: ");
  await discardChanges(page);
});

// Two changes published together, read from the content rather than named:
// a piece deleted (one the tests above leave alone, not the home page's
// Fresh from the studio piece, whose category has another piece to show),
// and the Fresh piece renamed with one word longer than a phone is wide.
const freshPiece = products.find((p) => p.id === catalogue.featured.fresh)!;
const untouched = (p: (typeof products)[number]) => ![products[0], products[1], products.at(-1), freshPiece].includes(p);
const deleted = products.find((p) => untouched(p) && products.some((o) => o !== p && o.category === p.category))!;
const similarFirst = products.find((o) => o !== deleted && o.category === deleted.category)!;
const deletedTab = vocabulary.tabs.find((t) => t.categories.includes(deleted.category))!.name;
const longWord = "Jharokha".repeat(10); // 80 letters, no space

test("a deleted piece's address says it is no longer in the catalogue, with 410, and leads to its category and similar pieces", async ({ page, browser, openStudio, request }) => {
  test.setTimeout(480_000);
  await openContent(page, openStudio);
  await page.goto(`/studio/content/products/${deleted.id}/delete`);
  await expect(page.getByRole("heading", { level: 1, name: `Delete “${deleted.name}”?` })).toBeVisible();
  await page.getByRole("button", { name: "Delete the product" }).click();
  await expect(page).toHaveURL(/\/studio\/content\/products\?deleted=/);
  await page.goto(`/studio/content/products/${freshPiece.id}`);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(longWord);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Saved to the unpublished changes");
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Content" }).click();
  await page.getByRole("button", { name: "Publish" }).click();
  // Live once its address answers 410 (the site before it had the piece).
  const address = `/product/${deleted.id}`;
  await expect.poll(async () => (await request.get(address, { maxRedirects: 0 })).status(), { timeout: 300_000, intervals: [2000] }).toBe(410);

  const visitor = await (await browser.newContext({ viewport: { width: 375, height: 740 } })).newPage();
  for (const path of [address, `${address}/quote`]) {
    const response = await visitor.goto(path);
    expect(response?.status(), path).toBe(410);
    await expect(visitor.getByRole("heading", { level: 1, name: "This piece is no longer in the catalogue" })).toBeVisible();
    await expect(visitor.getByText(`${deleted.name}, of the studio’s ${deleted.category}, has been taken out of the catalogue`)).toBeVisible();
    await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  }
  await hydrated(visitor);
  await expectNoAxeViolations(visitor);
  const similar = visitor.getByRole("region", { name: "Similar Products" });
  await expect(similar.getByRole("link").first()).toHaveAttribute("href", `/product/${similarFirst.id}`);
  await visitor.getByRole("link", { name: `See all ${deletedTab}` }).click();
  await expect(visitor).toHaveURL(new RegExp(`${listPath({ ...DEFAULT_LIST_STATE, category: deletedTab })}$`));
  await visitor.context().close();

  // Without JavaScript, the same notice and links.
  const plain = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  expect((await plain.goto(address))?.status()).toBe(410);
  await expect(plain.getByRole("heading", { level: 1, name: "This piece is no longer in the catalogue" })).toBeVisible();
  await expect(plain.getByRole("link", { name: `See all ${deletedTab}` })).toHaveAttribute("href", listPath({ ...DEFAULT_LIST_STATE, category: deletedTab }));
  await expect(plain.getByRole("link", { name: "See all products" })).toHaveAttribute("href", "/products");
  await plain.context().close();
  // Not a page for search engines to list.
  expect(await (await request.get("/sitemap.xml")).text()).not.toContain(`${address}<`);
});

test("a name of one word longer than a phone is wide wraps: no page scrolls sideways at 375 px", async ({ browser, page: studio, openStudio }) => {
  // Published by the test above: the Fresh piece is on the home page, its
  // own page, and its tab's list (on the page of that list it falls on).
  const tab = vocabulary.tabs.find((t) => t.categories.includes(freshPiece.category))!.name;
  const listed = filterProducts(
    products.filter((p) => p !== deleted),
    { ...DEFAULT_LIST_STATE, category: tab },
    vocabulary,
  );
  const list = listPath({ ...DEFAULT_LIST_STATE, category: tab, page: Math.floor(listed.indexOf(freshPiece) / PAGE_SIZE) + 1 });
  const page = await (await browser.newContext({ viewport: { width: 375, height: 740 } })).newPage();
  for (const path of [`/product/${freshPiece.id}`, list, "/"]) {
    await page.goto(path);
    await hydrated(page);
    const name = page.getByText(longWord).first();
    await expect(name, path).toBeVisible();
    expect((await name.boundingBox())!.width, path).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
  }
  await page.context().close();
  // Nor the workspace's pages that name it: the versions (what changed), the products, its form.
  await openStudio(studio);
  for (const path of ["/studio/releases", "/studio/content/products", `/studio/content/products/${freshPiece.id}`]) {
    await studio.goto(path);
    await expect(studio.getByText(longWord).first(), path).toBeVisible();
    expect(await sidewaysScroll(studio), path).toEqual([]);
  }
});

test("the owner chooses a new hero picture with the uploader, saves it and sees it in the form", async ({ page, openStudio }, info) => {
  test.setTimeout(240_000);
  const dir = info.outputPath("hero");
  mkdirSync(dir, { recursive: true });
  const terrace = join(dir, "terrace.jpg");
  await sharp({ create: { width: 2400, height: 1200, channels: 3, background: "#c8734b" } }).jpeg().toFile(terrace);
  const svg = join(dir, "logo.svg");
  writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  const sent: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/studio/content/photos") sent.push(request.url());
  });

  await openContent(page, openStudio);
  await page.getByRole("link", { name: "Home page", exact: true }).click();
  const hero = page.getByRole("group", { name: "Picture", exact: true });
  const shown = hero.locator("img");
  const before = await shown.getAttribute("src");
  const choose = hero.getByLabel("Choose a new picture");
  await expect(choose).toHaveAccessibleDescription(/shown across the top of the home page/);

  // An SVG is refused before a byte of it is sent.
  await choose.setInputFiles(svg);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(hero.getByRole("list", { name: "Picture chosen" })).toContainText("“logo.svg” is an SVG drawing, which cannot be uploaded");
  expect(sent).toHaveLength(0);

  // A photograph is sent with its progress, then the form is saved with it.
  await choose.setInputFiles(terrace);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Saved to the unpublished changes");
  expect(sent).toHaveLength(1);
  await expect(shown).toHaveAttribute("src", /^\/studio\/content\/thumbnail\?src=pages\/home-hero-[0-9a-f]{6}\.jpg$/);
  expect(await shown.getAttribute("src")).not.toBe(before);
  // The thumbnail the workspace made of it, 240 px wide.
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
  await expectNoAxeViolations(page);

  // A drawing lists the site's drawings, each a radio button named by what it shows.
  const drawing = page.getByRole("group", { name: "Drawing", exact: true }).first();
  await drawing.getByText("Choose another drawing").click();
  await expect(drawing.getByRole("radio", { name: "A drafting table seen from above" })).toBeVisible();
  await expect(drawing.getByRole("radio", { checked: true })).toHaveCount(1);
  await expect(drawing.getByLabel("Or use a picture of your own")).toBeVisible();
  await expectNoAxeViolations(page);
  await discardChanges(page);
});

test("the owner goes back to an earlier version of the site, told first what it undoes, and it is live now", async ({ page, browser, openStudio }) => {
  test.setTimeout(360_000);
  const fresh = unique("Made slowly, by hand");
  const visitor = await browser.newPage();
  const footer = visitor.getByRole("contentinfo").getByText(fresh);

  // A new tagline, published and followed to live.
  await openContent(page, openStudio);
  await page.getByRole("link", { name: "Studio details" }).click();
  await page.getByRole("textbox", { name: "Tagline", exact: true }).fill(fresh);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Saved to the unpublished changes");
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Content" }).click();
  await page.getByRole("button", { name: "Publish" }).click();
  // The page follows the publish by itself: no tap.
  await expect(page.getByRole("status").first()).toContainText(/Live|Stopped/, { timeout: 300_000 });
  await expect(page.getByRole("status").first()).toContainText("Live");
  await visitor.goto("/");
  await expect(footer).toBeVisible();

  // The versions: the newest is live now and says what it changed.
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Versions of the site" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Versions of the site" })).toBeVisible();
  const newest = page.getByRole("article").first();
  await expect(newest.getByText("Live now", { exact: true })).toBeVisible();
  await expect(newest.getByRole("list", { name: "What changed" })).toContainText("Studio details: tagline");
  await expectNoAxeViolations(page);

  // Go back to the one before it: asked first, with what that undoes.
  const earlier = page.getByRole("article").nth(1);
  const name = (await earlier.getByRole("heading", { level: 2 }).textContent()) ?? "";
  const goBack = name === "The site as it was installed" ? "Go back to the site as it was installed" : `Go back to the version of ${name}`;
  await earlier.getByRole("button", { name: /^Go back to this version: / }).click();
  await expect(page.getByRole("heading", { level: 1, name: `${goBack}?` })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "What will be undone" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("Studio details: tagline");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: goBack, exact: true }).click();
  await expect(page.getByRole("status")).toContainText("is live now");
  await expect(page.getByRole("article").nth(1).getByText("Live now", { exact: true })).toBeVisible();
  await expect(page.getByRole("article").first().getByText("Live now", { exact: true })).toHaveCount(0);
  await visitor.reload();
  await expect(footer).toHaveCount(0);
  await visitor.close();
});
