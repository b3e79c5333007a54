// The tiles the player holds to move: one picked up (state.selected), or several chosen
// to move together (state.chosen: a Ctrl-, Shift- or long-press, Space, a set's handle).
// Pure changes to the state, no DOM and no rules: where they may go is board.js's
// canDrop, and whether the table is legal the engine's answer.

import { canMove, locate } from "./board.js";

/** Tiles in reading order, as they land together: the table's sets top to bottom, each
 *  left to right, then the rack. */
export function inOrder(state, ids) {
  const order = [...state.table.flat(), ...state.rack];
  return ids.filter((id) => order.includes(id)).sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** The tiles held, in reading order: the chosen ones, else the picked-up one, else none. */
export function held(state) {
  if (state.chosen.length) return inOrder(state, state.chosen);
  return state.selected === null ? [] : [state.selected];
}

/** Are tiles chosen to move together (rather than one picked up, or none)? */
export const isChoosing = (state) => state.chosen.length > 0;

/** Tile ``id`` added to the tiles held, or taken out when it is one of them (unless
 *  ``keep``: a long press only adds); a tile picked up becomes the first of the chosen.
 *  Returns true when something changed. */
export function toggle(state, id, keep = false) {
  if (!canMove(state, id)) return false;
  const now = state.chosen.length ? state.chosen : state.selected === null ? [] : [state.selected];
  state.chosen = !now.includes(id) ? [...now, id] : keep ? now : now.filter((t) => t !== id);
  state.selected = null;
  return true;
}

/** Every tile from the last one chosen to ``id``, when both are in one row (a set, or
 *  the rack), added to the chosen; otherwise ``id`` toggled. */
export function chooseRange(state, id) {
  const last = state.chosen.at(-1) ?? state.selected;
  const [a, b] = [last, id].map((t) => (t === null || t === undefined ? null : locate(state, t)));
  const row = a && b && a.area === b.area && (a.area === "rack" || a.set === b.set) ? rowOf(state, a) : null;
  if (!row || id === last || !canMove(state, id)) return toggle(state, id);
  const span = row.slice(Math.min(a.index, b.index), Math.max(a.index, b.index) + 1);
  const now = held(state);
  state.chosen = [...now, ...span.filter((t) => !now.includes(t))];
  state.selected = null;
  return true;
}

const rowOf = (state, at) => (at.area === "rack" ? state.rack : state.table[at.set]);

/** Table set ``i`` chosen whole (its handle); chosen already, exactly, it is let go. */
export function chooseSet(state, i) {
  const set = state.table[i];
  if (!set || !set.every((id) => canMove(state, id))) return false;
  const now = held(state);
  const same = now.length === set.length && set.every((id) => now.includes(id));
  state.chosen = same ? [] : set.slice();
  state.selected = null;
  return true;
}

/** Nothing held any more. */
export function letGo(state) {
  state.selected = null;
  state.chosen = [];
}
