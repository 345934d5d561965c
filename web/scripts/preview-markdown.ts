import { readFileSync } from "node:fs";
import { join } from "node:path";
import { escapeHtml as escape, loadFacts, renderMarkdown } from "../app/lib/markdown.server";

// `MARKDOWN_FILE=pages/about.md node scripts/run-ts.mjs
// scripts/preview-markdown.ts < about.md`: one Markdown text of content/,
// rendered as the site renders it (the same renderer, the facts filled in
// from CONTENT_DIR), printed as HTML. The workspace's editor shows it
// beside the text; a fact that does not exist is said on stderr, as the
// build says it, and the script ends with 1.

const web = new URL("..", import.meta.url).pathname;
const contentDir = process.env.CONTENT_DIR || join(web, "..", "content");
const file = process.env.MARKDOWN_FILE ?? "text.md";

try {
  const doc = renderMarkdown(readFileSync(0, "utf8"), loadFacts(contentDir), `content/${file}`);
  // The fields above the text, as the pages show them: the title, the
  // summary, the date a policy was updated.
  const { title, summary, updated, updatedText } = doc.meta;
  let head = title ? `<h1>${escape(title)}</h1>\n` : "";
  if (summary) head += `<p><strong>${escape(summary)}</strong></p>\n`;
  if (updated) head += `<p>Last updated <time datetime="${escape(updated)}">${escape(updatedText ?? updated)}</time></p>\n`;
  process.stdout.write(head + doc.html);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
