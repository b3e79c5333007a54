// The engine's home: a module Web Worker hosting Pyodide, so a thinking bot never
// freezes the page. Messages in: {id, request} (a JSON string for py_engine.bridge.call).
// Messages out: {type: "progress", stage, done, total, loaded, bytes}, {type: "ready",
// timings}, {type: "failed", message}, {id, response} (a JSON string) or {id, failure}.
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { BUILD } from "./build-info.js";

const base = new URL("../", import.meta.url);
const STAGES = ["runtime", "engine", "import"];
const t0 = performance.now();
const timings = {};

// The bytes of the files fetched while booting (build.py's sizes: the runtime's .wasm,
// its standard library, the engine's wheel), counted as they arrive. The stages alone
// left the page's progress at nothing for the whole download: over a minute on a slow
// phone link, for 12 MB of the 13.7.
const SIZES = new Map(Object.entries(BUILD.sizes ?? {}).map(([path, size]) => [new URL(path, base).href, size]));
const BYTES = [...SIZES.values()].reduce((a, b) => a + b, 0);
let loaded = 0;
let told = 0;
let done = 0; // stages done

function progress(stage) {
  const i = STAGES.indexOf(stage);
  if (i >= 0) {
    timings[stage] = Math.round(performance.now() - t0);
    done = i + 1;
  }
  told = loaded;
  postMessage({ type: "progress", stage, done, total: STAGES.length, loaded, bytes: BYTES });
}

/** ``response`` with its body counted into ``loaded`` as it is read (a progress message
 *  at most every 1% of the whole). */
function counted(response) {
  if (!response.ok || !response.body) return response;
  const counter = new TransformStream({
    transform(chunk, controller) {
      loaded += chunk.byteLength;
      if (loaded - told >= BYTES / 100) progress("download");
      controller.enqueue(chunk);
    },
  });
  const { status, statusText, headers } = response;
  return new Response(response.body.pipeThrough(counter), { status, statusText, headers });
}

async function boot() {
  progress("start");
  // Pyodide fetches with the global fetch, looked up at each call.
  const fetchPlain = globalThis.fetch;
  globalThis.fetch = async (resource, init) => {
    const response = await fetchPlain(resource, init);
    const url = new URL(resource instanceof Request ? resource.url : resource, base).href;
    return SIZES.has(url.split("?")[0]) ? counted(response) : response;
  };
  try {
    return await loadEngine();
  } finally {
    globalThis.fetch = fetchPlain;
  }
}

async function loadEngine() {
  const pyodide = await loadPyodide({
    indexURL: new URL("pyodide/", base).href,
    // A lock file with no packages: nothing is ever looked up by name (or on a CDN).
    lockFileURL: new URL("pyodide/pyodide-lock.json", base).href,
    stdout: () => {},
    stderr: (msg) => console.warn("[python]", msg),
  });
  progress("runtime");
  // By URL, not micropip: measured faster (see README) and needs no extra wheels.
  await pyodide.loadPackage(new URL(BUILD.wheel, base).href, { messageCallback: () => {} });
  progress("engine");
  const bridge = pyodide.pyimport("py_engine.bridge");
  progress("import");
  return bridge;
}

const ready = boot().then(
  (bridge) => {
    timings.total = Math.round(performance.now() - t0);
    postMessage({ type: "ready", timings, build: BUILD });
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
