import { Engine } from "./engine.js";
const status = document.getElementById("boot-status");
const engine = new Engine({
  onProgress: (p) => (status.textContent = `Loading engine ${p.done}/${p.total}`),
});
engine.ready.then(async (info) => {
  const r = await engine.call({ cmd: "new_game", seed: 1 });
  status.textContent = `Engine ready in ${info.timings.total} ms; pool ${r.view.pool}`;
  document.body.dataset.engine = "ready";
});
