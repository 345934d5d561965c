// `npm run prerender`: every page of the content, rendered with the server
// bundle that `npm run bundle` made, into build/client (render-site.mjs,
// renderSite: as React Router's own prerender writes them, each page
// compressed, and rendered again only when what it read changed).
//
// CONTENT_DIR: the content (default ../content); SERVER_BUILD: the server
// bundle (default build/server/index.js); GENERATED_DIR: the image
// manifest's folder (default .generated); PRERENDER_WORKERS: how many
// workers (default one a core). The page paths come from the content's
// catalogue (app/lib/paths.ts, pagePaths).
import { availableParallelism } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openRenderPool } from "./render-site.mjs";

// The prerender of the content in contentDir with the code in web, its
// lines said to log (warn: its warnings, by default to log too). pool: a
// render pool of this code to use (and leave open), else one is opened
// for this call.
export async function run({ web, contentDir, log, warn = log, pool }) {
  const started = Date.now();
  const serverBuild = resolve(process.env.SERVER_BUILD ?? join(web, "build", "server", "index.js"));
  const clientDir = join(web, "build", "client");
  const own = !pool;
  pool ??= await openRenderPool({ serverBuild, size: Number(process.env.PRERENDER_WORKERS) || availableParallelism() });
  try {
    const done = await pool.renderSite({
      web,
      contentDir,
      generatedDir: resolve(process.env.GENERATED_DIR ?? join(web, ".generated")),
      clientDir,
      pageCache: join(web, ".page-cache"),
      log,
      warn,
    });
    const pretty = (file) => relative(web, file);
    log(
      `prerender: ${done.paths} paths (pages: ${done.rendered} rendered, ${done.cached} unchanged from .page-cache), ${done.files} files (compressed) in ${pretty(clientDir)} from ${pretty(contentDir) || contentDir}, ${done.workers} workers (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    return done;
  } finally {
    if (own) await pool.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const web = fileURLToPath(new URL("..", import.meta.url));
  try {
    await run({ web, contentDir: resolve(process.env.CONTENT_DIR ?? join(web, "..", "content")), log: console.log, warn: console.warn });
  } catch (err) {
    // The content's problems, one a line, as the content check says them.
    if (!err.problems) throw err;
    for (const problem of err.problems) console.error(problem);
    process.exitCode = 1;
  }
}
