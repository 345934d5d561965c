// The heading and short introduction a page opens with.
export function PageIntro({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="page-intro">
      <h1>{title}</h1>
      <p>{children}</p>
    </div>
  );
}
