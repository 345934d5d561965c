import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { escapeHtml as escape, loadFacts, renderMarkdown } from "../app/lib/markdown.server";

// `MARKDOWN_FILE=pages/about.md node scripts/run-ts.mjs
// scripts/preview-markdown.ts < about.md`: one Markdown text of content/,
// rendered as the site renders it (the same renderer, the facts filled in
// from CONTENT_DIR), printed as HTML. The workspace's editor shows it
// beside the text (through the warm renderer, scripts/renderer.mjs, which
// calls previewMarkdown); a fact that does not exist is said on stderr, as
// the build says it, and the script ends with 1.

/** text, the Markdown file name of content/, as HTML; a text the build would refuse throws the build's line. */
export function previewMarkdown(text: string, contentDir: string, file: string): string {
  const doc = renderMarkdown(text, loadFacts(contentDir), `content/${file}`);
  // The fields above the text, as the pages show them: the title, the
  // summary, the date a policy was updated.
  const { title, summary, updated, updatedText } = doc.meta;
  let head = title ? `<h1>${escape(title)}</h1>\n` : "";
  if (summary) head += `<p><strong>${escape(summary)}</strong></p>\n`;
  if (updated) head += `<p>Last updated <time datetime="${escape(updated)}">${escape(updatedText ?? updated)}</time></p>\n`;
  return head + doc.html;
}

// Run by scripts/run-ts.mjs (`node scripts/run-ts.mjs <this file>`), not imported.
if (resolve(process.argv[2] ?? "") === fileURLToPath(import.meta.url)) {
  const web = fileURLToPath(new URL("..", import.meta.url));
  try {
    process.stdout.write(previewMarkdown(readFileSync(0, "utf8"), process.env.CONTENT_DIR || join(web, "..", "content"), process.env.MARKDOWN_FILE ?? "text.md"));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
