import type { Section } from "../lib/markdown.server";
import { Icon } from "./Icon";
import "./Faq.css";

// Questions and answers as native <details> sharing one name: the browser
// keeps one answer open at a time, and a click on the open one closes it.
// Works with the keyboard and without JavaScript.
export function Faq({ id, title, items }: { id: string; title: string; items: Section[] }) {
  return (
    <section className="faq container" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {items.map((item) => (
        <details key={item.id} name={id} className="faq__item">
          <summary className="faq__question">
            <span>{item.title}</span>
            <Icon name="chevronDown" size={20} />
          </summary>
          <div className="faq__answer" dangerouslySetInnerHTML={{ __html: item.html }} />
        </details>
      ))}
    </section>
  );
}
