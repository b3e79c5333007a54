// The files the engine's worker fetches while it boots (the runtime's .wasm and standard
// library, the engine's snapshot or its wheel): counted as they arrive, for the page's
// progress; fetched once a boot; and on a first visit put into the build's offline cache
// as they arrive, so that the service worker's install need not download them again.

export class BootFiles {
  /** @param {{sizes: Map<string, number>, cache: Cache | null,
   *  onBytes: (loaded: number, bytes: number) => void}} options
   *  ``sizes``: each file's length by URL (the build's); ``cache``: where to keep them,
   *  or null (not a first visit, or no Cache Storage). */
  constructor({ sizes, cache, onBytes }) {
    this.sizes = sizes;
    this.cache = cache;
    this.onBytes = onBytes;
    this.loaded = 0; // bytes arrived
    this.bytes = 0; // bytes this boot means to fetch
    this.counted = new Map(); // url -> bytes arrived of it
    this.kept = new Map(); // url -> the put of its copy into the cache
    this.toldAt = 0; // when onBytes was last called
  }

  /** The boot will fetch ``url``: its size joins the total. */
  expect(url) {
    this.bytes += this.sizes.get(url) ?? 0;
  }

  /** The boot will not fetch the rest of ``url`` (a snapshot refused): the total loses
   *  what did not arrive. */
  forgo(url) {
    this.bytes -= (this.sizes.get(url) ?? 0) - (this.counted.get(url) ?? 0);
  }

  /** ``fetch`` for the boot: a file of the build is counted, and fetched only once (a
   *  plain boot after a refused snapshot takes the copy kept). */
  async fetch(resource, init, fetchPlain = globalThis.fetch) {
    const url = new URL(resource instanceof Request ? resource.url : resource, location.href).href.split("?")[0];
    if (!this.sizes.has(url)) return fetchPlain(resource, init);
    if (this.kept.has(url)) {
      await this.kept.get(url);
      const copy = await this.cache.match(url).catch(() => undefined);
      if (copy) return copy;
    }
    const response = this.count(url, await fetchPlain(resource, init));
    if (this.cache && response.ok) {
      // A cache that refuses (full, private mode) costs only the service worker's download.
      this.kept.set(url, this.cache.put(url, response.clone()).catch(() => {}));
    }
    return response;
  }

  /** Once every copy put into the cache is there (or refused). */
  async stored() {
    await Promise.all(this.kept.values());
  }

  /** ``response`` with its body counted as it is read. */
  count(url, response) {
    if (!response.ok || !response.body) return response;
    let told = this.loaded;
    const counter = new TransformStream({
      transform: (chunk, controller) => {
        this.loaded += chunk.byteLength;
        this.counted.set(url, (this.counted.get(url) ?? 0) + chunk.byteLength);
        // At most every 1% and 50 ms: each is a render of the page.
        if (this.loaded - told >= this.bytes / 100 && performance.now() - this.toldAt >= 50) {
          told = this.loaded;
          this.toldAt = performance.now();
          this.onBytes(this.loaded, this.bytes);
        }
        controller.enqueue(chunk);
      },
    });
    const { status, statusText, headers } = response;
    return new Response(response.body.pipeThrough(counter), { status, statusText, headers });
  }
}
