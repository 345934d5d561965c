import type { Browser, Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test, expect, expectNoAxeViolations, signInToStudio, unique } from "./fixtures";

// The studio's workspace as two people use it: each with an account,
// working one enquiry from New to Won with a note, undo and not-spam, and
// a copied cookie refused once its owner signs out.

const STUDIO = join(import.meta.dirname, "../../bin/studio");

// Adds an account the way docs/workspace.md says: `studio user add EMAIL`, the
// password on standard input, beside the running server.
function addAccount(email: string, password: string) {
  execFileSync(STUDIO, ["user", "add", email], {
    input: password + "\n",
    env: { ...process.env, DATA_DIR: join(process.env.E2E_DATA_DIR!, process.env.E2E_PORT!) },
    stdio: ["pipe", "ignore", "pipe"],
  });
}

// Sends an enquiry the way the site's form does; fast is a robot's pace:
// sent at once after the server's signed start time.
async function sendEnquiry(page: Page, name: string, { fast = false, phone = "+91 98290 41752" } = {}) {
  const started = fast ? (await (await page.request.post("/api/form-start")).json()).started : undefined;
  const res = await page.request.post("/api/enquiries", {
    data: { kind: "contact", name, email: "meera@example.com", phone, message: `Is the Marwar chair made in walnut?\n${name}`, started },
    headers: { "X-Forwarded-For": `198.51.100.${Math.floor(Math.random() * 250) + 1}` },
  });
  expect(res.status()).toBe(201);
}

async function openEnquiry(page: Page, name: string, status = "Open") {
  await page.goto("/studio");
  await page.getByRole("searchbox", { name: "Search" }).fill(name);
  await page.getByLabel("Status").selectOption({ label: status });
  await page.getByRole("button", { name: "Show" }).click();
  await page.getByRole("article").getByRole("link", { name: new RegExp(name) }).click();
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(name) })).toBeVisible();
}

async function newSignedInPage(browser: Browser, email?: string, password?: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInToStudio(page, email, password);
  return page;
}

