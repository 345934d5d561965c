// make interactive: how soon a visitor on a slow phone can use each page.
// Debian's Chromium with the network of Lighthouse's "slow 4G" (150 ms
// round trip, 1.6 Mbit/s down, 750 kbit/s up) and the CPU slowed 4×, a
// cold cache each time; for each page prints when the first content is
// painted and when the page is interactive (React has hydrated it: the
// root sets html[data-hydrated]), the median of RUNS loads; then, once the
// page is idle, how long the first press of the search button (and of Get
// Quote, where there is one) takes to open its dialog.
// Usage: node scripts/interactive.mjs BASE_URL [PATH...]
import { chromium } from "playwright-core";

const [base, ...paths] = process.argv.slice(2);
const RUNS = Number(process.env.RUNS ?? 5);
const pages = paths.length ? paths : ["/", "/products", "/product/1", "/contact-us"];
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// From the press to the dialog's being open, in the page's own clock.
const pressToOpen = (button) =>
  button.evaluate(
    (b) =>
      new Promise((done) => {
        const start = performance.now();
        b.click();
        const open = () => (document.querySelector("dialog[open]") ? done(performance.now() - start) : window.requestAnimationFrame(open));
        open();
      }),
  );

console.log(`${"page".padEnd(14)} ${"first paint".padStart(11)} ${"interactive".padStart(11)} ${"search opens".padStart(12)} ${"quote opens".padStart(11)}   (slow 4G, CPU 4×, median of ${RUNS})`);
for (const path of pages) {
  const fcp = [];
  const tti = [];
  const search = [];
  const quote = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    // The welcome offer is not what is measured.
    await context.addInitScript(() => {
      sessionStorage.setItem("studio.offerSeen", "1");
      // The moment the root marks the page hydrated.
      new MutationObserver((_, observer) => {
        if (document.documentElement?.hasAttribute("data-hydrated")) {
          window.__hydratedAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-hydrated"] });
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.goto(base + path, { waitUntil: "commit" });
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
    const times = await page.evaluate(() => ({
      fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      hydrated: window.__hydratedAt,
    }));
    fcp.push(times.fcp);
    tti.push(times.hydrated);
    await page.waitForLoadState("networkidle");
    search.push(await pressToOpen(page.getByRole("button", { name: "Search products" })));
    await page.keyboard.press("Escape");
    const getQuote = page.getByRole("button", { name: "Get Quote" });
    if ((await getQuote.count()) > 0) quote.push(await pressToOpen(getQuote));
    await context.close();
  }
  const ms = (xs) => (xs.length ? `${Math.round(median(xs))} ms` : "–");
  console.log(`${path.padEnd(14)} ${(median(fcp) / 1000).toFixed(2).padStart(10)}s ${(median(tti) / 1000).toFixed(2).padStart(10)}s ${ms(search).padStart(12)} ${ms(quote).padStart(11)}`);
}
await browser.close();
