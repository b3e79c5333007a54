// The turn clock: a deadline in the state, a ticker that redraws the countdown and,
// once it has passed and the player is free to act, says time is up (``onTimeout``:
// the engine then ends the turn). The deadline is also kept in the browser, so a reload
// mid-turn does not wind the clock back to full time.

import { renderClock } from "../render/scoreboard.js";
import { isMyTurn } from "../state.js";
import { keepDeadline, keptDeadline, turnKey } from "./saving.js";

export function createClock(state, onTimeout) {
  let timer = null;

  /** The clock stops (and its countdown goes). */
  function stop() {
    clearInterval(timer);
    timer = null;
    state.clock = null;
    renderClock(state);
  }

  /** The clock starts on the player's turn, in a game with a turn clock, from the
   *  deadline kept for this very turn if any (else full time). */
  function start() {
    stop();
    const view = state.view;
    if (view?.round_over) keepDeadline(null);
    const seconds = view?.rules?.turn_seconds;
    if (!seconds || !isMyTurn(state) || state.screen !== "game") return;
    const turn = turnKey(view);
    const full = Date.now() + seconds * 1000;
    const deadline = Math.min(keptDeadline(turn) ?? full, full);
    keepDeadline({ turn, deadline });
    state.clock = { deadline, turn: view.turn };
    renderClock(state);
    timer = setInterval(tick, 250);
  }

  // Only the countdown is drawn at a tick (the rest of the page is as it was).
  function tick() {
    const clock = state.clock;
    if (!clock || state.view?.turn !== clock.turn || state.screen !== "game") return stop();
    renderClock(state);
    if (Date.now() >= clock.deadline && isMyTurn(state)) {
      stop();
      onTimeout();
    }
  }

  return { start, stop };
}
