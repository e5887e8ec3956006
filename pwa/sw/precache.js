// The precache: every file the app needs offline, as the build lists it in /precache-manifest.json.
// The files come in groups (the app shell, Pyodide, the packed rules), each in a cache of its own
// named by the hash of its contents: topcut-precache-pyodide-<hash>. So an update fetches only what
// changed: a group whose hash is the same keeps its cache as it is, and a changed group's new cache
// copies every file whose own hash is unchanged from the caches already on the device. A CSS fix
// costs a few kilobytes; the 16 MB of Pyodide download again only with a new Pyodide.
// Groups marked `"devices": "staff"` (Pyodide and the rules) are installed only by a worker registered for a
// staff device (sw.js `?device=staff`, the page's choice: app/device.js): a player's phone installs the shell
// alone, under 1 MB, and reads the server's player view instead of running the rules.
// Which groups a worker version installed is kept in the index cache (the browser stops and restarts
// workers at will), and a version's activation deletes every precache cache it does not name.
export const PREFIX = "topcut-precache-";
const INDEX_CACHE = `${PREFIX}index`;
// Each precached response carries its content hash (the manifest's), so a later install can reuse it unread.
const HASH_HEADER = "x-topcut-hash";
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const HASH = /^[0-9a-f]{8,64}$/;

function groupCache(group) {
  return `${PREFIX}${group.name}-${group.hash}`;
}

// What a version installed, read once per worker start: {version, promise of {groups, cacheOf} or null}.
let installed = null;

function indexKey(version) {
  return `/precache-manifest.json?version=${encodeURIComponent(version)}`;
}

/**
 * The manifest as the worker uses it: `{version, groups: [{name, hash, files: [{url, hash}]}]}`.
 * A build from before groups (`{version, urls}`) is one group named by its version, with no file hashes.
 */
export function readManifest(json) {
  const bad = (why) => new Error(`precache manifest: ${why}`);
  if (Array.isArray(json?.urls) && !json.groups) {
    return readManifest({ version: json.version, groups: [{ name: "app", hash: String(json.version), files: json.urls }] });
  }
  if (!Array.isArray(json?.groups) || json.groups.length === 0) throw bad("no groups");
  const groups = json.groups.map((group) => {
    if (!NAME.test(group?.name ?? "") || !NAME.test(group?.hash ?? "") || !Array.isArray(group.files)) {
      throw bad(`a group without a name, hash or files: ${JSON.stringify(group)?.slice(0, 80)}`);
    }
    const files = group.files.map((file) => {
      const entry = typeof file === "string" ? { url: file, hash: null } : { url: file?.url, hash: file?.hash ?? null };
      if (typeof entry.url !== "string" || !entry.url.startsWith("/") || (entry.hash !== null && !HASH.test(entry.hash))) {
        throw bad(`a bad file in group ${group.name}: ${JSON.stringify(file)?.slice(0, 80)}`);
      }
      return entry;
    });
    const devices = group.devices === "staff" ? "staff" : null;
    return { name: group.name, hash: group.hash, files, devices };
  });
  return { version: String(json.version), groups };
}

