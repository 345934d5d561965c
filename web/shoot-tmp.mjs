import { chromium } from "playwright-core";
const base = "http://127.0.0.1:18120";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await ctx.newPage();
page.on("console", (m) => console.log("console:", m.type(), m.text()));
for (const [i, name] of ["Meera Rao", "Meera Rao"].entries()) {
  const r = await page.request.post(base + "/api/enquiries", { data: { kind: i ? "quote" : "contact", productId: i ? 1 : undefined, material: i ? "Wood" : undefined, finish: i ? "Walnut" : undefined, name, email: "meera@example.com", phone: "+91 98290 41752", message: "We are furnishing a haveli in Jodhpur and would like six chairs in walnut. Could you also send a photograph of the finish?" }, headers: { "X-Forwarded-For": "198.51.100." + (i + 7) } });
  console.log("enquiry", r.status());
}
await page.goto(base + "/studio");
await page.getByRole("textbox", { name: "E-mail" }).fill("studio");
await page.getByLabel("Password").fill("correct-horse-battery");
await page.getByRole("button", { name: "Sign in" }).click();
await page.goto(base + "/studio/enquiries/2?template=2");
await page.getByRole("form", { name: "Reply" }).getByLabel(/PDF to attach/).setInputFiles({ name: "Quote 2.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 quote") });
await page.getByRole("button", { name: "Send reply" }).click();
await page.waitForSelector("text=Your reply is on its way");
await page.goto(base + "/studio/enquiries/2?template=1");
for (const w of [320, 375, 1280]) {
  await page.setViewportSize({ width: w, height: 900 });
  await page.screenshot({ path: `/tmp/shots/enquiry-${w}.png`, fullPage: true });
}
await page.goto(base + "/studio/customers/meera%40example.com");
for (const w of [320, 375, 1280]) {
  await page.setViewportSize({ width: w, height: 900 });
  await page.screenshot({ path: `/tmp/shots/customer-${w}.png`, fullPage: true });
}
await browser.close();
