// Promise RPC to the engine worker. One request at a time goes to Python; the worker
// queues the rest. A call that runs too long can be cut off: the worker is terminated,
// a new one boots, and the game is restored from the last snapshot.

export class EngineFailure extends Error {}

export class Engine {
  /** @param {{onProgress?: (p: object) => void, onReady?: (info: object) => void}} hooks */
  constructor(hooks = {}) {
    this.hooks = hooks;
    this.snapshot = null; // last {"cmd":"save"} result, used to restore after a restart
    this.start();
  }

  /** Boot a fresh worker; `this.ready` settles when Python and the engine are loaded. */
  start() {
    this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    this.pending = new Map();
    this.nextId = 1;
    this.bootInfo = null;
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (event) => {
        const msg = event.data;
        if (msg.type === "progress") this.hooks.onProgress?.(msg);
        else if (msg.type === "ready") {
          this.bootInfo = msg;
          this.hooks.onReady?.(msg);
          resolve(msg);
        } else if (msg.type === "failed") reject(new EngineFailure(msg.message));
        else this.settle(msg);
      };
      this.worker.onerror = (event) => {
        event.preventDefault?.();
        const err = new EngineFailure(event.message || "The engine worker failed to load");
        reject(err);
        for (const { reject: fail } of this.pending.values()) fail(err);
        this.pending.clear();
      };
    });
    this.ready.catch(() => {}); // reported through the promise to whoever awaits it
  }

  settle(msg) {
    const entry = this.pending.get(msg.id);
    if (!entry) return;
    this.pending.delete(msg.id);
    if (msg.failure !== undefined) entry.reject(new EngineFailure(msg.failure));
    else entry.resolve(JSON.parse(msg.response));
  }

  /** Send one bridge request object; resolves to the parsed response object
   *  (which may be {"error": ...}: a refusal, not a failure). */
  call(request, { timeoutMs = 0 } = {}) {
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
}
