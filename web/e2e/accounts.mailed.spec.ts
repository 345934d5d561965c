import type { Browser, Page } from "@playwright/test";

import { test, expect, expectNoAxeViolations, signInToStudio } from "./fixtures";
import { lastMailTo, linkIn, mailedServer } from "./mail";

// Accounts in the browser (issue 29): the owner invites by e-mail, the
// invited person sets a password through the mailed link, staff are
// refused what only an owner may do, and a forgotten password is reset
// through a mailed link that works once.

// An address no other run has used.
function newAddress(label: string): string {
  return `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@jharokha.test`;
}

// The mailed link's page, which is on this server (mailedServer): its
// path and query, for a page of another browser context.
function pathOf(link: string): string {
  const url = new URL(link);
  return url.pathname + url.search;
}

// invite has the signed-in owner invite email with role, and returns the
// path of the invitation's link.
async function invite(page: Page, email: string, role: "Staff" | "Owner"): Promise<string> {
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Accounts" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Accounts" })).toBeVisible();
  const form = page.getByRole("form", { name: "Invite someone" });
  await form.getByRole("textbox", { name: "E-mail" }).fill(email);
  await form.getByRole("textbox", { name: /Name/ }).fill("Meera");
  await form.getByRole("combobox", { name: "Role" }).selectOption({ label: role });
  await form.getByRole("button", { name: "Send the invitation" }).click();
  await expect(page.getByRole("status")).toContainText(`${email} was invited as ${role}`);
  await expect(page.getByRole("article", { name: email })).toContainText("has not set a password yet");
  const mail = await lastMailTo(email, /invited/);
  return pathOf(linkIn(mail, `${mailedServer}/studio/set-password?`));
}

// setPassword follows a mailed link in a browser of its own and sets the
// password; the person is signed in.
async function setPassword(browser: Browser, path: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: "Set your password" })).toBeVisible();
  await page.getByLabel("New password").fill(password);
  await page.getByLabel("The same again").fill(password);
  await page.getByRole("button", { name: "Set the password" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Enquiries/ })).toBeVisible();
  return page;
}

test("an owner invites a Staff account, which signs in and is refused Accounts and the CSV", async ({ page, browser, openStudio }) => {
  test.slow(); // three password hashes and two mails on a loaded machine
  const email = newAddress("staff");
  const password = "a staff member's long password";
  await openStudio(page);
  const link = await invite(page, email, "Staff");
  await expectNoAxeViolations(page);

  const staff = await setPassword(browser, link, password);
  // Signing out and in again with the password set.
  await staff.getByRole("button", { name: "Sign out", exact: true }).click();
  await signInToStudio(staff, email, password);
  await expect(staff.getByRole("link", { name: "Accounts" })).toHaveCount(0);
  await expect(staff.getByRole("link", { name: /as CSV/ })).toHaveCount(0);

  const accounts = await staff.goto("/studio/accounts");
  expect(accounts?.status()).toBe(403);
  await expect(staff.getByRole("heading", { level: 1, name: "Only an owner" })).toBeVisible();
  await expect(staff.getByRole("alert")).toHaveText(/Only an owner can manage accounts\./);
  const csv = await staff.goto("/studio/enquiries.csv");
  expect(csv?.status()).toBe(403);
  await expect(staff.getByRole("alert")).toHaveText(/Only an owner can export the enquiries\./);

  // The invitation's link set a password once; it works no more.
  await staff.goto(link);
  await expect(staff.getByRole("alert")).toHaveText(/This link has been used/);
  await expect(staff.getByRole("link", { name: "Get a new link" })).toBeVisible();
  await staff.context().close();
});

test("a forgotten password is reset through the mailed link, which works once", async ({ page, browser, openStudio }) => {
  test.slow();
  const email = newAddress("forgetful");
  const first = "the first long password";
  const second = "the second long password";
  await openStudio(page);
  const person = await setPassword(browser, await invite(page, email, "Owner"), first);
  await person.getByRole("button", { name: "Sign out", exact: true }).click();

  await person.getByRole("link", { name: "Forgot your password?" }).click();
  await person.getByRole("textbox", { name: "E-mail" }).fill(email);
  await person.getByRole("button", { name: "Send me a link" }).click();
  await expect(person.getByRole("status")).toContainText(`If ${email} is the e-mail of an account, a link to set a new password is on its way`);
  await expectNoAxeViolations(person);
  const link = pathOf(linkIn(await lastMailTo(email, /Reset your password/), `${mailedServer}/studio/set-password?`));

  await person.goto(link);
  await person.getByLabel("New password").fill(second);
  await person.getByLabel("The same again").fill(second);
  await person.getByRole("button", { name: "Set the password" }).click();
  await expect(person.getByRole("heading", { level: 1, name: /^Enquiries/ })).toBeVisible();

  await person.getByRole("button", { name: "Sign out", exact: true }).click();
  await person.getByRole("textbox", { name: "E-mail" }).fill(email);
  await person.getByLabel("Password").fill(first);
  await person.getByRole("button", { name: "Sign in" }).click();
  await expect(person.getByRole("alert")).toHaveText("That e-mail and password do not match an account.");
  await signInToStudio(person, email, second);

  await person.goto(link);
  await expect(person.getByRole("heading", { level: 1, name: "This link does not work" })).toBeVisible();
  await expect(person.getByRole("alert")).toHaveText(/This link has been used/);
  await person.context().close();
});

test("one's password is changed on Your account, which signs out every other browser", async ({ page, browser, openStudio }) => {
  test.slow();
  const email = newAddress("changing");
  const first = "the first long password";
  const second = "the second long password";
  await openStudio(page);
  const path = await invite(page, email, "Staff");
  const person = await setPassword(browser, path, first);
  const elsewhere = await (await browser.newContext()).newPage();
  await signInToStudio(elsewhere, email, first);

  await person.getByRole("link", { name: "Your account" }).click();
  const form = person.getByRole("form", { name: "Change your password" });
  await form.getByLabel("Current password").fill("not my password at all");
  await form.getByLabel("New password").fill(second);
  await form.getByLabel("The same again").fill(second);
  await form.getByRole("button", { name: "Change the password" }).click();
  await expect(person.getByRole("alert")).toHaveText("Your password was not changed: the current password typed is not yours.");
  await expectNoAxeViolations(person);

  await form.getByLabel("Current password").fill(first);
  await form.getByLabel("New password").fill(second);
  await form.getByLabel("The same again").fill(second);
  await form.getByRole("button", { name: "Change the password" }).click();
  await expect(person.getByRole("status")).toHaveText(/^Your password is changed\./);
  await expect(person.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();

  // The other browser is signed out; the new password signs in, the old does not.
  await elsewhere.reload();
  await expect(elsewhere.getByRole("button", { name: "Sign in" })).toBeVisible();
  await elsewhere.getByRole("textbox", { name: "E-mail" }).fill(email);
  await elsewhere.getByLabel("Password").fill(first);
  await elsewhere.getByRole("button", { name: "Sign in" }).click();
  await expect(elsewhere.getByRole("alert")).toHaveText("That e-mail and password do not match an account.");
  await signInToStudio(elsewhere, email, second);
  await elsewhere.context().close();
  await person.context().close();
});
