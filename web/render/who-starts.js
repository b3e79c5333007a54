// The who-starts draw, over the table at a round's start: each player's tile face down,
// then turned, then what it decided ("You start", "A tie: draw again").

import { nameOf } from "../seats.js";
import { $, el } from "./dom.js";
import { tileElement } from "./tile-elements.js";

export function renderWhoStarts(state) {
  const box = $("who-starts");
  const w = state.whoStarts;
  box.hidden = !w;
  if (!w) {
    box.dataset.round = "";
    box.replaceChildren(); // its tiles go back into the deal: none kept out of sight
    return;
  }
  const v = state.view;
  if (box.dataset.round !== String(w.round)) {
    box.dataset.round = String(w.round);
    box.replaceChildren(
      el("p", { class: "who-title", text: w.round ? "Drawing again" : "Highest tile starts" }),
      ...w.draws.map((d) =>
        el("div", { class: "who-row" }, [
          el("span", { class: "who-name", text: nameOf(v, d.player) }),
          el("span", { class: "flip" }, [
            el("span", { class: "flip-back" }),
            el("span", { class: "flip-front" }, [tileElement(d.tile)]),
          ]),
        ]),
      ),
      el("p", { class: "who-outcome" }),
    );
  }
  for (const flip of box.querySelectorAll(".flip")) flip.classList.toggle("flipped", w.flipped);
  // Said once the tiles are turned, not before: the draw's outcome is its news.
  box.querySelector(".who-outcome").textContent = w.flipped ? w.outcome : "";
  placeOverTable(box);
}

/** The panel over the table, centred on it, its foot no lower than the table's (one
 *  taller rises over the players' cards): a third of the way down the screen, it covered
 *  the message, the log line and "Game log" on a 360 px phone. Measured only while it is
 *  on show (a few renders a round). */
function placeOverTable(box) {
  const table = $("table");
  const foot = table.offsetTop + table.offsetHeight;
  const middle = table.offsetTop + (table.offsetHeight - box.offsetHeight) / 2;
  box.style.top = `${Math.max(0, Math.min(middle, foot - box.offsetHeight))}px`;
  box.style.left = `${table.offsetLeft + table.offsetWidth / 2}px`;
}
