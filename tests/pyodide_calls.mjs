// Answers bridge requests inside the project's own Pyodide, under Node, as the page's
// worker does (web/worker.js): the runtime from DIST/pyodide with its slim lock file, the
// engine wheel from DIST/wheels, then py_engine.bridge.call for each request.
//
//   node tests/pyodide_calls.mjs DIST [snapshot]
//
// With "snapshot", the runtime starts from the build's memory snapshot of the engine, as
// the page's worker does when it can (the engine already imported, no wheel loaded).
//
// Each line of standard input is one request, written as a JSON string (so a request may
// hold any character). Each gets one line of output: {"reply": "..."} (the bridge's
// answer, as text), or {"threw": "...", "fatal": true|false} when the call raised in
// JavaScript instead of answering, as when the runtime dies of "Maximum call stack size
// exceeded". After a throw the runtime is loaded afresh ({"reloaded": true} is added), so
// that one death does not hide the later cases. Nothing is fetched but files in DIST.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";

const dist = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(join(dist, "pyodide", "pyodide.mjs")).href);
const wheels = readdirSync(join(dist, "wheels")).filter((name) => name.endsWith(".whl"));
if (wheels.length !== 1) throw new Error(`expected one wheel in ${dist}/wheels, found ${wheels}`);

const fromSnapshot = process.argv[3] === "snapshot";
const options = {
  indexURL: join(dist, "pyodide") + "/",
  lockFileURL: join(dist, "pyodide", "pyodide-lock.json"),
  stdout: () => {},
  stderr: () => {},
};

/** The build's snapshot, unzipped, past its header naming the build (build.py). */
function snapshotMemory() {
  const source = readFileSync(join(dist, "web", "build-info.js"), "utf8");
  const { snapshot } = JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1));
  const memory = gunzipSync(readFileSync(join(dist, snapshot.path)));
  const name = memory.subarray(0, snapshot.header).toString().trimEnd();
  if (name !== `rummikub engine snapshot ${snapshot.key}`) throw new Error(`not this build's snapshot: ${name}`);
  return memory.subarray(snapshot.header);
}

async function engine() {
  if (fromSnapshot) {
    const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshotMemory() });
    return pyodide.pyimport("py_engine.bridge");
  }
  const pyodide = await loadPyodide(options);
  await pyodide.loadPackage(join(dist, "wheels", wheels[0]), { messageCallback: () => {} });
  return pyodide.pyimport("py_engine.bridge");
}

// Pyodide reports a fatal error on the console; standard output is for our lines.
console.error = console.warn = () => {};
let bridge = await engine();
process.stdout.write(JSON.stringify({ ready: true }) + "\n");
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line) continue;
  let answer;
  try {
    answer = { reply: bridge.call(JSON.parse(line)) };
  } catch (err) {
    const message = String(err && err.message ? err.message : err).slice(0, 300);
    answer = { threw: message, fatal: Boolean(err && err.pyodide_fatal_error) };
    bridge = await engine();
    answer.reloaded = true;
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
