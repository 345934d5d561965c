// The content a render reads, and what it read of it.
//
// A render of the site runs inside a snapshot, a content folder and its
// image manifest's folder ({contentDir, generatedDir}): scripts/render-site.mjs
// runs each page's request in one (storage.run), and the accessors
// (content.server.ts, catalogue.server.ts) read that snapshot's files, each
// value made once per snapshot. So one process renders two contents, one
// after the other or at once, each from its own files. Without a snapshot
// (react-router dev, vitest) the accessors read CONTENT_DIR and
// GENERATED_DIR as they always did.
//
// Each accessor's value has a key ("product:7", "cards", "file:site.json"),
// and a render records the keys it used (its dependencies) with the hash of
// each value: a later build renders again only the pages one of whose keys
// now has another hash (render-site.mjs keeps them in an index). The
// script outside the bundle reaches all this through globalThis, the one
// thing it shares with the bundle (the hub below).
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";

/** One content: its folders, and each value made from them, with its hash. */
export type Snapshot = {
  contentDir: string;
  generatedDir: string;
  values: Map<string, unknown>;
  hashes: Map<string, string>;
};

/** One render: the snapshot it reads, the keys it used, and (render-worker.mjs) its paths and the loaders' errors. */
export type RenderStore = { snapshot: Snapshot; deps: Set<string>; prerender?: readonly string[]; errors?: unknown[] };

/** A kind of key (the text before its first ":") back to the accessor that makes its value. */
export type Accessors = Record<string, (arg: string) => unknown>;

type Hub = {
  storage: AsyncLocalStorage<RenderStore>;
  open: typeof openSnapshot;
  forget: typeof forgetSnapshot;
  hashOf: typeof hashOf;
  recompute: typeof recompute;
  accessors: Accessors;
};

// The last snapshots used, the newest last: a preview and a build may
// alternate between two or three contents.
const KEPT = 4;
const snapshots = new Map<string, Snapshot>();

// The snapshot of these folders: the one kept if it is, else a new one.
// `fresh` names a use that must read the files again (a build of a folder
// whose files may have changed since): snapshots with another are apart.
export function openSnapshot({ contentDir, generatedDir, fresh = "" }: { contentDir: string; generatedDir: string; fresh?: string }): Snapshot {
  const id = `${contentDir}\0${generatedDir}\0${fresh}`;
  let snapshot = snapshots.get(id);
  if (snapshot) snapshots.delete(id);
  else snapshot = { contentDir, generatedDir, values: new Map(), hashes: new Map() };
  snapshots.set(id, snapshot);
  for (const old of snapshots.keys()) if (snapshots.size > KEPT) snapshots.delete(old);
  return snapshot;
}

// Drops a snapshot's values: a build's are not used again once it is done.
export function forgetSnapshot({ contentDir, generatedDir, fresh = "" }: { contentDir: string; generatedDir: string; fresh?: string }) {
  snapshots.delete(`${contentDir}\0${generatedDir}\0${fresh}`);
}

const storage = new AsyncLocalStorage<RenderStore>();
const hub: Hub = (((globalThis as Record<symbol, unknown>)[Symbol.for("studio.snapshot")] as Hub | undefined) ??= {
  storage,
  open: openSnapshot,
  forget: forgetSnapshot,
  hashOf,
  recompute,
  accessors: {},
});

/** fn run as a render of snapshot: what it gave, and the keys it read. */
export async function renderIn<T>(snapshot: Snapshot, fn: () => T | Promise<T>): Promise<{ value: T; deps: string[] }> {
  const deps = new Set<string>();
  const value = await hub.storage.run({ snapshot, deps }, fn);
  return { value, deps: [...deps].sort() };
}

/** The current render's, if one runs. */
export const currentRender = (): RenderStore | undefined => hub.storage.getStore();

// Only the outermost accessor of a call records its key: a derived value
// (a product's card) is made from raw ones (the catalogue) whose keys
// would make the page depend on the whole file. Values are made
// synchronously, so one count is enough.
let making = 0;

// The value of key: made once per snapshot, and recorded in the render's
// dependencies. `unsnapshotted` makes it when no render runs (see content.server.ts).
export function recorded<T>(key: string, make: () => T, unsnapshotted: (key: string, make: () => T) => T): T {
  const render = hub.storage.getStore();
  if (!render) return unsnapshotted(key, make);
  const { values } = render.snapshot;
  if (!values.has(key)) {
    making++;
    try {
      values.set(key, make());
    } finally {
      making--;
    }
  }
  if (making === 0) render.deps.add(key);
  return values.get(key) as T;
}

// The hash of key's value in snapshot, once per snapshot (the value must
// have been made in it).
export function hashOf(snapshot: Snapshot, key: string): string {
  let hash = snapshot.hashes.get(key);
  if (hash === undefined) {
    if (!snapshot.values.has(key)) throw new Error(`snapshot: ${key} was never read in this snapshot`);
    const text = JSON.stringify(snapshot.values.get(key)) ?? "undefined";
    hash = createHash("sha256").update(text).digest("hex").slice(0, 32);
    snapshot.hashes.set(key, hash);
  }
  return hash;
}

// The hash key's value has in snapshot, made by its accessor; null when
// its kind has none or it cannot be made (a product's similar products
// once the product is gone): a key whose value is unknown has changed.
export function recompute(snapshot: Snapshot, key: string): string | null {
  const colon = key.indexOf(":");
  const accessor = hub.accessors[colon < 0 ? key : key.slice(0, colon)];
  if (!accessor) return null;
  try {
    hub.storage.run({ snapshot, deps: new Set() }, () => accessor(colon < 0 ? "" : key.slice(colon + 1)));
  } catch {
    return null;
  }
  return snapshot.values.has(key) ? hashOf(snapshot, key) : null;
}

// The accessors by kind of key, for recompute: one list (catalogue.server.ts).
export function registerAccessors(accessors: Accessors) {
  Object.assign(hub.accessors, accessors);
}