test("two people work an enquiry from New to Won, with a note and an undo", async ({ page, browser, openStudio }) => {
  // A whole morning's work in one test: a sign-in (a deliberate password
  // hash), a dozen pages and axe twice; on a loaded two-core machine it has
  // taken more than the default 30 s.
  test.slow();
  const ravi = `ravi.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@studio.example`;
  addAccount(ravi, "ravi's long e2e password");
  const name = unique("Meera");
  await sendEnquiry(page, name);

  await openStudio(page);
  await expect(page.getByText(/\d+ new/)).toBeVisible();
  await openEnquiry(page, name);
  await expect(page.getByText("New", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Reply from your mail program" })).toHaveAttribute("href", new RegExp(`^mailto:meera@example.com\\?subject=Re%3A%20.+%3A%20we%20have%20your%20message%20%28%23\\d+%29&`));
  await expect(page.getByRole("link", { name: /WhatsApp/ })).toHaveAttribute("href", "https://wa.me/919829041752");
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Mark replied" }).click();
  await page.getByRole("button", { name: "Mark quoted" }).click();
  await expect(page.getByText("Last change: studio moved it from Replied to Quoted")).toBeVisible();

  // Ravi, signed in on another machine, adds a note.
  const other = await newSignedInPage(browser, ravi, "ravi's long e2e password");
  await openEnquiry(other, name);
  await other.getByRole("textbox", { name: "New note" }).fill("Called her: two chairs in walnut.");
  await other.getByRole("button", { name: "Add note" }).click();
  await expect(other.getByRole("listitem").filter({ hasText: "Called her: two chairs in walnut." })).toContainText(ravi);

  await page.reload();
  await page.getByRole("button", { name: "Mark won" }).click();
  await expect(page.getByText("Won", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("Quoted", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Mark won" }).click();

  const history = page.getByRole("list").filter({ hasText: "received from the website" });
  for (const line of [
    "studio moved it from New to Replied",
    "studio moved it from Replied to Quoted",
    `${ravi} added a note`,
    "studio undid the change to Won, back to Quoted",
    "studio moved it from Quoted to Won",
  ]) {
    await expect(history).toContainText(line);
  }
  // Won is not open: the default list no longer shows it; "Won" does.
  await page.getByRole("link", { name: "Back to the list" }).click();
  await expect(page.getByRole("article").filter({ hasText: name })).toHaveCount(0);
  await page.getByLabel("Status").selectOption({ label: "Won" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByRole("article").filter({ hasText: name })).toBeVisible();
  await expectNoAxeViolations(page);
  await other.context().close();
});

test("a real customer flagged as spam is moved out with Not spam", async ({ page, openStudio }) => {
  const name = unique("Autofill");
  await sendEnquiry(page, name, { fast: true });
  await openStudio(page);
  await page.getByRole("searchbox", { name: "Search" }).fill(name);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByText("No enquiries match.")).toBeVisible();

  await openEnquiry(page, name, "Spam");
  await page.getByRole("button", { name: "Not spam" }).click();
  await expect(page.getByRole("button", { name: "Mark as spam" })).toBeVisible();
  await openEnquiry(page, name); // in the open list now
});

// A session of its own, not the worker's (openStudio), which it ends.
test("signing out ends the session: a copy of the cookie opens nothing", async ({ page, browser }) => {
  await signInToStudio(page);
  const copied = await page.context().cookies();
  expect(copied.find((c) => c.name === "studio")).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();

  const thief = await browser.newContext();
  await thief.addCookies(copied);
  const stolen = await thief.newPage();
  await stolen.goto("/studio");
  await expect(stolen.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  expect((await stolen.request.get("/studio/enquiries.csv")).status()).toBe(401);
  await thief.close();
});

// An account of its own (addAccount), so that signing out its other
// browsers ends no other test's session. The other browser runs without
// JavaScript, as a Firefox on Windows, so Your account tells the two apart.
test("signing out everywhere else asks first, keeps this browser, and the other's note survives its sign-in @both", async ({ page, browser, baseURL }) => {
  test.slow(); // three sign-ins (deliberate password hashes) and axe twice
  const email = `sessions.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@studio.example`;
  const password = "a long e2e password for the sessions";
  addAccount(email, password);
  const name = unique("Kavya");
  await sendEnquiry(page, name);
  await signInToStudio(page, email, password);
  const otherContext = await browser.newContext({
    baseURL,
    javaScriptEnabled: false,
    viewport: page.viewportSize(),
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  });
  const other = await otherContext.newPage();
  await signInToStudio(other, email, password);
  await openEnquiry(other, name);
  const note = `Call her back after Diwali: two jali screens. ${name}`;
  await other.getByRole("textbox", { name: "New note" }).fill(note);

  await expect(page.getByRole("button", { name: /everywhere/ })).toHaveCount(0); // not in the header
  await page.getByRole("link", { name: "Your account" }).click();
  const firefox = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Firefox on Windows" }) });
  await expect(firefox.getByRole("button", { name: /^Sign out this one/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: /This browser/ })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Sign out everywhere else…" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign out everywhere else?" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page.getByRole("status")).toHaveText("Every other browser is signed out. This one stays signed in.");
  await expect(page.getByRole("heading", { name: "Firefox on Windows" })).toHaveCount(0);

  await other.getByRole("button", { name: "Add note" }).click();
  await expect(other.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await expect(other.getByText("You were signed out from another browser.")).toBeVisible();
  await other.getByRole("textbox", { name: "E-mail" }).fill(email);
  await other.getByLabel("Password").fill(password);
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other.getByRole("heading", { level: 1, name: "Send what you were sending" })).toBeVisible();
  await other.getByRole("button", { name: "Send it now" }).click();
  await expect(other.getByRole("heading", { level: 1, name: new RegExp(name) })).toBeVisible();
  await expect(other.getByText(note)).toBeVisible();
  await otherContext.close();
});

test("the sign-in page says what is wrong, and works by keyboard", async ({ page }) => {
  await page.goto("/studio");
  await expectNoAxeViolations(page);
  await page.keyboard.type("studio"); // the e-mail field has focus
  await page.keyboard.press("Tab");
  await page.keyboard.type("not the password at all");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert")).toHaveText("That e-mail and password do not match an account.");
  await expect(page.getByRole("textbox", { name: "E-mail" })).toHaveValue("studio");
  await page.getByLabel("Password").focus();
  await page.keyboard.type(process.env.E2E_STUDIO_PASSWORD!);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: /^Enquiries/ })).toBeVisible();
  await expectNoAxeViolations(page);
});
