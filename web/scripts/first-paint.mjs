// What the prerender changes in each page so that a slow phone paints it
// early and can use it soon after (make interactive: slow 4G, CPU 4×):
// - its stylesheets are written into it, so it paints from its HTML alone,
//   without a round trip for them (docs/benchmarks.md: first paint 0.15–0.2 s sooner);
// - its scripts are fetched once its content and main pictures are
//   painted, all at once, not in a chain of imports.
// A script in its <head> does both parts' browser side.
/* global PerformanceObserver, requestAnimationFrame, setTimeout, addEventListener -- afterFirstPaint runs in the page */
import { readFileSync } from "node:fs";
import { join } from "node:path";

// The page's own stylesheets (React Router's <Links />, some hrefs ending
// in "#") are written into a <style> each, and their links are disabled:
// still in the page (React hydrates them by rel and href; a missing one
// would be a mismatch) but not fetched, so that nothing shares the line
// with the page's pictures and scripts. Once React has hydrated the page,
// the script below enables each link and removes its copy when it has
// loaded, so that a route's styles leave with its link on the next
// navigation (a link that fails keeps its copy). Without JavaScript the
// copies stay. The server allows each <style> by its hash
// (internal/server, inlineHashes), as it does the inline scripts.
function inlineStylesheets(html, assetsDir) {
  return html.replace(/<link rel="stylesheet" href="(\/assets\/([^"#/]+\.css)#?)"\/>/g, (_, href, file) => {
    const css = stylesheet(assetsDir, file);
    return `<style data-href="${href}">${css}</style><link rel="stylesheet" href="${href}" disabled=""/>`;
  });
}

// Read once per folder: a warm render pool (render-site.mjs) renders
// build after build, each into a folder of its own, so only the last few
// folders' are kept.
const stylesheets = new Map();
const KEPT_STYLESHEETS = 200;
function stylesheet(assetsDir, file) {
  const path = join(assetsDir, file);
  if (!stylesheets.has(path)) {
    if (stylesheets.size >= KEPT_STYLESHEETS) stylesheets.delete(stylesheets.keys().next().value);
    const css = readFileSync(path, "utf8").trim();
    // A stylesheet's url()s are absolute (/images/…, /assets/…) as Vite
    // writes them: a relative one would resolve against the page instead.
    if (/<\/style/i.test(css) || /url\((?!["']?(\/|data:))/.test(css)) {
      throw new Error(`first-paint: ${file} cannot be inlined (a relative url() or "</style")`);
    }
    stylesheets.set(path, css);
  }
  return stylesheets.get(path);
}

// The prerendered pages list every script of the page as a modulepreload
// link. Fetched from the first bytes, the scripts share the slow line with
// the page's main pictures, and Lighthouse, which counts every request
// done before the largest paint as part of it, gives 95–97; left out, they
// arrive in a chain of round trips (the page's module imports the route,
// which imports React, which then loads the client entry) and the page
// answers clicks late. So the links are taken out and added back by the
// script below once the page has painted its content and its main
// pictures: then every script loads at once. React hoists <link> elements
// and inserts missing ones after hydration, so their absence from the HTML
// is no hydration mismatch; the server's CSP allows the script by its
// hash, as it does React Router's own.
function afterFirstPaint(scripts) {
  const loadScripts = () => {
    for (const href of scripts) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.append(link);
    }
  };
  // The content is painted (its first paint is timed) and the main
  // pictures are in (React gives each fetchpriority=high: the hero, a
  // product's first photograph, the first cards); the frame after that has
  // painted them. Checked between the parser's tasks, which a frame can
  // wait long for.
  const paintTimed = PerformanceObserver.supportedEntryTypes?.includes("paint");
  const check = () => {
    const painted = performance.getEntriesByName("first-contentful-paint").length > 0;
    const pictures = [...document.querySelectorAll("img[fetchpriority=high]")];
    if (painted && pictures.every((img) => img.complete)) requestAnimationFrame(() => setTimeout(loadScripts));
    else setTimeout(check, 10);
  };
  if (paintTimed) check();
  else addEventListener("load", loadScripts);
  // Once React has hydrated the page (app/root.tsx marks <html>), each
  // stylesheet's link is enabled and its copy removed when it has loaded;
  // not before: hydration walks the <head> these copies are in.
  const handOver = () => {
    for (const copy of document.querySelectorAll("style[data-href]")) {
      const link = [...document.querySelectorAll("link[rel=stylesheet]")].find((l) => l.getAttribute("href") === copy.dataset.href);
      if (!link) copy.remove();
      else if (link.disabled) {
        link.addEventListener("load", () => copy.remove());
        link.disabled = false;
      }
    }
  };
  new MutationObserver((_, observer) => {
    if (!document.documentElement.hasAttribute("data-hydrated")) return;
    observer.disconnect();
    handOver();
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-hydrated"] });
}

function preloadModulesAfterFirstPaint(html) {
  const scripts = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"\/>/g)].map((m) => m[1]);
  if (scripts.length === 0 && !html.includes("<style data-href=")) return html;
  const script = `<script>(${afterFirstPaint})(${JSON.stringify(scripts)})</script>`;
  return html.replace(/<link rel="modulepreload"[^>]*>/g, "").replace("</head>", `${script}</head>`);
}

export const firstPaint = (html, assetsDir) => preloadModulesAfterFirstPaint(inlineStylesheets(html, assetsDir));
