// Pure changes to the state's arrangement: moving tiles, reset, sorting, taking a new
// view. No DOM here, and no rules: whether a table is legal is the engine's answer.

import { isMyTurn } from "./state.js";

const COLOUR_ORDER = { red: 0, blue: 1, yellow: 2, black: 3 };

const copyTable = (table) => table.map((set) => set.slice());

/** Where a tile is in the arrangement: {area: "rack", index} or {area: "table", set, index}. */
export function locate(state, id) {
  const r = state.rack.indexOf(id);
  if (r >= 0) return { area: "rack", index: r };
  for (let s = 0; s < state.table.length; s++) {
    const i = state.table[s].indexOf(id);
    if (i >= 0) return { area: "table", set: s, index: i };
  }
  return null;
}

/** Tiles this player brought out of their rack this turn (may go back to the rack). */
export function fromRack(state, id) {
  return state.startRack.includes(id);
}

export function canMove(state, id) {
  return isMyTurn(state) && locate(state, id) !== null;
}

/** Can `id` go to `dest`? Only a tile from the rack may return to the rack. */
export function canDrop(state, id, dest) {
  if (!canMove(state, id)) return false;
  if (dest.area === "rack") return fromRack(state, id);
  return true;
}

/**
 * Move a tile. dest: {area: "rack", index}, {area: "table", set, index} or
 * {area: "new-set"}. Indices are positions in the row before the tile is taken out.
 * Returns true when something changed.
 */
export function moveTile(state, id, dest) {
  if (!canDrop(state, id, dest)) return false;
  const from = locate(state, id);
  const table = copyTable(state.table);
  const rack = state.rack.slice();
  const row = (where) => (where.area === "rack" ? rack : table[where.set]);
  let index = dest.index ?? 0;
  if (sameRow(from, dest) && from.index < index) index -= 1; // removing the tile shifts the gap left
  if (isOwnSpot(state, id, dest)) return false;
  row(from).splice(from.index, 1);
  if (dest.area === "new-set") table.push([id]);
  else row(dest).splice(Math.max(0, Math.min(index, row(dest).length)), 0, id);
  state.table = table.filter((set) => set.length > 0);
  state.rack = rack;
  state.refused = null;
  return true;
}

/**
 * Move several tiles together to dest (as moveTile's), side by side in ``ids``' order,
 * the gap's index counted before they are taken out. Each must be free to go there
 * (canDrop); a set they empty goes. Returns true when something changed.
 */
export function moveTiles(state, ids, dest) {
  const moving = new Set(ids);
  const into = dest.area === "table" ? state.table[dest.set] : dest.area === "rack" ? state.rack : [];
  if (!ids.length || !into || !ids.every((id) => canDrop(state, id, dest))) return false;
  const index = (dest.index ?? 0) - into.slice(0, dest.index ?? 0).filter((id) => moving.has(id)).length;
  const table = state.table.map((set) => set.filter((id) => !moving.has(id)));
  const rack = state.rack.filter((id) => !moving.has(id));
  if (dest.area === "new-set") table.push(ids.slice());
  else {
    const row = dest.area === "rack" ? rack : table[dest.set];
    row.splice(Math.max(0, Math.min(index, row.length)), 0, ...ids);
  }
  const after = { table: table.filter((set) => set.length > 0), rack };
  if (JSON.stringify(after) === JSON.stringify(snapshot(state))) return false;
  Object.assign(state, after, { refused: null });
  return true;
}

/** Can the set holding tile ``id`` be split before it (a table tile not first in its set)? */
export function canSplit(state, id) {
  const at = canMove(state, id) ? locate(state, id) : null;
  return at?.area === "table" && at.index > 0;
}

/** Split the set holding tile ``id`` in two: the tiles before it stay, and it and the tiles
 *  after it become a set of their own just after (one move: a run split took a drag or
 *  two taps for each tile moved). Returns true when something changed. */
