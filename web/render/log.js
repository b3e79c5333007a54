// The log region: the last lines of the game log under the message, or, opened, every
// line the engine keeps, over the table.

import { $, changed, el } from "./dom.js";
import { richText } from "./tile-elements.js";

/** Is the whole game log on show? (Opened, and with lines: an empty log is hidden.) */
export function logShown(state) {
  return state.logOpen && (state.view?.log.length ?? 0) > 0;
}

// Shut, the log shows its last lines (the last one alone on a phone); open, every line
// the engine keeps (50), scrolled to the newest, over the table so the rack stays put.
export function renderLog(state) {
  const log = $("log");
  // A computer's play being revealed is told once its tiles are down (game/computers.js).
  let lines = state.logHeld && state.showing ? state.logHeld : state.view.log;
  // While the who-starts draw is on show, the round's first line ("Round 2: You start")
  // would tell its outcome: it waits, and the line says what is going on instead.
  if (state.whoStarts && lines.length) lines = [...lines.slice(0, -1), lines.at(-1).replace(/:.*$/, ": who starts?")];
  const open = logShown(state);
  const wasOpen = log.classList.contains("open");
  // Read only when open: the scroll position forces a layout in the middle of a render,
  // and every render (each tile of a computer's reveal) read it, and rebuilt the lines.
  const atEnd = wasOpen && log.scrollTop + log.clientHeight >= log.scrollHeight - 2;
  const shown = open ? lines : lines.slice(-3);
  // A render that does not change the lines leaves them be.
  if (changed("log", shown.join("\n"))) log.replaceChildren(...shown.map((line) => el("li", {}, richText(line))));
  log.classList.toggle("open", open);
  // Its newest line says what the message says (a computer's move, the summary of the
  // computers' turns): on a phone, where the shut log shows only that line right under
  // the message, it is not shown twice (style.css).
  const newest = lines.at(-1)?.toLowerCase() ?? "";
  log.classList.toggle("echo", !!newest && (state.message?.text ?? "").toLowerCase().includes(newest));
  $("log-box").classList.toggle("open", open);
  $("log-box").hidden = !lines.length;
  const toggle = $("log-toggle");
  toggle.setAttribute("aria-expanded", String(open));
  toggle.title = open ? "Show only the last lines" : "Show the earlier lines too";
  if (open && (!wasOpen || atEnd)) log.scrollTop = log.scrollHeight;
}
