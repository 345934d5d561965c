import { test, expect, expectNoAxeViolations } from "./fixtures";

// The workspace's Versions of the site page. The test server has made no
// version of its own (its content is the one it was installed with), so the
// site as it was installed is live. It runs in web/, where there is no
// builder unless BUILDER_DIR names one: then the page says so in the
// owner's words instead of offering to build the site again. Going back to
// a version is in editor.spec.ts, on the server that builds.

test("the versions page shows the site as it was installed live now, and how it is built again", async ({ page, openStudio }) => {
  await openStudio(page);
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Versions of the site" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Versions of the site" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Versions of the site" })).toHaveAttribute("aria-current", "page");
  const installed = page.getByRole("article", { name: "The site as it was installed" });
  await expect(installed.getByText("Live now", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Go back/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Build the site again" }).or(page.getByText("This server cannot build new versions of the site"))).toBeVisible();
  await expectNoAxeViolations(page);
});
