// Promise RPC to the engine worker. One request at a time goes to Python; the worker
// queues the rest. Every request settles: an answer that cannot be read rejects it, and
// an engine that dies (the worker's error, or Pyodide's fatal error) rejects every one
// pending and every later one until a new worker boots (restart, reboot). A call that
// runs too long can be cut off: the worker is terminated, a new one boots, and the game
// is restored from the last snapshot.

/** ``dead``: the worker can answer nothing more (only a new one can); ``unreadable``:
 *  it answered, but not in JSON (the answer is lost, the engine may be well). */
export class EngineFailure extends Error {
  constructor(message, { dead = false, unreadable = false } = {}) {
    super(message);
    this.dead = dead;
    this.unreadable = unreadable;
  }
}

export class Engine {
  /** @param {{onProgress?: (p: object) => void, onReady?: (info: object) => void,
   *  onFailed?: (err: EngineFailure) => void}} hooks */
  constructor(hooks = {}) {
    this.hooks = hooks;
    this.snapshot = null; // last {"cmd":"save"} result, used to restore after a restart
    this.start();
  }

  /** Tell ``hooks`` of the boot from now on, and at once of how far it has got (the
   *  worker may start before the page can listen: engine-start.js). */
  listen(hooks) {
    this.hooks = hooks;
    if (this.progress) hooks.onProgress?.(this.progress);
    if (this.bootInfo) hooks.onReady?.(this.bootInfo);
    if (this.failure) hooks.onFailed?.(this.failure);
  }

  /** Boot a fresh worker; `this.ready` settles when Python and the engine are loaded. */
  start() {
    // Where the worker's files come from, told by its name (worker.js): the service
    // worker's cache; the network on a first visit, when the worker keeps them for the
    // service worker's install; or the network with no service worker to keep them for.
    const sw = navigator.serviceWorker;
    const name = !sw ? "engine" : sw.controller ? "engine, cached" : "engine, first visit";
    this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module", name });
    this.pending = new Map();
    this.nextId = 1;
    this.progress = null; // the boot's last progress message
    this.bootInfo = null;
    this.failure = null; // the EngineFailure the boot failed of
    this.dead = null; // the EngineFailure this worker died of, once it has
    // Once the files it booted from are in the offline cache (or need not be).
    this.kept = new Promise((resolve) => (this.keep = resolve));
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (event) => {
        const msg = event.data;
        if (msg.type === "progress") {
          this.progress = msg;
          this.hooks.onProgress?.(msg);
        } else if (msg.type === "ready") {
          this.bootInfo = msg;
          this.hooks.onReady?.(msg);
          resolve(msg);
        } else if (msg.type === "kept") this.keep();
        else if (msg.type === "failed") reject(new EngineFailure(msg.message));
        else this.settle(msg);
      };
      this.worker.onerror = (event) => {
        event.preventDefault?.();
        const err = new EngineFailure(event.message || "The engine worker failed", { dead: true });
        reject(err);
        this.die(err);
      };
    });
    this.ready.catch((err) => {
      this.failure = err;
      this.hooks.onFailed?.(err);
    });
  }

  /** This worker answers nothing more: every request pending is rejected with ``err``,
   *  and so is every later one (call). */
  die(err) {
    this.dead ??= err;
    for (const { reject } of this.pending.values()) reject(this.dead);
    this.pending.clear();
  }

  settle(msg) {
    const entry = this.pending.get(msg.id);
    if (!entry) return;
    this.pending.delete(msg.id);
    if (msg.failure !== undefined) {
      const err = new EngineFailure(msg.failure, { dead: !!msg.fatal });
      entry.reject(err);
      if (err.dead) this.die(err);
      return;
    }
    let answer;
    try {
      answer = JSON.parse(msg.response);
    } catch (err) {
      // A bare NaN in an answer (the engine once wrote one) made JSON.parse throw here,
      // and the request never settled: a restore hung on "restoring" for good.
      entry.reject(new EngineFailure(`the engine's answer could not be read (${err.message})`, { unreadable: true }));
      return;
    }
    entry.resolve(answer);
  }

  /** Send one bridge request object; resolves to the parsed response object
   *  (which may be {"error": ...}: a refusal, not a failure). */
  call(request, { timeoutMs = 0 } = {}) {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    const worker = this.worker;
    const promise = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, request: JSON.stringify(request) });
    });
    if (!timeoutMs) return promise;
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new EngineFailure("timeout")), timeoutMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  /** Keep a restore point (the engine's own saved-game JSON). */
  async takeSnapshot() {
    const res = await this.call({ cmd: "save" });
    if (res.save !== undefined) this.snapshot = res.save;
    return this.snapshot;
  }

  /** Terminate the worker (a runaway bot), boot a new one and reload the snapshot. */
  async restart() {
    this.worker.terminate();
    for (const { reject } of this.pending.values()) reject(new EngineFailure("restarted"));
    this.start();
    await this.ready;
    if (this.snapshot !== null) return this.call({ cmd: "load", save: this.snapshot });
    return null;
  }

  /** A fresh engine with no game in it (after the old one died): a new worker booted. */
  async reboot() {
    this.snapshot = null;
    await this.restart();
  }
}