export function splitSet(state, id) {
  if (!canSplit(state, id)) return false;
  const at = locate(state, id);
  const table = copyTable(state.table);
  table.splice(at.set + 1, 0, table[at.set].splice(at.index));
  state.table = table;
  state.refused = null;
  return true;
}

const sameRow = (from, dest) =>
  from.area === dest.area && (from.area === "rack" || from.set === dest.set);

/** Is ``dest`` where tile ``id`` is already (a gap on either side of it)? A move there
 *  changes nothing. */
export function isOwnSpot(state, id, dest) {
  const from = locate(state, id);
  if (!from || !sameRow(from, dest)) return false;
  const index = dest.index ?? 0;
  return index === from.index || index === from.index + 1;
}

/** The arrangement as it is now, for Undo. */
export function snapshot(state) {
  return { table: copyTable(state.table), rack: state.rack.slice() };
}

/** Take back the last move of the turn. */
export function undo(state) {
  const last = state.undo.pop();
  if (!last) return false;
  state.table = last.table;
  state.rack = last.rack;
  state.selected = null;
  state.chosen = [];
  state.refused = null;
  return true;
}

/** A tile that moved between arrangement ``a`` and ``b``: one that changed between the
 *  rack and the table if any, else one whose neighbours changed; null when none moved. */
export function firstMoved(a, b) {
  const places = (arr) => {
    const at = new Map();
    const note = (row, area) => row.forEach((id, k) => at.set(id, [area, `${row[k - 1]}:${row[k + 1]}`]));
    note(arr.rack, "rack");
    arr.table.forEach((row) => note(row, "table"));
    return at;
  };
  const before = places(a);
  const after = [...places(b)];
  const moved = after.find(([id, [area]]) => before.get(id)?.[0] !== area) ??
    after.find(([id, [, beside]]) => before.get(id)?.[1] !== beside);
  return moved ? moved[0] : null;
}

/** Tiles on the table that the hint's table does not hold: rack tiles the player laid
 *  this turn that the hint does not use (every tile of the turn's start table is in it). */
export function hintStrays(state, target) {
  const wanted = new Set(target.flat());
  return state.table.flat().filter((id) => !wanted.has(id) && fromRack(state, id));
}

/** One step of a hint. First, rack tiles the hint does not use go back to the rack (so
 *  the laid-out hint is exactly the engine's table, which it accepts); then each step
 *  gathers the first set of the suggested table that the arrangement lacks (from the
 *  rack and the other sets) at its place. Returns {returned: [ids]}, {built: index}, or
 *  null when the arrangement already is the hint. */
export function hintStep(state, target) {
  const strays = hintStrays(state, target);
  if (strays.length) {
    const out = new Set(strays);
    state.table = state.table.map((row) => row.filter((id) => !out.has(id))).filter((row) => row.length > 0);
    // Each back at its own place on the rack, as "Return to rack" puts a tile.
    for (const id of strays) state.rack.splice(rackPlace(state, id), 0, id);
    state.selected = null;
    state.chosen = [];
    state.refused = null;
    return { returned: strays };
  }
  const same = (a, b) => a.length === b.length && a.every((id, i) => id === b[i]);
  const k = target.findIndex((set) => !state.table.some((row) => same(row, set)));
  if (k < 0) return null;
  const ids = new Set(target[k]);
  const rest = state.table.map((row) => row.filter((id) => !ids.has(id)));
  const at = Math.min(k, rest.length);
  rest.splice(at, 0, target[k].slice());
  state.table = rest.filter((row) => row.length > 0);
  state.rack = state.rack.filter((id) => !ids.has(id));
  state.selected = null;
  state.chosen = [];
  state.refused = null;
  return { built: state.table.findIndex((row) => same(row, target[k])) };
}

/** Is the arrangement the hint's table, every set of it and nothing else? */
export function hintDone(state, target) {
  const key = (rows) => JSON.stringify(rows.map((row) => row.slice()).sort());
  return key(state.table) === key(target);
}

