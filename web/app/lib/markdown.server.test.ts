import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { decodeHTMLAttribute } from "entities";
import { describe, expect, it } from "vitest";
import { loadFacts, renderMarkdown, slugify } from "./markdown.server";

const contentDir = fileURLToPath(new URL("../../../content", import.meta.url));
const facts = loadFacts(contentDir);

describe("loadFacts", () => {
  it("reads site.json and service.json and builds the contact links from the site facts", () => {
    const site = facts.site as { email: string; phones: { tel: string; display: string }[] };
    const contact = facts.contact as Record<string, string>;
    expect(contact.emailLink).toBe(`[${site.email}](mailto:${site.email})`);
    for (const p of site.phones) expect(contact.phoneLinks).toContain(`[${p.display}](tel:${p.tel})`);
    expect(facts.service).toBeTypeOf("object");
  });
});

describe("renderMarkdown", () => {
  const doc = renderMarkdown(
    ["---", "title: Shipping Policy", "updated: 2026-03-05", "---", "", "Intro.", "", "## 1. Introduction", "", "Write to {{contact.emailLink}}.", "", "### 1.1 Scope", "", "Text.", "", "## 2. Orders", "", "- **2.1** one", ""].join("\n"),
    facts,
    "fixture.md",
  );

  it("reads the front matter and writes the date out", () => {
    expect(doc.meta).toMatchObject({ title: "Shipping Policy", updated: "2026-03-05", updatedText: "5 March 2026" });
  });

  it("gives numbered headings ids and self-links, and lists them in the contents", () => {
    expect(doc.html).toContain('<h2 id="1-introduction"><a class="heading-anchor" href="#1-introduction">1. Introduction</a></h2>');
    expect(doc.toc).toEqual([
      { depth: 2, id: "1-introduction", text: "1. Introduction" },
      { depth: 3, id: "1-1-scope", text: "1.1 Scope" },
      { depth: 2, id: "2-orders", text: "2. Orders" },
    ]);
  });

  it("fills facts and renders their links", () => {
    const site = facts.site as { email: string };
    expect(doc.html).toContain(`<a href="mailto:${site.email}">${site.email}</a>`);
    expect(doc.html).not.toMatch(/\{\{|\[/);
  });

  it("splits the text into sections at each h2", () => {
    expect(doc.sections.map((s) => [s.id, s.title])).toEqual([
      ["1-introduction", "1. Introduction"],
      ["2-orders", "2. Orders"],
    ]);
    expect(doc.sections[1]!.html).toBe("<ul>\n<li><strong>2.1</strong> one</li>\n</ul>\n");
  });

  it("shows markup typed in the text as text, in the page and in its sections", () => {
    const typed = renderMarkdown('## Care\n\nOiled <b>by</b> hand <script>alert("x")</script>.\n\n<div onclick="x()">A block</div>\n', facts, "fixture.md");
    for (const html of [typed.html, typed.sections[0]!.html]) {
      expect(html).toContain("Oiled &lt;b&gt;by&lt;/b&gt; hand &lt;script&gt;alert(");
      expect(html).toContain("&lt;div onclick=&quot;x()&quot;&gt;A block&lt;/div&gt;");
      expect(html).not.toMatch(/<(b|script|div)\b/);
    }
  });

  it("links to web, mail and phone addresses and the site's own pages, and to nothing else", () => {
    const doc = renderMarkdown(
      "## Links\n\n[site](https://example.org) [mail](mailto:a@example.org) [call](tel:+911234) [faq](/contact-us#faq) [top](#links) [bad](javascript:alert(1)) [data](data:text/html,x) [spaced]( JavaScript:alert(2))\n",
      facts,
      "fixture.md",
    );
    for (const ok of ['href="https://example.org"', 'href="mailto:a@example.org"', 'href="tel:+911234"', 'href="/contact-us#faq"', 'href="#links"']) {
      expect(doc.html).toContain(ok);
    }
    expect(doc.html).not.toMatch(/href="(javascript|data):/i);
    expect(doc.sections[0]!.html).not.toMatch(/javascript|data:/i);
    expect(doc.html).toContain(" bad data ");
  });

  // The table internal/publish/build/builder_test.go feeds to the workspace's
  // preview too: every link, and the href the browser would follow.
  const table: { links: { case: string; markdown: string; href: string | null }[] } = JSON.parse(
    readFileSync(new URL("../../../contracts/cases/markdown-links.json", import.meta.url), "utf8"),
  );
  // The hrefs of html as the browser reads them (character references decoded).
  const hrefs = (html: string) => [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)].map((m) => decodeHTMLAttribute(m[1]!));

  it.each(table.links)("links only to the web, mail, phones and the site: $case", ({ markdown, href }) => {
    const doc = renderMarkdown(`## Links\n\n${markdown}\n`, facts, "fixture.md");
    for (const html of [doc.html, doc.sections[0]!.html]) {
      const links = hrefs(html).filter((h) => h !== "#links"); // the heading's own anchor
      if (href === null) {
        expect(links).toEqual([]);
        expect(html).not.toMatch(/<a\b[^>]*>x<\/a>/);
      } else {
        expect(links).toEqual([href]);
      }
    }
  });

  it("shows a refused link's words", () => {
    const doc = renderMarkdown("See [our story](javascript&colon;alert(1)) and <vbscript:msgbox(1)>.\n", facts, "fixture.md");
    expect(doc.html).toBe("<p>See our story and vbscript:msgbox(1).</p>\n");
  });

  it("keeps a link's title, decoded once and escaped", () => {
    const doc = renderMarkdown('[x](/faq "Care &amp; <repairs>")\n', facts, "fixture.md");
    expect(doc.html).toContain('<a href="/faq" title="Care &amp; &lt;repairs&gt;">x</a>');
  });

  it("keeps repeated headings' ids unique", () => {
    const twice = renderMarkdown("## Notes\n\n## Notes\n", facts, "fixture.md");
    expect(twice.toc.map((t) => t.id)).toEqual(["notes", "notes-2"]);
  });
});

describe("slugify", () => {
  it("keeps the numbers of numbered headings", () => {
    expect(slugify("9.3 Conduct you must avoid")).toBe("9-3-conduct-you-must-avoid");
    expect(slugify("10. Contact")).toBe("10-contact");
  });
});
