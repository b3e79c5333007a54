// Who starts a round: the engine's draw (each player a tile, highest starts, ties draw
// again) shown as tiles flipping over, one draw after another, then said.

import { reducedMotion } from "../render/flights.js";
import { codeLabel } from "../words.js";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The who-starts draw as tiles flipping over, one draw after another (ties draw
 *  again). Skipped when computer turns are instant or the player prefers less motion. */
export async function showWhoStarts(state, answer, redraw) {
  const rounds = answer.who_starts ?? [];
  if (!rounds.length || !state.delay || reducedMotion()) return;
  const mine = state.epoch;
  const starter = starterLine(answer.view);
  for (let r = 0; r < rounds.length; r++) {
    // What this draw shows, once its tiles are turned: who starts, or why they draw again.
    const outcome =
      r === rounds.length - 1
        ? starter
        : rounds[r].some((d) => d.tile.joker)
          ? "A joker: draw again"
          : "A tie: draw again";
    state.whoStarts = { round: r, draws: rounds[r], flipped: false, outcome };
    redraw();
    await sleep(200);
    state.whoStarts.flipped = true;
    redraw();
    await sleep(r === rounds.length - 1 ? 1300 : 800);
    if (mine !== state.epoch) return;
  }
  state.whoStarts = null;
  redraw();
}

/** The draw's last round in words: "Who starts: you red 9, Computer 1 blue 4. You start." */
export function whoStartsText(answer) {
  const rounds = answer.who_starts ?? [];
  const last = rounds.at(-1);
  if (!last) return null;
  const v = answer.view;
  const drew = last.map((d) => `${d.player === v.me ? "you" : v.players[d.player].name} ${codeLabel(d.tile.code)}`);
  return `Who starts: ${drew.join(", ")}. ${starterLine(v)}.`;
}

/** "You start" or "Computer 1 starts": the player to move first in ``view``. */
function starterLine(view) {
  return view.current === view.me ? "You start" : `${view.players[view.current]?.name} starts`;
}
