// Renders the Open Graph pictures (1200×630 PNG) that link previews show:
// one for the site and one per product, from the shipped illustrations.
// Social networks do not show SVG, so these are PNG, made here once and
// committed: run `npm run og-images` after adding a product or changing
// its drawing. Needs Debian's chromium.
import { chromium } from "playwright-core";
import { mkdir, readFile } from "node:fs/promises";

const root = new URL("../", import.meta.url);
const site = JSON.parse(await readFile(new URL("../content/site.json", root), "utf8"));
const { products } = JSON.parse(await readFile(new URL("../content/catalogue.json", root), "utf8"));
const outDir = new URL("public/images/og/", root);
await mkdir(outDir, { recursive: true });

const svg = async (path) => `data:image/svg+xml;base64,${(await readFile(new URL(`public${path}`, root))).toString("base64")}`;

const page = (picture, eyebrow, title, subtitle, wide) => `<!doctype html><html><body style="margin:0">
<div style="width:1200px;height:630px;display:flex;background:#23305E;font-family:Georgia,serif;color:#FBF7F0">
  <img src="${picture}" style="${wide ? "width:1200px;height:630px;object-fit:cover;position:absolute" : "width:504px;height:630px;object-fit:cover"}">
  ${wide ? '<div style="position:absolute;width:1200px;height:630px;background:linear-gradient(90deg,#23305Ef2 0%,#23305Ecc 45%,#23305E00 75%)"></div>' : ""}
  <div style="position:relative;flex:1;display:flex;flex-direction:column;justify-content:flex-end;padding:64px">
    <div style="font-size:28px;color:#CDA658;letter-spacing:.08em;text-transform:uppercase">${eyebrow}</div>
    <div style="font-size:72px;line-height:1.05;margin-top:12px">${title}</div>
    <div style="font-size:30px;margin-top:16px;color:#E8D5B5">${subtitle}</div>
  </div>
</div></body></html>`;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const tab = await browser.newPage({ viewport: { width: 1200, height: 630 } });
const render = async (html, name) => {
  await tab.setContent(html, { waitUntil: "load" });
  await tab.screenshot({ path: new URL(name, outDir).pathname });
  console.log(`og-images: wrote public/images/og/${name}`);
};
await render(page(await svg("/images/hero.svg"), `${site.city} · ${site.region}`, site.name, site.tagline, true), "site.png");
for (const p of products) {
  if (!p.image.startsWith("/")) continue; // a photograph elsewhere: link previews use it as it is
  await render(page(await svg(p.image), site.name, p.name, p.type, false), `product-${p.id}.png`);
}
await browser.close();
