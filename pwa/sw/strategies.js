// Caching strategies, by kind of request:
//   app files (precached)     cache first, from the group cache the version installed them in
//                             (precache.js); updates come with a new worker
//   page navigations          the cached app shell ("/"): the router reads the hash
//   public read-only API      network first, the last answer when offline (public standings, league tables)
//   the rest of the API       network only: the outbox and sync client handle being offline
import { matchPrecache } from "./precache.js";

const PUBLIC_API = /^\/api\/(events\/[^/]+\/(public|pairings|standings)|leagues\/[^/]+\/table)$/;
const RUNTIME_CACHE = "topcut-runtime";

async function cacheFirst(request, path, version) {
  const hit = await matchPrecache(path, version);  // the query is ignored
  return hit || fetch(request);
}

async function appShell(version) {
  const hit = await matchPrecache("/", version);
  return hit || fetch("/");
}

async function networkFirst(request) {
  const cache = await caches.open(RUNTIME_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const hit = await cache.match(request);
    if (hit) return hit;
    throw error;
  }
}

/** A Promise<Response> for requests the worker handles, or null to let the browser fetch. */
export function handleFetch(request, version) {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return null;
  if (request.mode === "navigate" && (url.pathname === "/" || url.pathname === "/index.html")) {
    return appShell(version);
  }
  if (url.pathname.startsWith("/api/")) {
    return PUBLIC_API.test(url.pathname) ? networkFirst(request) : null;
  }
  if (url.pathname === "/precache-manifest.json" || url.pathname === "/pwa/sw.js") return null;
  return cacheFirst(request, url.pathname, version);
}
