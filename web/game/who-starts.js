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

/** The whole draw in words, each draw made again after what made it so: "Who starts:
 *  you red 11, Computer 1 a joker; Computer 1 drew again: blue 2. You start." (Only the
 *  last draw was told, which can leave out the player's own tile.) */
export function whoStartsText(answer) {
  const rounds = answer.who_starts ?? [];
  if (!rounds.length) return null;
  const v = answer.view;
  const who = (d) => (d.player === v.me ? "you" : v.players[d.player].name);
  const tile = (d) => (d.tile.joker ? "a joker" : codeLabel(d.tile.code));
  const told = rounds.map((draw, r) => {
    if (!r) return draw.map((d) => `${who(d)} ${tile(d)}`).join(", ");
    // Who drew again, and why: a joker (its drawer alone) or a tie for the highest.
    const why = rounds[r - 1].some((d) => d.tile.joker) ? "" : "a tie, ";
    const tiles = draw.length === 1 ? tile(draw[0]) : draw.map((d) => `${who(d)} ${tile(d)}`).join(", ");
    return `${why}${draw.map(who).join(" and ")} drew again: ${tiles}`;
  });
  return `Who starts: ${told.join("; ")}. ${starterLine(v)}.`;
}

/** "You start" or "Computer 1 starts": the player to move first in ``view``. */
function starterLine(view) {
  return view.current === view.me ? "You start" : `${view.players[view.current]?.name} starts`;
}
