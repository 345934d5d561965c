// `npm run check` (`make check`), the first step of `npm run build` and so
// of `make build`: every problem of content/ at once, one line each, and
// exit 1; or "content is valid".
// Run by scripts/run-ts.mjs, as the rules share the site's TypeScript (the
// facts, the {{placeholder}} filler).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkContent } from "./content-rules";

const web = fileURLToPath(new URL("..", import.meta.url));
// CONTENT_DIR: another copy of content/ (the workspace's editor checks a
// change before saving it).
const problems = checkContent(process.env.CONTENT_DIR || join(web, "..", "content"), join(web, "public"));
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log("content is valid");
