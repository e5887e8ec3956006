// The precache: every file the app needs offline (the build lists them in
// /precache-manifest.json), in a cache named by the build's version.
export const PREFIX = "topcut-precache-";

export function cacheName(version) {
  return PREFIX + version;
}

export async function installPrecache(version) {
  const response = await fetch("/precache-manifest.json", { cache: "no-store" });
  if (!response.ok) throw new Error(`precache manifest: HTTP ${response.status}`);
  const { urls } = await response.json();
  const cache = await caches.open(cacheName(version));
  // `reload`: bypass the HTTP cache so a new version never stores an old file.
  await cache.addAll(urls.map((url) => new Request(url, { cache: "reload" })));
}

/** Drop every other version's precache (only when this version takes over). */
export async function activatePrecache(version) {
  const keep = cacheName(version);
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && name !== keep) await caches.delete(name);
  }
}
