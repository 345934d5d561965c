// The build links files from its caches (image variants, rendered pages)
// rather than copying them. A linked file shares its bytes with the
// cache, so it is never written into: it is replaced.
import { copyFile, link, readdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";

// dest becomes a link to src (a copy where no link can be made, as across
// file systems), replacing what was there.
export async function linkFile(src, dest) {
  try {
    await link(src, dest);
  } catch (err) {
    await rm(dest, { force: true });
    if (err.code === "EEXIST") await link(src, dest);
    else await copyFile(src, dest);
  }
}

// file gets body as a new file, whatever was there (perhaps a link).
export async function writeNewFile(file, body) {
  try {
    await writeFile(file, body, { flag: "wx" });
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
    await rm(file);
    await writeFile(file, body, { flag: "wx" });
  }
}

// dest becomes a link to src, replacing what was there; false (and no
// dest) when there is no src.
export async function linkIfThere(src, dest) {
  try {
    await link(src, dest);
  } catch (err) {
    if (err.code === "ENOENT") {
      await rm(dest, { force: true });
      return false;
    }
    if (err.code !== "EEXIST") throw err;
    await rm(dest);
    await link(src, dest);
  }
  return true;
}

export const DAY = 24 * 3600 * 1000;

// Deletes the entries of a cache folder that stale(stats, now) says are
// stale, at most once a day (a stamp file, .pruned, says when it last
// did): a look at each entry takes seconds when the cache is large.
export async function pruneDaily(dir, stale) {
  const stamp = join(dir, ".pruned");
  const now = Date.now();
  if (((await stat(stamp).catch(() => null))?.mtimeMs ?? 0) > now - DAY) return;
  for (const name of await readdir(dir)) {
    const file = join(dir, name);
    if (name !== ".pruned" && stale(await stat(file), now)) await rm(file, { force: true });
  }
  await writeFile(stamp, "");
}
