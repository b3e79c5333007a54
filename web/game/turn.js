// The turn in progress: the player's moves of their tiles (pick up, put down, drag,
// split a set, nudge, return to the rack), Undo, Reset Turn and sorting the rack. Each
// move changes the arrangement (board.js), is kept for Undo and in the browser, is told
// (narration.js), and asks the engine to check the table (liveCheck): legality is only
// ever the engine's answer.

import * as board from "../board.js";
import { reducedMotion, slideFrom, tileSpots } from "../render/flights.js";
import { isMyTurn } from "../state.js";
import { news, say, tellMove, tileName, withTotal } from "./narration.js";
import { keepArrangement } from "./saving.js";

const SLIDE_MS = 220; // a tile moved by a tap, a key or a button slides to its place

/** The turn's verbs over ``state``; ``redraw`` renders, ``failed`` reports an engine
 *  failure. */
export function createTurn(state, engine, { redraw, failed }) {
  let checkSeq = 0;

  /** Ask the engine to check the arrangement; the newest answer wins. */
  async function liveCheck() {
    const seq = ++checkSeq;
    if (!isMyTurn(state) || !board.isTouched(state)) {
      state.check = null;
      if (state.reveal !== null && isMyTurn(state)) tellMove(state, news(state, state.reveal));
      state.reveal = null;
      return;
    }
    const table = state.table.map((s) => s.slice());
    try {
      const answer = await engine.call({ cmd: "check", table });
      if (seq !== checkSeq) return;
      if (!answer.error) {
        state.check = answer;
        if (state.reveal !== null) tellMove(state, news(state, state.reveal));
        redraw(); // the set's note may have grown: the set just changed is shown again
      }
    } finally {
      // Even when the engine fails, the set is shown once, not on every later redraw.
      if (seq === checkSeq) state.reveal = null;
    }
  }

  /** After every change of the arrangement: kept, the last refusal and message gone,
   *  checked by the engine, drawn. */
  function changed() {
    keepArrangement(state);
    state.refused = null;
    // A message is news of the moment it was said: the next move clears it, except a
    // hint's guidance while the hint is being laid out.
    if (state.message && !(state.message.kind === "hint" && state.hint)) say(state, null);
    // The check is asked for before the redraw: a table back as the turn began (Undo)
    // drops the last arrangement's check at once, so its "not valid" is not drawn.
    const checking = liveCheck();
    redraw();
    checking.catch(failed);
  }

  /** Tiles the player moves by a tap, a key or a button slide from where they were to
   *  their new places (render/flights.js ``slideFrom``); ``still``, the dragged tiles,
   *  do not. */
  function sliding(change, ms = SLIDE_MS, still = null) {
    const spots = reducedMotion() || !state.view ? null : tileSpots([...state.rack, ...state.table.flat()]);
    const result = change();
    if (spots) slideFrom(spots, ms, still);
    return result;
  }

  /** What every move of a tile (or split of its set, or of several tiles together,
   *  ``group``) ends with: the arrangement before it kept for Undo (one step), the tiles
   *  let go, the first focused, its set scrolled into view and told. */
  function moved(id, before, kind = "move", group = [id]) {
    state.undo.push({ ...before, told: { id, kind, ...(kind === "group" ? { ids: group } : {}) } });
    // The other tiles of the sets they came from (their news says if one is left not
    // valid).
    state.revealFrom = before.table.filter((row) => group.some((t) => row.includes(t))).flat().filter((t) => !group.includes(t));
    state.revealGroup = group;
    state.selected = null;
    state.chosen = [];
    state.highlight = new Set();
    state.drawn = new Set();
    // A move of the player's own ends the hint (``move``): its outlines go with it (a tap
    // took them off, a drag left them on).
    state.hintIds = new Set();
    state.focus = `tile-${id}`;
    state.reveal = id;
    state.revealKind = kind;
    changed();
  }

  /** Pick up a tile (tap or keyboard), or put it down when it is picked up already. */
  function select(id) {
    if (!board.canMove(state, id)) return;
    state.selected = state.selected === id ? null : id;
    state.hintIds = new Set();
    state.focus = `tile-${id}`;
    redraw();
  }

  function deselect() {
    if (state.selected === null) return;
    state.focus = `tile-${state.selected}`;
    state.selected = null;
    redraw();
  }

  /** Move a tile (drag, or a tap on a destination). */
  function move(id, dest) {
    if (dest.area === "rack" && board.canMove(state, id) && !board.fromRack(state, id)) {
      // Said, not silently ignored: a tap on the rack or a drop there did nothing.
      say(state, `${tileName(state, id)} stays on the table: it was there when your turn began, and only tiles you laid this turn can go back to your rack.`, "error");
      redraw();
      return false;
    }
    const before = board.snapshot(state);
    state.hint = null;
    if (!board.moveTile(state, id, dest)) return false;
    moved(id, before);
    return true;
  }

  /** A dragged tile let go at dest: the tiles it pushes aside slide (it is already
   *  where the pointer let it go). */
  const drop = (id, dest) => sliding(() => move(id, dest), SLIDE_MS, id);

  /** Put the picked-up tile at dest; put at its own spot, it is let go where it is. */
  function place(dest) {
    const id = state.selected;
    if (id === null) return false;
    if (board.isOwnSpot(state, id, dest)) {
      deselect();
      return false;
    }
    return sliding(() => move(id, dest));
  }

  /** Split the picked-up tile's set before it (``board.splitSet``): the tile and the
   *  tiles after it become a set of their own. */
  function split() {
    const id = state.selected;
    if (id === null || !board.canSplit(state, id)) return false;
    return sliding(() => {
      const before = board.snapshot(state);
      state.hint = null;
      board.splitSet(state, id);
      moved(id, before, "split");
      return true;
    });
  }

  /** Move the picked-up tile one place left (-1) or right (+1) in its row. */
  function nudge(delta) {
    const id = state.selected;
    if (id === null) return;
    sliding(() => {
      const before = board.snapshot(state);
      if (!board.nudge(state, id, delta)) return;
      state.undo.push({ ...before, told: { id, kind: "move" } });
      state.focus = `tile-${id}`;
      state.reveal = id;
      state.revealKind = "move"; // told as a move, even just after a split
      state.revealFrom = [];
      changed();
    });
  }

  /** The picked-up tile back to its own place on the rack (``board.rackPlace``). */
  function returnToRack() {
    const id = state.selected;
    if (id === null) return;
    place({ area: "rack", index: board.rackPlace(state, id) });
  }

  /** Take back the last move of this turn. */
  function undo() {
    if (!isMyTurn(state)) return;
    sliding(() => {
      const was = board.snapshot(state);
      const kept = state.undo.at(-1)?.told;
      if (!board.undo(state)) return;
      // Told as the tile now is (a move restored from a reload has no record of which
      // tile it moved: the first that changed places stands for it).
      const told = kept ?? { id: board.firstMoved(was, state), kind: "move" };
      state.reveal = told.id;
      state.revealKind = { split: "unsplit", step: "unstep", group: "ungroup" }[told.kind] ?? "undo";
      state.revealGroup = told.ids ?? [told.id];
      if (told.id === null) tellMove(state, withTotal(state, "Undone."));
      changed();
    });
  }

  function resetTurn() {
    if (!isMyTurn(state)) return;
    sliding(() => {
      board.resetTurn(state);
      keepArrangement(state);
      say(state, "Turn reset: every tile is back where it was.");
      checkSeq++;
      redraw();
    });
  }

  function sortRack(by) {
    sliding(() => {
      board.sortRack(state, by);
      keepArrangement(state);
      // Read out: the tiles move, and a screen reader heard nothing of it.
      const first = state.rack.slice(0, 3).map((id) => tileName(state, id)).join(", ");
      tellMove(state, `Your rack sorted by ${by}${first ? `: ${first} first` : ""}.`);
      state.newsHasTotal = false; // these words say no opening total
      redraw();
    });
  }

  return { liveCheck, changed, sliding, moved, select, deselect, move, drop, place, split, nudge, returnToRack, undo, resetTurn, sortRack };
}
