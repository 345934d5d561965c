// How the build compresses a text file: gzip and brotli, each at a level by
// what the file is. The best (gzip 9, brotli 11) for the code's files
// (assets/: the same for any content, so compressed once per code version,
// then taken from the cache); gzip 6 and brotli 6 for what the content
// makes (the pages, their data, the search index), which a text change
// remakes. Brotli 6 is 60× faster than 11 for 13% more bytes (about 400
// bytes a page); gzip 6 is twice as fast as 9 and as small on these pages
// (a 300-product site's: 0.45 and 0.86 ms a page, 20.2% of the bytes
// both). So its 3,300 pages compress in seconds, not minutes.
import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from "node:zlib";

export const LEVELS = { code: { gzip: 9, brotli: 11 }, content: { gzip: 6, brotli: 6 } };

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const brotliOptions = (body, quality) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
});

// zlib's asynchronous calls run on its thread pool: every core compresses
// (compress.mjs, one process).
export const gzipOf = (body, level) => gzipAsync(body, { level });
export const brotliOf = (body, quality) => brotliAsync(body, brotliOptions(body, quality));

// A page's compressed copies, at the content's levels, on the calling
// thread: the prerender's workers are a core each already, and a page is
// compressed in about a millisecond, less than the thread pool's round trip
// costs in all.
export function compressPage(body) {
  const { gzip, brotli } = LEVELS.content;
  return { gz: gzipSync(body, { level: gzip }), br: brotliCompressSync(body, brotliOptions(body, brotli)) };
}

// The files the prerender wrote and compressed, listed for compress.mjs
// (relative to build/client).
export const PRERENDERED = new URL("../build/prerendered.json", import.meta.url).pathname;
