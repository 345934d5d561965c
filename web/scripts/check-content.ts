// `npm run check` (`make check`), the first step of `npm run build` and so
// of `make build`: every problem of content/ at once, one line each, and
// exit 1; or "content is valid".
// Run by scripts/run-ts.mjs, as the rules share the site's TypeScript (the
// facts, the {{placeholder}} filler); the warm renderer
// (scripts/renderer.mjs) imports it and calls run, or checkProblems for the
// workspace's editor.
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checkContent } from "./content-rules";

/** Every problem of the content in contentDir, one line each ("content/…: …"). */
export function checkProblems(web: string, contentDir: string): string[] {
  return checkContent(contentDir, join(web, "public"));
}

/** The build's step: throws the content's problems (error.problems), or logs that it is valid. */
export function run({ web, contentDir, log }: { web: string; contentDir: string; log: (line: string) => void }): void {
  const problems = checkProblems(web, contentDir);
  if (problems.length) {
    throw Object.assign(new Error(`${problems.length} problem(s) in the content:\n${problems.join("\n")}`), { problems });
  }
  log("content is valid");
}

// Run by scripts/run-ts.mjs (`node scripts/run-ts.mjs <this file>`), not imported.
if (resolve(process.argv[2] ?? "") === fileURLToPath(import.meta.url)) {
  const web = fileURLToPath(new URL("..", import.meta.url));
  // CONTENT_DIR: another copy of content/ (the workspace's editor checked a
  // change with it before saving, before the warm renderer did).
  const problems = checkProblems(web, process.env.CONTENT_DIR || join(web, "..", "content"));
  if (problems.length) {
    console.error(problems.join("\n"));
    process.exit(1);
  }
  console.log("content is valid");
}
