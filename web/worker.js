// The engine's home: a module Web Worker hosting Pyodide, so a thinking bot never
// freezes the page. It starts from the build's memory snapshot (Python with the engine
// already imported) when it can, else boots Python and loads the engine's wheel.
// Messages in: {id, request} (a JSON string for py_engine.bridge.call). Messages out:
// {type: "progress", stage, done, total, loaded, bytes}; {type: "ready", timings, boot,
// refused, memory}, then {type: "kept"} (the files it booted from are in the offline
// cache), or {type: "failed", message}; {id, response} (a JSON string) or {id, failure}.
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { BootFiles } from "./boot-files.js";
import { BUILD } from "./build-info.js";

const base = new URL("../", import.meta.url);
const at = (path) => new URL(path, base).href;
const STAGES = ["runtime", "engine", "import"];
const t0 = performance.now();
const timings = {};
let done = 0; // stages done
let files; // the boot's files (BootFiles)

function progress(stage) {
  const i = STAGES.indexOf(stage);
  if (i >= 0) {
    timings[stage] = Math.round(performance.now() - t0);
    done = Math.max(done, i + 1);
  }
  postMessage({ type: "progress", stage, done, total: STAGES.length, loaded: files.loaded, bytes: files.bytes });
}

const OPTIONS = {
  indexURL: at("pyodide/"),
  // A lock file with no packages: nothing is ever looked up by name (or on a CDN).
  lockFileURL: at("pyodide/pyodide-lock.json"),
  stdout: () => {},
  stderr: (msg) => console.warn("[python]", msg),
};

/** The service worker's cache for this build (sw.js), made here on a first visit (when
 *  it is not there yet): the boot's files go into it as they arrive. */
async function firstVisitCache() {
  const name = "rummikub-" + BUILD.build;
  try {
    return (await caches.has(name)) ? null : await caches.open(name);
  } catch {
    return null; // no Cache Storage here (an insecure origin, a private mode)
  }
}

async function boot() {
  const sizes = new Map(Object.entries(BUILD.sizes ?? {}).map(([path, size]) => [at(path), size]));
  // Where the files come from (engine.js names the worker so): from the service
  // worker's cache they come at once, and are not counted.
  const cached = self.name === "engine, cached";
  files = new BootFiles({
    sizes: cached ? new Map() : sizes,
    cache: self.name === "engine, first visit" ? await firstVisitCache() : null,
    onBytes: () => progress("download"),
  });
  const snapshot = BUILD.snapshot && at(BUILD.snapshot.path);
  for (const path of ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"]) files.expect(at(path));
  files.expect(snapshot || at(BUILD.wheel));
  progress("start");
  // Pyodide fetches with the global fetch, looked up at each call.
  const fetchPlain = globalThis.fetch;
  globalThis.fetch = (resource, init) => files.fetch(resource, init, fetchPlain);
  try {
    if (snapshot) {
      try {
        return { ...(await fromSnapshot(snapshot)), boot: "snapshot" };
      } catch (err) {
        // Never worse than without one: a snapshot missing, damaged, of another build or
        // refused by the runtime leaves the plain boot.
        console.warn("The engine's snapshot was not used:", err);
        files.forgo(snapshot);
        files.expect(at(BUILD.wheel));
        return { ...(await plainBoot()), boot: "plain", refused: String(err?.message ?? err) };
      }
    }
    return { ...(await plainBoot()), boot: "plain" };
  } finally {
    globalThis.fetch = fetchPlain;
  }
}

async function plainBoot() {
  const pyodide = await loadPyodide(OPTIONS);
  progress("runtime");
  // By URL, not micropip: measured faster (see README) and needs no extra wheels.
  await pyodide.loadPackage(at(BUILD.wheel), { messageCallback: () => {} });
  progress("engine");
  const bridge = pyodide.pyimport("py_engine.bridge");
  progress("import");
  return { pyodide, bridge };
}

async function fromSnapshot(url) {
  const memory = snapshotMemory(url);
  memory.catch(() => {}); // loadPyodide awaits it later; its failure is loadPyodide's
  const pyodide = await loadPyodide({ ...OPTIONS, _loadSnapshot: memory });
  // Pyodide's config would keep the snapshot's bytes (tens of MB) for good.
  if (pyodide._api?.config) pyodide._api.config._loadSnapshot = null;
  // Every page would otherwise draw the same numbers from `random`, seeded in the snapshot.
  const random = pyodide.pyimport("random");
  random.seed();
  random.destroy();
  const bridge = pyodide.pyimport("py_engine.bridge");
  // The engine answers (a request with no game: refused, as it must be).
  if (typeof JSON.parse(bridge.call('{"cmd": "view"}')).error !== "string") throw new Error("the engine does not answer");
  for (const stage of STAGES) progress(stage);
  return { pyodide, bridge };
}

/** The snapshot's memory, unzipped as it arrives, checked to be this build's. */
async function snapshotMemory(url) {
  const { key, length, header } = BUILD.snapshot;
  const response = await files.fetch(url);
  if (!response.ok) throw new Error(`the snapshot could not be fetched (HTTP ${response.status})`);
  const reader = response.body.pipeThrough(new DecompressionStream("gzip")).getReader();
  const memory = new Uint8Array(length);
  let size = 0;
  for (let chunk; !(chunk = await reader.read()).done; ) {
    if (size + chunk.value.length > length) throw new Error("the snapshot is longer than this build's");
    memory.set(chunk.value, size);
    size += chunk.value.length;
  }
  if (size !== length) throw new Error("the snapshot is shorter than this build's");
  const name = new TextDecoder().decode(memory.subarray(0, header)).trimEnd();
  if (name !== `rummikub engine snapshot ${key}`) throw new Error(`the snapshot is not this build's (${name.slice(0, 60)})`);
  return memory.subarray(header);
}

const ready = boot().then(
  ({ pyodide, bridge, boot, refused }) => {
    timings.total = Math.round(performance.now() - t0);
    // How it booted, and the runtime's memory (bytes): for benchmarks/web.py.
    const memory = pyodide._module.HEAP8.byteLength;
    postMessage({ type: "ready", timings, build: BUILD, boot, refused, memory });
    // The page registers the service worker after this, so that its install finds them.
    files.stored().then(() => postMessage({ type: "kept" }));
    return bridge;
  },
  (err) => {
    postMessage({ type: "failed", message: String(err && err.message ? err.message : err) });
    throw err;
  },
);

onmessage = async (event) => {
  const { id, request } = event.data;
  let bridge;
  try {
    bridge = await ready;
  } catch (err) {
    postMessage({ id, failure: "The engine did not start: " + err });
    return;
  }
  try {
    postMessage({ id, response: bridge.call(request) });
  } catch (err) {
    // The bridge answers every Python exception itself: a throw here is the runtime
    // failing (Pyodide's fatal error, as "Maximum call stack size exceeded"): "fatal" tells
    // the page this engine is dead, and a new one must boot (engine.js).
    postMessage({ id, failure: String(err && err.message ? err.message : err), fatal: true });
  }
};
