// content/*.md files are turned into HTML at build time (scripts/markdown.ts).
declare module "*.md" {
  const doc: import("../scripts/markdown").MarkdownDoc;
  export default doc;
}