async function sha256Hex(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A response to store: the body read, checked against the manifest's hash, and labelled with it. */
async function labelled(response, file) {
  const body = await response.arrayBuffer();
  if (file.hash !== null) {
    const hash = await sha256Hex(body);
    if (!hash.startsWith(file.hash)) {
      // The server's files are not the manifest's (a deploy under way): fail this install; the next
      // update check tries again. Storing it would keep wrong bytes under a hash for good.
      throw new Error(`precache ${file.url}: content ${hash.slice(0, file.hash.length)}, the manifest says ${file.hash}`);
    }
  }
  const headers = new Headers(response.headers);
  headers.delete("content-encoding");  // the body is decoded already
  headers.delete("content-length");
  if (file.hash !== null) headers.set(HASH_HEADER, file.hash);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** The same bytes from a cache already on the device, or null. */
async function reusable(file, sources) {
  if (file.hash === null) return null;
  for (const source of sources) {
    const hit = await source.match(file.url);
    if (!hit) continue;
    const hash = hit.headers.get(HASH_HEADER);
    if (hash === file.hash) return hit;
    // Stored before the responses were labelled (one cache per version): hash the bytes.
    if (hash === null) {
      const copy = await labelled(hit, file).catch(() => null);
      if (copy) return copy;
    }
  }
  return null;
}

async function download(file) {
  // `no-cache` first: the server confirms what the browser's HTTP cache holds (on a first visit the
  // page has just fetched most of Pyodide itself); bytes that are not the manifest's are fetched once
  // more past that cache (`reload`), so a stale entry the server still confirms cannot stall updates.
  for (const mode of ["no-cache", "reload"]) {
    const response = await fetch(new Request(file.url, { cache: mode }));
    if (!response.ok) throw new Error(`precache ${file.url}: HTTP ${response.status}`);
    try {
      return await labelled(response, file);
    } catch (error) {
      if (mode === "reload" || file.hash === null) throw error;
    }
  }
}

/** Fill the group's cache (kept as it is when it holds every file already); count what it took. */
async function installGroup(group, sources, counts) {
  const name = groupCache(group);
  const cache = await caches.open(name);
  const present = new Set((await cache.keys()).map((request) => new URL(request.url).pathname));
  const others = await Promise.all(sources.filter((source) => source !== name).map((source) => caches.open(source)));
  await Promise.all(group.files.map(async (file) => {
    if (present.has(file.url)) {
      counts.kept += 1;
      return;
    }
    const copy = await reusable(file, others);
    if (copy) counts.copied += 1;
    else counts.fetched += 1;
    await cache.put(file.url, copy || await download(file));
  }));
}

/**
 * Install this worker's precache from the server's manifest. The version stamped into the worker and
 * the manifest's may differ (a deploy between the two requests): the manifest says what the server
 * serves now, so it is what gets installed, and the next update check brings the worker that matches.
 */
export async function installPrecache(version, { staff = true } = {}) {
  const response = await fetch("/precache-manifest.json", { cache: "no-store" });
  if (!response.ok) throw new Error(`precache manifest: HTTP ${response.status}`);
  const full = readManifest(await response.json());
  // A player's phone: the groups every device needs, not the staff's (Pyodide, the rules).
  const manifest = { ...full, groups: full.groups.filter((group) => staff || group.devices !== "staff") };
  if (manifest.version !== version) {
    console.warn(`precache: installing the server's manifest ${manifest.version} for worker ${version}`);
  }
  const sources = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== INDEX_CACHE);
  const counts = { kept: 0, copied: 0, fetched: 0 };
  for (const group of manifest.groups) await installGroup(group, sources, counts);
  const index = await caches.open(INDEX_CACHE);
  await index.put(indexKey(version), new Response(JSON.stringify(manifest), { headers: { "content-type": "application/json" } }));
  installed = null;
  console.info(`precache ${manifest.version}: ${counts.fetched} files fetched, ${counts.copied} copied, ${counts.kept} kept`);
  return counts;
}

/** What this version installed, or null when the index lost it (storage cleared under the worker). */
function installedPrecache(version) {
  if (installed?.version !== version) {
    const promise = caches.open(INDEX_CACHE)
      .then((index) => index.match(indexKey(version)))
      .then((hit) => hit && hit.json())
      .then((json) => {
        if (!json) return null;
        const manifest = readManifest(json);
        const cacheOf = new Map(manifest.groups.flatMap((group) => group.files.map((file) => [file.url, groupCache(group)])));
        return { groups: manifest.groups, cacheOf };
      });
    installed = { version, promise };
    promise.then((found) => { if (!found && installed?.promise === promise) installed = null; },
      () => { if (installed?.promise === promise) installed = null; });
  }
  return installed.promise;
}

/** The precached response for an app path (no query), or undefined when it is not precached. */
export async function matchPrecache(path, version) {
  const precache = await installedPrecache(version);
  if (!precache) return caches.match(path);  // no index: whichever cache has it
  const name = precache.cacheOf.get(path);
  if (name) return (await caches.open(name)).match(path);
  // Not among this version's groups (a player's worker while a staff one installed beside it): any precache.
  return caches.match(path);
}

/** Drop every precache cache (and index entry) the version taking over does not name. */
export async function activatePrecache(version) {
  const precache = await installedPrecache(version);
  if (!precache) return;  // nothing to tell old from new: keep everything
  const keep = new Set([INDEX_CACHE, ...precache.groups.map(groupCache)]);
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && !keep.has(name)) await caches.delete(name);
  }
  const index = await caches.open(INDEX_CACHE);
  const current = new URL(indexKey(version), self.location.origin).href;
  for (const request of await index.keys()) {
    if (request.url !== current) await index.delete(request);
  }
}
