// Answers bridge requests inside the project's own Pyodide, under Node, as the page's
// worker does (web/worker.js): the runtime from DIST/pyodide with its slim lock file, the
// engine wheel from DIST/wheels, then py_engine.bridge.call for each request.
//
//   node tests/pyodide_calls.mjs DIST
//
// Each line of standard input is one request, written as a JSON string (so a request may
// hold any character). Each gets one line of output: {"reply": "..."} (the bridge's
// answer, as text), or {"threw": "...", "fatal": true|false} when the call raised in
// JavaScript instead of answering, as when the runtime dies of "Maximum call stack size
// exceeded". After a throw the runtime is loaded afresh ({"reloaded": true} is added), so
// that one death does not hide the later cases. Nothing is fetched but files in DIST.
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const dist = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(join(dist, "pyodide", "pyodide.mjs")).href);
const wheels = readdirSync(join(dist, "wheels")).filter((name) => name.endsWith(".whl"));
if (wheels.length !== 1) throw new Error(`expected one wheel in ${dist}/wheels, found ${wheels}`);

async function engine() {
  const pyodide = await loadPyodide({
    indexURL: join(dist, "pyodide") + "/",
    lockFileURL: join(dist, "pyodide", "pyodide-lock.json"),
    stdout: () => {},
    stderr: () => {},
  });
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
