import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { firstPaint } from "./first-paint.mjs";

// A page as React Router prerenders it: its stylesheets in <head>, its
// scripts as modulepreload links, and the module script that boots it.
const page = `<!DOCTYPE html><html><head><meta charSet="utf-8"/><link rel="preload" as="image" href="/images/hero.svg" fetchPriority="high"/><title>T</title><link rel="stylesheet" href="/assets/root-1.css"/><link rel="stylesheet" href="/assets/home-2.css#"/></head><body><main><h1>Hello</h1></main><link rel="modulepreload" href="/assets/entry.client-3.js"/><link rel="modulepreload" href="/assets/react-4.js"/><script type="module" async="">import("/assets/entry.client-3.js");</script></body></html>`;

function assets(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "first-paint-"));
  for (const [name, css] of Object.entries(files)) writeFileSync(join(dir, name), css);
  return dir;
}

describe("firstPaint", () => {
  const dir = assets({ "root-1.css": "body{margin:0}\n", "home-2.css": ".hero{background:url(/images/a.svg)}" });
  const html = firstPaint(page, dir);
  const head = html.slice(0, html.indexOf("</head>"));

  it("writes each stylesheet into the head, in order, and keeps its link disabled for React", () => {
    expect(head).toContain(
      '<style data-href="/assets/root-1.css">body{margin:0}</style><link rel="stylesheet" href="/assets/root-1.css" disabled=""/>' +
        '<style data-href="/assets/home-2.css#">.hero{background:url(/images/a.svg)}</style><link rel="stylesheet" href="/assets/home-2.css#" disabled=""/>',
    );
    expect(html.match(/<link rel="stylesheet"[^>]*>/g)).toHaveLength(2);
  });

  it("takes the modulepreload links out and lists their scripts in one script in the head", () => {
    expect(html).not.toContain('rel="modulepreload"');
    const scripts = [...head.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toContain('["/assets/entry.client-3.js","/assets/react-4.js"]');
    // React Router's own module script is left as it was.
    expect(html).toContain('<script type="module" async="">import("/assets/entry.client-3.js");</script>');
  });

  it("refuses a stylesheet whose relative url() would resolve against the page", () => {
    const bad = assets({ "root-1.css": ".a{background:url(a.svg)}", "home-2.css": "" });
    expect(() => firstPaint(page, bad)).toThrow(/root-1\.css cannot be inlined/);
  });

  it("leaves a page without stylesheets or scripts as it is", () => {
    const plain = "<!doctype html><head><title>Redirecting</title></head><body></body></html>";
    expect(firstPaint(plain, dir)).toBe(plain);
  });
});
