import type { MarkdownDoc } from "../lib/markdown.server";
import "./PolicyPage.css";

// A policy: title, 'last updated', a table of contents of its numbered
// sections, and the text (Markdown from content/policies, HTML at prerender time: lib/content.server.ts).
export function PolicyPage({ doc }: { doc: Pick<MarkdownDoc, "meta" | "html" | "toc"> }) {
  const sections = doc.toc.filter((t) => t.depth === 2);
  return (
    <article className="policy">
      <header className="policy__header">
        <h1>{doc.meta.title}</h1>
        <p className="policy__summary">{doc.meta.summary}</p>
        <p className="policy__updated">
          Last updated <time dateTime={doc.meta.updated}>{doc.meta.updatedText}</time>
        </p>
      </header>
      <nav className="policy__toc" aria-labelledby="policy-toc-heading">
        <h2 id="policy-toc-heading">Contents</h2>
        <ol>
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.text}</a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="policy__text prose" dangerouslySetInnerHTML={{ __html: doc.html }} />
    </article>
  );
}
