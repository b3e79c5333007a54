// The turn clock: a deadline in the state, a ticker that redraws the countdown and,
// once it has passed and the player is free to act, says time is up (``onTimeout``:
// the engine then ends the turn). The deadline is also kept in the browser, so a reload
// mid-turn does not wind the clock back to full time.

import { renderClock } from "../render/scoreboard.js";
import { handingOver } from "../seats.js";
import { isMyTurn } from "../state.js";
import { keepDeadline, keepStandingStill, keptDeadline, turnKey } from "./saving.js";

export function createClock(state, onTimeout) {
  let timer = null;
  // A dialog the player opened is up (How To Play, Resign's question...): the clock
  // stands still meanwhile. It ran on under How To Play, and the turn timed out there.
  let held = false;

  /** The clock stops (and its countdown goes). */
  function stop() {
    clearInterval(timer);
    timer = null;
    state.clock = null;
    renderClock(state);
  }

  /** The clock starts on the player's turn, in a game with a turn clock, from the
   *  deadline kept for this very turn if any (else full time); standing still while a
   *  dialog the player opened is up. */
  function start() {
    stop();
    const view = state.view;
    if (view?.round_over) keepDeadline(null);
    // Handed over, no clock runs: a person's kept from before a reload (it lands here)
    // waits with the time it had for their tap. Its deadline went by under the hand-over.
    if (view && handingOver(view)) keepStandingStill();
    const seconds = view?.rules?.turn_seconds;
    if (!seconds || !isMyTurn(state) || state.screen !== "game") return;
    const turn = turnKey(view);
    const full = Date.now() + seconds * 1000;
    const deadline = Math.min(keptDeadline(turn) ?? full, full);
    keepDeadline({ turn, deadline });
    state.clock = { deadline, turn: view.turn, key: turn, left: null };
    if (held) return standStill();
    run();
  }

  function run() {
    renderClock(state);
    timer = setInterval(tick, 250);
  }

  // The time left is what is kept (in the state and the browser) while it stands still,
  // so it runs on from there, a reload included, not from a deadline that went by.
  function standStill() {
    const clock = state.clock;
    clearInterval(timer);
    timer = null;
    clock.left = Math.max(0, clock.deadline - Date.now());
    keepDeadline({ turn: clock.key, left: clock.left });
    renderClock(state);
  }

  /** A dialog the player opened is up (true) or shut (false): the clock stands still
   *  with the time it had, then runs on from it. */
  function hold(on) {
    held = on;
    const clock = state.clock;
    if (!clock) return;
    if (on && clock.left === null) standStill();
    if (!on && clock.left !== null) {
      clock.deadline = Date.now() + clock.left;
      clock.left = null;
      keepDeadline({ turn: clock.key, deadline: clock.deadline });
      run();
    }
  }

  /** The player leaves the game for the start screen: the clock stops with the time it
   *  had left, and ``start`` runs it on from there when they come back. */
  function pause() {
    if (state.clock && state.clock.left === null) standStill();
    stop();
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

  return { start, stop, hold, pause };
}
