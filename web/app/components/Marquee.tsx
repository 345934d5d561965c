import "./Marquee.css";

// A line of text that scrolls sideways. Screen readers and reduced-motion
// visitors get it once, still.
export function Marquee({ text }: { text: string }) {
  return (
    <div className="marquee">
      <p className="visually-hidden">{text}</p>
      <div className="marquee__track" aria-hidden="true">
        {[0, 1].map((copy) => (
          <span key={copy} className="marquee__copy">
            {Array.from({ length: 4 }, (_, i) => (
              <span key={i} className="marquee__item">
                {text}
              </span>
            ))}
          </span>
        ))}
      </div>
    </div>
  );
}
