// The service worker: after one visit the game loads and plays with no network.
// build.py writes this file to dist/sw.js with BUILD (a fingerprint of every file the
// page loads) and FILES ([path, integrity] for each) filled in. Each build gets its own
// cache; a new build installs beside the old one and takes over only when the player
// accepts the update (or every tab of the old one is closed), so a page never runs on a
// mix of old and new files.

const BUILD = "__BUILD__";
const FILES = ["__FILES__"];
const PREFIX = "rummikub-";
const CACHE = PREFIX + BUILD;

// Each file is checked with the server ("no-cache": a conditional request) rather than
// fetched again whole ("reload"): the page registers this worker once the engine has
// booted, so the browser's HTTP cache already holds the files it just loaded, and a file
// that has not changed comes back as a 304. A first visit used to download all 13 MB twice.
// Each must also have this build's bytes (its integrity value): a host still serving an
// older file for a while (a deploy not yet everywhere) fails the install, which the next
// visit tries again, rather than pinning a mix of builds in the cache for good.
self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map(([f, integrity]) => new Request(f, { cache: "no-cache", integrity }))))
      .catch((err) => caches.delete(CACHE).then(() => Promise.reject(err))),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "update") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const hit = await cache.match(request, { ignoreSearch: true });
      return hit ?? fetch(request);
    }),
  );
});
