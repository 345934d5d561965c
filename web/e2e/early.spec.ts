import { test, expect, hydrated, holdScripts, nextFrames, unique } from "./fixtures";
import { products } from "./content";

// What a visitor does on the prerendered page before its scripts have
// arrived (a slow phone): the scripts are held back by route interception,
// the visitor acts, the scripts are let go, and what they did survives
// hydration and the renders after it.

test("a material and a finish chosen before the scripts run stay chosen, and the quote carries them", async ({ page }) => {
  const product = products.find((p) => p.material.length > 1 && p.finish.length > 1);
  test.skip(!product, "no product of content/catalogue.json has two materials and two finishes");
  const material = product!.material.at(-1)!;
  const finish = product!.finish.at(-1)!;
  const release = await holdScripts(page);
  await page.goto(`/product/${product!.id}`, { waitUntil: "commit" });
  const materials = page.getByRole("group", { name: "Material" });
  const finishes = page.getByRole("group", { name: "Finish" });
  await materials.getByRole("radio", { name: material, exact: true }).check();
  await finishes.getByRole("radio", { name: finish, exact: true }).check();

  release();
  await hydrated(page);
  await nextFrames(page);
  await expect(materials.getByRole("radio", { name: material, exact: true })).toBeChecked();
  await expect(finishes.getByRole("radio", { name: finish, exact: true })).toBeChecked();

  await page.getByRole("button", { name: "Get Quote" }).click();
  const dialog = page.getByRole("dialog", { name: `Get a quote for ${product!.name}` });
  await expect(dialog.getByRole("combobox", { name: "Material" })).toHaveValue(material);
  await expect(dialog.getByRole("combobox", { name: "Finish" })).toHaveValue(finish);
});

test("an address typed in the newsletter box before the scripts run is the one signed up", async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto("/about", { waitUntil: "commit" });
  const footer = page.getByRole("contentinfo");
  const email = `${unique("early").replace(/\s/g, "-")}@example.com`;
  await footer.getByRole("textbox", { name: "Your e-mail" }).fill(email);

  release();
  await hydrated(page);
  await nextFrames(page);
  await expect(footer.getByRole("textbox", { name: "Your e-mail" })).toHaveValue(email);
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith("/api/newsletter") && r.method() === "POST"),
    footer.getByRole("button", { name: "Subscribe" }).click(),
  ]);
  expect(request.postDataJSON()).toMatchObject({ email });
  await expect(footer.getByRole("status")).toHaveText("Thank you: you are on the list.");
});
