// The engine's boot, in the top bar: how far its download and start have got, then
// ready (or failed). Also says how far it is on Start Game, pressed before it is ready.

import { $, setAttr } from "./dom.js";

/** How far the engine's boot is, 0-100: the download of its files (by bytes, as the
 *  worker counts them) up to 85, then 5 for each stage after (runtime, engine, import). */
export function bootPercent(b) {
  if (b.ready) return 100;
  const download = b.bytes ? Math.min(1, b.loaded / b.bytes) : 0;
  return Math.max(Math.floor(85 * download), b.done ? 85 + Math.round((15 * b.done) / b.total) : 0);
}

export function renderBoot(state) {
  const b = state.boot;
  const text = $("boot-text");
  const bar = $("boot-progress");
  const percent = bootPercent(b);
  bar.max = 100;
  bar.value = percent;
  const megabytes = (n) => (n / 1e6).toFixed(1);
  const downloading = b.bytes && b.loaded < b.bytes && !b.done;
  const said = b.failed
    ? `The engine failed to start: ${b.failed}`
    : b.ready
      ? "Engine ready" // how long it took is in the boot's title (a player needs no timing)
      : `Loading the game engine… ${percent}%` + (downloading ? ` (${megabytes(b.loaded)} of ${megabytes(b.bytes)} MB)` : "");
  // A live region: written only when it changes (each render replaced its text, which
  // some screen readers read out again), and not read out while the count goes up (the
  // bar holds it): its first words, then that it is ready or failed.
  if (text.textContent !== said) text.textContent = said;
  setAttr(text, "title", b.ready && b.ms !== null ? `Loaded in ${(b.ms / 1000).toFixed(1)} s` : null);
  $("boot").setAttribute("aria-live", b.ready || b.failed ? "polite" : "off");
  // On a phone the sentence gives way to the figure.
  $("boot-short").textContent = b.ready || b.failed ? "" : `${percent}%`;
  // Start Game pressed before the engine is ready says how far it is.
  const start = $("start-game");
  if (start.dataset.waiting && !b.ready) start.textContent = `Waiting for the engine… ${percent}%`;
  $("boot").classList.toggle("ready", b.ready);
  document.body.dataset.engine = b.failed ? "failed" : b.ready ? "ready" : "booting";
}
