// How the player's turn ends: Confirm Play (the engine plays it or says why not), Draw
// (or Pass on an empty pool), or the turn clock running out. Each sends the turn to the
// engine and settles its answer (computers.js): the computers then play.

import * as board from "../board.js";
import { flyFromPool, reducedMotion } from "../render/flights.js";
import { isMyTurn } from "../state.js";
import { drawNews, say, timeoutNews } from "./narration.js";

/** ``settle(answer, what, shown)`` takes the engine's answer (computers.js); ``clock``
 *  is the turn clock (clock.js). */
export function createTurnEnd(state, engine, { redraw, settle, clock }) {
  /** Confirm Play: true when played; refused, the message says why (the engine's words). */
  async function confirm() {
    if (!isMyTurn(state)) return;
    const table = state.table.map((s) => s.slice());
    const pressed = document.activeElement;
    state.busy = true;
    redraw();
    const answer = await engine.call({ cmd: "play", table });
    state.busy = false;
    if (answer.error) {
      refused(answer);
      redraw();
      // Confirm Play was disabled only while the engine checked (the focus went to the
      // rack): a refused play gives it back, so the player is where they pressed.
      if (pressed?.id === "confirm" && !pressed.disabled) pressed.focus();
      return false;
    }
    clock.stop();
    state.highlight = new Set();
    await settle(answer, answer.view.log.at(-1));
    return true;
  }

  function refused(answer) {
    state.refused = { message: answer.error, errors: answer.errors ?? [] };
    // After the colon the engine's sentence goes on in lower case ("Not played: your
    // opening totals 39 points…"); a set's name ("Set 2: …", as the page names it
    // everywhere) and a tile code stay as they are.
    say(state, `Not played: ${answer.error.replace(/^(?!Set \d)[A-Z](?=[a-z])/, (c) => c.toLowerCase())}`, "error");
  }

  /** Draw one tile (or pass when the pool is empty); the arrangement is put back,
   *  and the player is told so. */
  async function draw() {
    if (!isMyTurn(state)) return;
    const arranged = board.isTouched(state);
    state.busy = true;
    redraw();
    const answer = await engine.call({ cmd: "draw" });
    state.busy = false;
    clock.stop();
    if (answer.error) return settle(answer);
    if (arranged) board.resetTurn(state); // each tile back at its place, not the rack's end
    const drawn = answer.view.drawn;
    const fly = reducedMotion() ? null : () => flyFromPool(drawn.map((t) => t.id), 400);
    return settle(answer, drawNews(arranged, drawn), fly);
  }

  /** The clock ran out: the engine draws, plays a legal arrangement, or snaps the
   *  table back with penalty tiles; the player is told which. */
  async function timeout() {
    if (!isMyTurn(state)) return;
    const touched = board.isTouched(state);
    state.busy = true;
    redraw();
    const answer = await engine.call({ cmd: "timeout", table: touched ? state.table : null, touched });
    state.busy = false;
    if (answer.error) return settle(answer);
    const event = answer.events?.find((e) => e.type === "timeout") ?? {};
    // Snapped back, each tile goes to its place on the rack as Reset Turn puts it (the
    // new view keeps the rack's order, and put them at its end), the penalty after them.
    if (event.outcome === "penalty") board.resetTurn(state);
    state.highlight = new Set();
    return settle(answer, timeoutNews(event));
  }

  return { confirm, draw, timeout };
}
