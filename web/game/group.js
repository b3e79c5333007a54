// Moving several tiles together: choosing them (selection.js), putting them down in one
// move (a tap on where they go, a key, a drop), a whole set by its handle. One tile held
// on its own goes through turn.js's single moves, so those stay as they were; a group's
// move is one Undo step and one live check, and the engine judges only the result.

import * as board from "../board.js";
import * as selection from "../selection.js";
import { chosenNews, say, tellMove, tileName } from "./narration.js";

/** The held tiles' verbs over ``state``, wrapping ``turn``'s (game/turn.js) for one. */
export function createGroup(state, { redraw, turn }) {
  /** After the tiles held changed: the one touched focused, what is held read out. */
  function chose(focusId) {
    state.hintIds = new Set();
    state.focus = `tile-${focusId}`;
    tellMove(state, chosenNews(state, selection.held(state)));
    state.newsHasTotal = false; // these words say no opening total
    redraw();
  }

  /** Add tile ``id`` to the tiles held, or take it out (Ctrl- or Shift-click, Space, a
   *  finger's tap while choosing); ``range``: every tile from the last chosen to it in
   *  its row (Shift-click); ``keep``: added, never taken out (a long press). */
  function choose(id, { range = false, keep = false } = {}) {
    if (range ? selection.chooseRange(state, id) : selection.toggle(state, id, keep)) chose(id);
  }

  /** Table set ``i`` chosen whole by its handle (let go when it is chosen already). */
  function chooseSet(i) {
    const first = state.table[i]?.[0];
    if (selection.chooseSet(state, i)) chose(first);
  }

  /** A click, a tap or Enter on a tile: while tiles are chosen, one of them is let go
   *  of, and another tile is picked up on its own instead; else turn.js's pick-up. */
  function select(id) {
    if (!selection.isChoosing(state)) return turn.select(id);
    if (state.chosen.includes(id)) return choose(id);
    selection.letGo(state);
    turn.select(id);
  }

  /** Let go of whatever is held (Escape). */
  function deselect() {
    if (!selection.isChoosing(state)) return turn.deselect();
    state.focus = `tile-${state.chosen.at(-1)}`;
    selection.letGo(state);
    tellMove(state, "Tiles let go.");
    redraw();
  }

  /** Put the held tiles at dest; where they already are, they are let go. */
  function place(dest) {
    if (!selection.isChoosing(state)) return turn.place(dest);
    return turn.sliding(() => moveHeld(selection.held(state), dest));
  }

  /** Tiles dragged together (``ids``, in order) let go at dest: those they push aside
   *  slide (they are already where the pointer let them go). */
  function drop(ids, dest) {
    if (ids.length === 1 && !selection.isChoosing(state)) return turn.drop(ids[0], dest);
    return turn.sliding(() => moveHeld(ids, dest), undefined, ids);
  }

  function moveHeld(ids, dest) {
    const stay = dest.area === "rack" ? ids.filter((id) => !board.fromRack(state, id)) : [];
    if (stay.length) return refuseRack(stay);
    const before = board.snapshot(state);
    if (!board.moveTiles(state, ids, dest)) {
      deselect(); // nothing moved: they are let go where they are
      return false;
    }
    state.hint = null;
    turn.moved(ids[0], before, "group", ids);
    return true;
  }

  /** Said, not silently ignored: tiles on the table as the turn began stay there. */
  function refuseRack(stay) {
    const names = stay.map((id) => tileName(state, id)).join(", ");
    const one = stay.length === 1;
    say(state, `${names} ${one ? "stays" : "stay"} on the table: ${one ? "it was" : "they were"} there when your turn began, and only tiles you laid this turn can go back to your rack.`, "error");
    redraw();
    return false;
  }

  /** The held tiles back to the rack, each at its own place (``board.rackPlace``), in one
   *  move; those on the rack already stay where they are. */
  function returnToRack() {
    if (!selection.isChoosing(state)) return turn.returnToRack();
    const ids = selection.held(state).filter((id) => board.locate(state, id).area === "table");
    if (!ids.length) return deselect();
    const stay = ids.filter((id) => !board.fromRack(state, id));
    if (stay.length) return refuseRack(stay);
    turn.sliding(() => {
      const before = board.snapshot(state);
      for (const id of ids) board.moveTile(state, id, { area: "rack", index: board.rackPlace(state, id) });
      state.hint = null;
      turn.moved(ids[0], before, "group", ids);
    });
  }

  return { choose, chooseSet, select, deselect, place, drop, returnToRack };
}
