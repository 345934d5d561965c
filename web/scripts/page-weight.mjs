// node scripts/page-weight.mjs URL: what a 390-pixel phone at 3× downloads
// for one page, in Debian's Chromium, scrolled to the end so every lazy
// picture loads: bytes on the wire by kind, and the largest image.
import { chromium } from "@playwright/test";

const url = process.argv[2];
if (!url) {
  console.error("usage: node scripts/page-weight.mjs URL");
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
await context.addInitScript(() => sessionStorage.setItem("studio.offerSeen", "1"));
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send("Network.enable");
const kinds = new Map();
const types = new Map();
cdp.on("Network.responseReceived", (e) => types.set(e.requestId, { type: e.type, url: e.response.url }));
cdp.on("Network.loadingFinished", (e) => {
  const r = types.get(e.requestId);
  if (r) kinds.set(r.url, { type: r.type, bytes: e.encodedDataLength });
});
await page.goto(url, { waitUntil: "networkidle" });
for (let y = 0; y < (await page.evaluate(() => document.body.scrollHeight)); y += 400) {
  await page.evaluate((top) => window.scrollTo(0, top), y);
  await page.waitForTimeout(60);
}
await page.waitForLoadState("networkidle");
await browser.close();
const KB = 1024;
const byType = {};
let total = 0;
let largest = { url: "", bytes: 0 };
for (const [u, { type, bytes }] of kinds) {
  byType[type] = (byType[type] ?? 0) + bytes;
  total += bytes;
  if (type === "Image" && bytes > largest.bytes) largest = { url: new URL(u).pathname, bytes };
}
console.log(`${new URL(url).pathname} at 390 px, DPR 3: ${(total / KB).toFixed(0)} KB in ${kinds.size} requests (${Object.entries(byType).map(([t, b]) => `${t} ${(b / KB).toFixed(0)} KB`).join(", ")}); largest image ${(largest.bytes / KB).toFixed(0)} KB ${largest.url}`);