/** Move a tile one step along its own row (keyboard arrows). */
export function nudge(state, id, delta) {
  const from = locate(state, id);
  if (!from) return false;
  const target = from.index + (delta > 0 ? 2 : -1);
  if (target < 0) return false;
  const len = from.area === "rack" ? state.rack.length : state.table[from.set].length;
  if (target > len) return false;
  return moveTile(state, id, { ...from, index: target });
}

export function isTouched(state) {
  return JSON.stringify(state.table) !== JSON.stringify(state.startTable);
}

/** Where on the rack a tile of it goes back to: its place as the turn began (before the
 *  first tile that came after it there and is on the rack now), else the end. */
export function rackPlace(state, id) {
  const order = state.turnRack;
  const at = order.indexOf(id);
  const next = at < 0 ? undefined : order.slice(at + 1).find((other) => state.rack.includes(other));
  return next === undefined ? state.rack.length : state.rack.indexOf(next);
}

/** Everything back where it was at the start of the turn: the table, and every rack tile
 *  at its place on the rack (in the order the rack was sorted to, if it was this turn). */
export function resetTurn(state) {
  const ours = new Set(state.startRack);
  const order = state.turnRack.filter((id) => ours.has(id));
  const known = new Set(order);
  state.table = copyTable(state.startTable);
  state.rack = [...order, ...state.startRack.filter((id) => !known.has(id))];
  state.turnRack = state.rack.slice();
  state.selected = null;
  state.chosen = [];
  state.check = null;
  state.refused = null;
  state.undo = [];
}

function tileKey(state, id, by) {
  const t = state.tiles.get(id);
  const colour = t.joker ? 9 : COLOUR_ORDER[t.color];
  const number = t.joker ? 99 : t.number;
  return by === "colour" ? colour * 100 + number : number * 10 + colour;
}

/** Sorting is free and changes only the rack's order. Jokers go last. */
export function sortRack(state, by) {
  const sorted = (ids) => ids.slice().sort((a, b) => tileKey(state, a, by) - tileKey(state, b, by) || a - b);
  state.rack = sorted(state.rack);
  // A sort is not a move: the rack Reset Turn brings back is sorted too.
  state.turnRack = sorted(state.turnRack);
}

/** Take a view from the engine. On the human's turn the arrangement starts afresh
 *  from it; the rack keeps the player's order, with new tiles at the end. */
export function applyView(state, view) {
  // The tiles this view's table has that the last one's had not: what the turn between
  // them put down (See Table brings them into view).
  const had = new Set((state.view?.table ?? []).flatMap((set) => set.tiles.map((t) => t.id)));
  state.lastPlaced = view.table.flatMap((set) => set.tiles.map((t) => t.id)).filter((id) => !had.has(id));
  state.view = view;
  for (const t of view.rack) state.tiles.set(t.id, t);
  for (const set of view.table) for (const t of set.tiles) state.tiles.set(t.id, t);
  if (view.outcome?.racks) for (const rack of view.outcome.racks) for (const t of rack) state.tiles.set(t.id, t);
  const ids = view.rack.map((t) => t.id);
  const have = new Set(ids);
  const kept = state.rack.filter((id) => have.has(id));
  const keptSet = new Set(kept);
  state.rack = [...kept, ...ids.filter((id) => !keptSet.has(id))];
  state.turnRack = state.rack.slice();
  state.startRack = ids;
  state.table = view.table.map((set) => set.tiles.map((t) => t.id));
  state.startTable = copyTable(state.table);
  state.selected = null;
  state.chosen = [];
  state.check = null;
  state.refused = null;
  state.hintIds = new Set();
  state.hint = null;
  state.undo = [];
  // The last move's news was about the table this view replaces.
  state.news = "";
  // The tiles the player drew at their last turn are marked on the rack, from the
  // engine's word (until the player's first move): a play, a pass, a new round or game
  // marks none (tile ids come round again in every deal).
  state.drawn = new Set((view.drawn ?? []).map((t) => t.id));
}
