// Hints: the engine's best play from the table as the turn began, said in words, then
// laid out one set at a time with Next Step (each step undone like a move). The play is
// the engine's; this only lays out the table it gave.

import * as board from "../board.js";
import { isMyTurn } from "../state.js";
import { say, tileName } from "./narration.js";

// How long Hint may look before the message says it is looking.
const HINT_PATIENCE_MS = 250;
const HINT_SLIDE_MS = 300; // a hint's step, a set made at once: a little slower

/** ``turn`` is the turn in progress (turn.js): a step is a change of it. */
export function createHints(state, engine, { redraw, turn }) {
  /** Ask the engine for the best play from the table as it was at the start of the
   *  turn; it is shown, and "Next Step" lays it out one set at a time (each step
   *  can be undone), first putting back rack tiles the hint does not use. */
  async function hint() {
    // A second press while the engine looks is the same request (two searches went).
    if (!isMyTurn(state) || state.hinting) return;
    state.hinting = true;
    // A search that takes a while says so (a second or more with wrap-around runs,
    // several on a slow phone); a quick one would only flicker.
    const slow = setTimeout(() => {
      if (state.hinting) say(state, "Looking for the best play…", "hint"), redraw();
    }, HINT_PATIENCE_MS);
    redraw();
    let answer;
    try {
      answer = await engine.call({ cmd: "hint" });
    } finally {
      clearTimeout(slow);
      state.hinting = false;
    }
    if (!isMyTurn(state)) return redraw(); // the turn ended meanwhile (its clock)
    if (answer.error) return say(state, answer.error, "error"), redraw();
    if (!answer.table) {
      say(state, "No play found from your rack: draw a tile.");
      state.hintIds = new Set();
      state.hint = null;
    } else {
      showHint(answer);
    }
    redraw();
  }

  function showHint(answer) {
    const name = (id) => tileName(state, id);
    state.hintIds = new Set(answer.placed);
    state.hint = { table: answer.table, placed: answer.placed };
    // The computers' last plays are no longer marked: kept, they read as part of the
    // hint (QA pass 31). The log and the message's summary still tell them.
    state.highlight = new Set();
    const strays = board.hintStrays(state, answer.table);
    const back = strays.length
      ? ` It does not use ${strays.map(name).join(", ")}: the first step puts ${strays.length === 1 ? "it" : "them"} back on your rack.`
      : "";
    // The engine tells the play in words: "lay R10 B10 Y10 and add K7 to K4 K5 K6".
    // What to do next comes before the tiles' names, which a long hint may push past
    // the message's two lines.
    // The tiles in the order the engine's words name them (its ``placed``).
    say(state, `Hint: ${answer.said}.${back} Use Next Step to lay it out.`, "hint", ` (${answer.placed.map(name).join(", ")})`);
  }

  /** Lay out the hint's next set (or first put back the rack tiles it does not use). */
  function hintStep() {
    if (!isMyTurn(state) || !state.hint) return;
    // The step's tiles fly from where they were, the tiles they push aside with them.
    turn.sliding(() => {
      const hint = state.hint;
      const before = board.snapshot(state);
      const step = board.hintStep(state, hint.table);
      if (!step) {
        state.hint = null;
        say(state, "That is the whole hint: Confirm Play to play it.", "hint");
        redraw();
        return;
      }
      const stepTiles = step.returned ?? state.table[step.built];
      state.undo.push({ ...before, told: { id: stepTiles[0], kind: "step" } });
      state.highlight = new Set(stepTiles);
      if (!step.returned) {
        // The set it laid is read out with the engine's verdict, as a move is.
        state.reveal = stepTiles[0];
        state.revealKind = "step";
      }
      turn.changed();
      afterStep(hint, step);
      redraw();
    }, HINT_SLIDE_MS);
  }

  /** What a step says: the whole hint laid out, or the tiles it put back. */
  function afterStep(hint, step) {
    if (board.hintDone(state, hint.table)) {
      state.hint = null;
      say(state, "The hint is laid out: Confirm Play to play it.", "hint");
    } else if (step.returned) {
      const names = step.returned.map((id) => tileName(state, id)).join(", ");
      say(state, `${names} went back to your rack: the hint does not use ${step.returned.length === 1 ? "it" : "them"}.`, "hint");
    }
  }

  return { hint, hintStep };
}
