// The build links files from its caches (image variants, rendered pages)
// rather than copying them. A linked file shares its bytes with the
// cache, so it is never written into: it is replaced.
//
// These calls are synchronous: each is a system call or two of
// microseconds, and the build makes thousands (a 300-product site's pages
// and image variants); as promises, each also made a round trip through
// the thread pool that cost more than the call itself.
import { copyFileSync, linkSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { readdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";

// Deletes file if it is there.
export function removeFile(file) {
  try {
    unlinkSync(file);
  } catch (err) {
    if (err.code !== "ENOENT") throw err;
  }
}

// dest becomes a link to src (a copy where no link can be made, as across
// file systems), replacing what was there.
export function linkFile(src, dest) {
  try {
    linkSync(src, dest);
  } catch (err) {
    removeFile(dest);
    if (err.code === "EEXIST") linkSync(src, dest);
    else copyFileSync(src, dest);
  }
}

// file gets body as a new file, whatever was there (perhaps a link), with
// mode (0444, read-only, for a file the caches share).
export function writeNewFile(file, body, mode = 0o644) {
  try {
    writeFileSync(file, body, { flag: "wx", mode });
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
    unlinkSync(file);
    writeFileSync(file, body, { flag: "wx", mode });
  }
}

// dest becomes a link to src, replacing what was there; false (and no
// dest) when there is no src.
export function linkIfThere(src, dest) {
  try {
    linkSync(src, dest);
  } catch (err) {
    if (err.code === "ENOENT") {
      removeFile(dest);
      return false;
    }
    if (err.code !== "EEXIST") throw err;
    unlinkSync(dest);
    linkSync(src, dest);
  }
  return true;
}

export const DAY = 24 * 3600 * 1000;

// Deletes the entries of a cache folder that stale(stats, now, name) says
// are stale, at most once a day (a stamp file, .pruned, says when it last
// did): a look at each entry takes seconds when the cache is large.
export async function pruneDaily(dir, stale) {
  const stamp = join(dir, ".pruned");
  const now = Date.now();
  if (((await stat(stamp).catch(() => null))?.mtimeMs ?? 0) > now - DAY) return;
  for (const name of await readdir(dir)) {
    const file = join(dir, name);
    if (name !== ".pruned" && stale(await stat(file), now, name)) await rm(file, { force: true });
  }
  await writeFile(stamp, "");
}

// A file's identity and last write (device, inode, size, time of
// modification): a file whose stamp is the one it had when its SHA-256 was
// last checked or written has not been written into since (a write
// through any of its links changes its time; a new link changes only its
// ctime, which is why that is not in it).
export function stampOf(file) {
  const { dev, ino, size, mtimeNs } = statSync(file, { bigint: true });
  return `${dev}:${ino}:${size}:${mtimeNs}`;
}

// Whether a file of this stamp, read whole at now, was last written more
// than a second before: a write in the same tick of the clock as the read
// would leave its time as it was.
export function settled(stamp, now = Date.now()) {
  return BigInt(stamp.split(":")[3]) < BigInt(now - 1000) * 1_000_000n;
}
