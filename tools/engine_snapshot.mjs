// Run by build.py under Node: boots the pinned Pyodide runtime, puts the engine's wheel
// into site-packages, imports py_engine.bridge and writes Pyodide's memory snapshot, from
// which the page's worker starts in a fraction of a plain boot (docs/architecture.md).
//
//     node tools/engine_snapshot.mjs <dist/pyodide/> <engine wheel> <out file>
//
// Nothing of a game is in it: only modules imported, no bridge call made.
import nodeCrypto from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [runtime, wheel, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node tools/engine_snapshot.mjs <pyodide dir> <wheel> <out file>");
  process.exit(2);
}
const indexURL = resolve(runtime) + "/";
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);

// A fixed hash seed, fixed entropy (the runtime draws it from Node's randomFillSync) and
// a fixed clock make the snapshot the same bytes on every build of the same inputs. In
// the page, the worker reseeds `random` once the snapshot is loaded, and os.urandom asks
// the browser.
nodeCrypto.randomFillSync = (view) => view.fill(0);
let tick = 0;
Date.now = () => 1e12 + tick++;
performance.now = () => tick++;
const pyodide = await loadPyodide({
  indexURL,
  lockFileURL: indexURL + "pyodide-lock.json",
  env: { PYTHONHASHSEED: "0" },
  // The program's name as a browser has it, not this script's path (which would put
  // where the build ran into the snapshot, and so into its bytes).
  _sysExecutable: "./this.program",
  stdout: () => {},
  _makeSnapshot: true,
});
pyodide.FS.writeFile("/tmp/engine.whl", readFileSync(wheel));
// Unzipped from Python, not loadPackage: loadPackage keeps JavaScript references that
// makeMemorySnapshot refuses ("Unexpected hiwire entry").
pyodide.runPython(`
import site, zipfile
with zipfile.ZipFile("/tmp/engine.whl") as wheel:
    wheel.extractall(site.getsitepackages()[0])
import py_engine.bridge
del site, zipfile, wheel
import gc
gc.collect()
del gc
`);
zeroFreeMemory(pyodide._module);
writeFileSync(out, pyodide.makeMemorySnapshot());

/** Zero the heap's free chunks, which hold what was freed (the wheel read and unzipped,
 *  the engine's source compiled): the snapshot then zips 13% smaller (5.4 MB, not 6.3).
 *  Every free chunk is allocated (never growing the memory: a footprint limit), zeroed,
 *  and freed again. */
function zeroFreeMemory(module) {
  const limit = module._malloc_footprint_limit();
  module._malloc_set_footprint_limit(module._malloc_footprint());
  const chunks = [];
  for (let size = 1 << 24; size >= 16; size >>= 1) {
    for (let at; (at = module._malloc(size)); chunks.push(at)) module.HEAPU8.fill(0, at, at + size);
  }
  chunks.forEach((at) => module._free(at));
  module._malloc_set_footprint_limit(limit);
}
