import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeHTMLAttribute } from "entities";
import { Marked, type MarkedExtension, type Token, type Tokens } from "marked";
import { contentFacts, fillFacts, type Facts } from "./facts";

// Long texts (policies, the studio story, the FAQ) are Markdown in content/.
// The route loaders turn each into ready HTML when the pages are
// prerendered (app/lib/content.server.ts, markdownDoc), so no Markdown
// parser ships to the browser. Facts are written
// once, in content/site.json and service.json, and filled in here by the
// same function as the chat's ({{site.email}}, {{contact.phoneLinks}}:
// app/lib/facts.ts).

export type TocEntry = { depth: number; id: string; text: string };
export type Section = { id: string; title: string; html: string };
export type MarkdownDoc = {
  /** Front matter, with `updatedText` added when `updated` is an ISO date. */
  meta: Record<string, string>;
  html: string;
  /** The h2 and h3 headings, in order, with their anchors. */
  toc: TocEntry[];
  /** The document split at each h2: its title and the HTML under it. */
  sections: Section[];
};

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

// The facts a text may name (app/lib/facts.ts), read from contentDir.
export function loadFacts(contentDir: string): Facts {
  const read = (name: string) => JSON.parse(readFileSync(join(contentDir, name), "utf8"));
  return contentFacts(read("site.json"), read("service.json"));
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/&[a-z]+;|&#\d+;/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

export function parseFrontMatter(source: string): { meta: Record<string, string>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(source);
  if (!match) return { meta: {}, body: source };
  const meta: Record<string, string> = {};
  for (const line of match[1]!.split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) meta[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  const updated = /^(\d{4})-(\d{2})-(\d{2})$/.exec(meta.updated ?? "");
  if (updated) meta.updatedText = `${Number(updated[3])} ${MONTHS[Number(updated[2]) - 1]} ${updated[1]}`;
  return { meta, body: source.slice(match[0].length) };
}

// Markup typed in a text (the workspace's editor takes any) is shown as
// the text it is, never passed into the page.
const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => escapes[c]!);
const markupAsText = { renderer: { html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text) } };

// A link goes to a web address, a mail address, a phone or this site; one
// to anything else (javascript:, data:) is shown as its words alone. Marked
// hands the destination over as typed, character references and all
// (`javascript&colon;`), and the browser would decode them: so the address
// is decoded first, as an attribute's value is, judged by the URL standard's
// parser (the browser's own), and written out escaped, so that the address
// judged is the one the browser follows. A link's address never holds a
// control character: one that does (a tab inside "java\tscript:", which the
// URL parser drops) is refused.
const LINK_SCHEMES = new Set(["https:", "http:", "mailto:", "tel:"]);
const CONTROL = /\p{Cc}/u; // C0, DEL and C1

/** The address a Markdown link may point at, ready for an href; null when it may not. */
function safeHref(destination: string): string | null {
  const decoded = decodeHTMLAttribute(destination).trim();
  if (CONTROL.test(decoded)) return null;
  let href: string;
  try {
    // As marked writes an address: spaces and the like %-encoded, %-escapes kept.
    href = encodeURI(decoded).replace(/%25/g, "%");
    // A path of this site (`/faq`, `#top`, `terms`) resolves to the base's https:.
    if (!LINK_SCHEMES.has(new URL(href, "https://site.invalid/").protocol)) return null;
  } catch {
    return null; // a lone surrogate, or no URL at all ("http://[")
  }
  return href;
}

const safeLinks: MarkedExtension = {
  renderer: {
    link({ href, title, tokens }: Tokens.Link) {
      const words = this.parser.parseInline(tokens);
      const safe = safeHref(href);
      if (safe === null) return words;
      const titled = title ? ` title="${escapeHtml(decodeHTMLAttribute(title))}"` : "";
      return `<a href="${escapeHtml(safe)}"${titled}>${words}</a>`;
    },
  },
};

export function renderMarkdown(source: string, facts: Facts, where: string): MarkdownDoc {
  const { meta, body } = parseFrontMatter(source);
  for (const key of Object.keys(meta)) meta[key] = fillFacts(meta[key]!, facts, where);

  const toc: TocEntry[] = [];
  const used = new Set<string>();
  const marked = new Marked({ gfm: true }, markupAsText, safeLinks);
  marked.use({
    renderer: {
      // Headings get a stable id from their text ("9.3 Conduct" → "9-3-conduct")
      // and, from h2 down, a link to themselves so a section can be shared.
      heading({ tokens, depth, text }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        let id = slugify(text) || "section";
        for (let n = 2; used.has(id); n++) id = `${slugify(text)}-${n}`;
        used.add(id);
        if (depth < 2 || depth > 3) return `<h${depth} id="${id}">${inner}</h${depth}>\n`;
        toc.push({ depth, id, text: inner.replace(/<[^>]+>/g, "") });
        return `<h${depth} id="${id}"><a class="heading-anchor" href="#${id}">${inner}</a></h${depth}>\n`;
      },
    },
  });

  const tokens = marked.lexer(fillFacts(body, facts, where));
  const html = marked.parser(tokens);

  // The sections, rendered from the same tokens: heading apart, body apart
  // (by a plain renderer, so the table of contents is not counted twice).
  const plain = new Marked({ gfm: true }, markupAsText, safeLinks);
  const sections: Section[] = [];
  let current: { heading: Tokens.Heading; body: Token[] } | null = null;
  const groups: { heading: Tokens.Heading; body: Token[] }[] = [];
  for (const token of tokens) {
    if (token.type === "heading" && (token as Tokens.Heading).depth === 2) {
      current = { heading: token as Tokens.Heading, body: [] };
      groups.push(current);
    } else if (current) {
      current.body.push(token);
    }
  }
  for (const [i, group] of groups.entries()) {
    const entry = toc.filter((t) => t.depth === 2)[i]!;
    sections.push({ id: entry.id, title: entry.text, html: plain.parser(group.body) });
  }
  return { meta, html, toc, sections };
}
