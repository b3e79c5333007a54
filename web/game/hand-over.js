// One device passed round the table (a game of several people). When a person's turn
// ends, the page puts their rack away at once and holds the view for nobody (no rack);
// at a round's start and when a game comes back it holds that view already. The device
// goes to the person who acts next (the view's ``hand_over``): the computers' turns
// meanwhile play out on the table, and that person's view is asked for only once it is
// their turn and they have tapped. Each person's own order of their rack is kept apart.

import * as board from "../board.js";
import { landFlights } from "../render/flights.js";
import { handingOver, shared } from "../seats.js";
import { drawnNames, say, sentence } from "./narration.js";
import { keepArrangement, restoreArrangement } from "./saving.js";

/** ``turn`` checks an arrangement brought back by a reload (turn.js liveCheck);
 *  ``clock`` starts with the person's turn. */
export function createHandOver(state, engine, { redraw, clock, turn }) {
  // Each person's rack as they last ordered it, by game, round and seat (tile ids come
  // round again in every deal).
  const orders = new Map();
  const orderKey = (seat) => `${state.epoch}:${state.view.round}:${seat}`;

  /** The view to show an engine's answer with, and its news: the answer's own, or, when
   *  the device goes to another person next, the view for nobody (the acting person's
   *  rack put away before it is drawn again) and what everyone may read of the turn
   *  (the engine's ``told``: "Anna drew a tile", never the tile). */
  async function viewFor(answer) {
    const v = answer.view;
    if (!shared(v) || v.me === null || v.hand_over === null) return { view: v, handed: false };
    const nobody = await engine.call({ cmd: "view" });
    if (nobody.error) throw new Error(nobody.error);
    if (state.view?.me === v.me) {
      // The person's order: the rack as arranged, then the tiles they had laid out.
      const rest = state.turnRack.filter((id) => !state.rack.includes(id));
      orders.set(orderKey(v.me), [...state.rack, ...rest]);
    }
    state.rack = [];
    // Nor their marks: a hint's step lit table tiles the next person saw as news (the
    // computers after this turn mark theirs; the news tells only those, and this turn).
    state.highlight = new Set();
    landFlights(); // no copy of a tile of theirs is left flying
    const news = (answer.told ?? []).map(sentence).join(" ");
    return { view: nobody.view, handed: true, news };
  }

  /** The person handed the device tapped: once it is their turn (the computers before
   *  them have played), their view is asked for and their rack shown, with what happened
   *  since and what they drew at their last turn; their clock starts. */
  async function ready() {
    const v = state.view;
    if (!v || !handingOver(v) || v.current !== v.hand_over || state.busy || state.stale || state.whoStarts) return;
    const seat = v.hand_over;
    const since = state.message && state.message.kind !== "error" ? `${sentence(state.message.text)} ` : "";
    state.busy = true; // one tap asks once
    let answer;
    try {
      answer = await engine.call({ cmd: "view", seat });
    } finally {
      state.busy = false;
    }
    if (answer.error) return say(state, answer.error, "error"), redraw();
    if (state.view !== v) return; // the game moved on meanwhile (a new game, another tab)
    state.rack = orders.get(orderKey(seat)) ?? [];
    board.applyView(state, answer.view);
    const arranged = restoreArrangement(state); // a reload in the middle of this turn
    if (arranged) state.drawn = new Set();
    say(state, `${since}${greeting(answer.view, arranged)}`);
    if (arranged) await turn.liveCheck();
    if (state.rack.length) state.focus = `tile-${state.rack[0]}`;
    keepArrangement(state);
    redraw();
    clock.start();
  }

  return { viewFor, ready };
}

/** "Your turn, Anna. At your last turn you drew red 5." */
function greeting(view, arranged) {
  const name = view.players[view.me].name;
  if (arranged) return `Your turn, ${name}: the tiles you had arranged are as you left them.`;
  const drawn = view.drawn ?? [];
  return `Your turn, ${name}.${drawn.length ? ` At your last turn you drew ${drawnNames(drawn)}.` : ""}`;
}
