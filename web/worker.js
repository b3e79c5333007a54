// The engine's home: a module Web Worker hosting Pyodide, so a thinking bot never
// freezes the page. Messages in: {id, request} (a JSON string for py_engine.bridge.call).
// Messages out: {type: "progress", stage, done, total}, {type: "ready", timings},
// {type: "failed", message}, {id, response} (a JSON string) or {id, failure}.
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { BUILD } from "./build-info.js";

const base = new URL("../", import.meta.url);
const STAGES = ["runtime", "engine", "import"];
const t0 = performance.now();
const timings = {};

function progress(stage) {
  timings[stage] = Math.round(performance.now() - t0);
  postMessage({ type: "progress", stage, done: STAGES.indexOf(stage) + 1, total: STAGES.length });
}

async function boot() {
  postMessage({ type: "progress", stage: "start", done: 0, total: STAGES.length });
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
    postMessage({ id, failure: String(err && err.message ? err.message : err) });
  }
};
