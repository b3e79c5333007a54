// The game kept in this browser: the engine's save (persist), and beside it the page's
// own records in localStorage, each read back only when it fits: the game's settings,
// the turn clock's deadline, the rack's order and the arrangement in progress, and the
// computers' turns told since the player's last one. A record is keyed to the very turn
// it was made at (turnKey), so a reload never brings back a stale one. Storage that is
// full or off loses only what a reload would bring back: the game goes on.

import { isTouched } from "../board.js";
import { isMyTurn } from "../state.js";

export const SAVE_KEY = "rummikub.savedGame";
const CLOCK_KEY = `${SAVE_KEY}.clock`; // {turn, deadline} of the player's turn clock ({turn, left} standing still)
// {turn, rack, table} the player's own rack order and, on their turn, the arrangement in
// progress: a reload brings them back when the engine's game is at that very turn.
const ARRANGEMENT_KEY = `${SAVE_KEY}.arrangement`;
// {game, delay, form} of the game in hand, kept with each save of it (persist): a name of
// its own (so statistics tell its rounds from another game's with the same scores), how
// long a computer turn stays on show (a reload used to fall back to the default), and the
// start screen's choices, which main.js puts back on the start screen.
export const SETTINGS_KEY = `${SAVE_KEY}.settings`;
// {game, turn, lines, highlight}: the computers' turns since the player's last one, as told
// and highlighted so far, so a reload while they play (or before the player's first
// move) still sums up all of them, not only those after it.
const SINCE_KEY = `${SAVE_KEY}.since`;
// The longest a computer turn stays on show that a kept record may ask for.
export const MAX_DELAY_MS = 5000;

/** A record the page keeps in localStorage under ``key``, when it is a JSON object;
 *  null when it is missing, unreadable or storage is off. */
function readKept(key) {
  try {
    const kept = JSON.parse(localStorage.getItem(key));
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : null;
  } catch {
    return null;
  }
}

/** The kept settings of the game in hand ({game, delay, form}), or null. */
export const keptSettings = () => readKept(SETTINGS_KEY);

// Names the player's turn on show: the round, the turn in it, the match so far and the
// rack it started with. A new game forgets the kept deadline, so two games that share
// a key (the same deal played the same way) never share a deadline.
export function turnKey(view) {
  return JSON.stringify([view.round, view.turn, view.history, view.rack.map((t) => t.id)]);
}

/** The saved game (the engine's snapshot), or null (none, or storage off). */
export function savedGame() {
  try {
    return localStorage.getItem(SAVE_KEY);
  } catch {
    return null;
  }
}

/** A save the engine refused is kept under another key, out of the way. */
export function setAside(saved) {
  try {
    localStorage.setItem(`${SAVE_KEY}.setAside`, saved);
    localStorage.removeItem(SAVE_KEY);
  } catch {}
}

/** Keep the game in the browser after every action, so a reload brings it back. */
export async function persist(state, engine) {
  const saved = await engine.takeSnapshot();
  if (state.stale) return; // another tab saved the game since: never write over it
  try {
    if (saved) localStorage.setItem(SAVE_KEY, saved);
    // The game's own settings beside it, written with it: written when the engine dealt
    // a new game, they named the old saved game until the new one was first saved.
    if (saved && state.gameId) {
      const settings = { game: state.gameId, delay: state.delay, form: state.gameForm };
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
    }
  } catch {
    // Storage full or disabled: the game goes on, it just won't survive a reload.
  }
  keepArrangement(state);
}

export function keptDeadline(turn) {
  // Storage disabled or the entry unreadable: the clock starts afresh.
  const kept = readKept(CLOCK_KEY);
  if (kept?.turn !== turn) return null;
  // A clock standing still (a dialog up, the start screen) kept the time it had left.
  if (Number.isFinite(kept.left)) return Date.now() + kept.left;
  return Number.isFinite(kept.deadline) ? kept.deadline : null;
}

/** The clock kept in the browser, if running, kept standing still with the time it has
 *  ({turn, left}): it runs on from there when that turn's clock starts again. */
export function keepStandingStill() {
  const kept = readKept(CLOCK_KEY);
  if (Number.isFinite(kept?.deadline)) keepDeadline({ turn: kept.turn, left: Math.max(0, kept.deadline - Date.now()) });
}

/** Keep {turn, deadline} in the browser (or {turn, left}, the milliseconds left on a
 *  clock standing still), or forget it (null). */
export function keepDeadline(kept) {
  try {
    if (kept) localStorage.setItem(CLOCK_KEY, JSON.stringify(kept));
    else localStorage.removeItem(CLOCK_KEY);
  } catch {
    // Storage full or disabled: the clock runs, it just restarts after a reload.
  }
}

// The rack order and the arrangement in progress are the page's own (the engine keeps
// only the game): kept beside the saved game, keyed to the exact turn, so a reload
// brings back a sorted rack and a half-built play, and never a stale one.
export function keepArrangement(state) {
  const view = state.view;
  if (!view || state.restoring || state.stale) return;
  const mine = isMyTurn(state);
  const table = mine && isTouched(state) ? state.table : null;
  // The turn's moves so far, for Undo after a reload (a reload used to forget them),
  // each with what it moved, so that Undo tells the same words after a reload.
  const undo = mine ? state.undo.map((a) => ({ rack: a.rack, table: a.table, told: a.told })) : [];
  try {
    const start = table ? state.turnRack : null; // the rack Reset Turn brings back
    localStorage.setItem(ARRANGEMENT_KEY, JSON.stringify({ turn: turnKey(view), rack: state.rack, table, start, undo }));
  } catch {
    // Storage full or disabled: a reload deals the rack back in the engine's order.
  }
}

/** A new game: the last game's arrangement and clock are forgotten. */
export function forgetTurn() {
  keepDeadline(null);
  try {
    localStorage.removeItem(ARRANGEMENT_KEY);
  } catch {}
}

export function keepSince(state, lines) {
  if (state.stale) return;
  try {
    const since = { game: state.gameId, turn: turnKey(state.view), lines, highlight: [...state.highlight] };
    localStorage.setItem(SINCE_KEY, JSON.stringify(since));
  } catch {
    // Storage full or off: a reload sums up only the turns after it.
  }
}

/** The computers' turns since the player's last one, as kept for this very turn of
 *  the game ({lines, highlight}), or null. */
export function keptSince(state) {
  const kept = readKept(SINCE_KEY);
  const view = state.view;
  // This game's (a deal replayed has the same first turns) and this very turn.
  if (!kept || kept.game !== state.gameId || kept.turn !== turnKey(view)) return null;
  const { lines, highlight } = kept;
  if (!Array.isArray(lines) || !lines.every((l) => typeof l === "string")) return null;
  if (!Array.isArray(highlight) || !highlight.every(Number.isInteger)) return null;
  const onTable = new Set(view.table.flatMap((set) => set.tiles.map((t) => t.id)));
  return { lines, highlight: highlight.filter((id) => onTable.has(id)) };
}

const ids = (list) => Array.isArray(list) && list.every(Number.isInteger) && new Set(list).size === list.length;

/** Put back the kept rack order (and the arrangement in progress and Undo's history,
 *  on the player's turn) when it fits the view just restored: the same turn, and
 *  exactly the tiles the engine reports. Anything else is ignored. Returns true when
 *  the arrangement came back. */
export function restoreArrangement(state) {
  const kept = readKept(ARRANGEMENT_KEY); // unreadable: the engine's order stands
  const view = state.view;
  if (!kept || kept.turn !== turnKey(view) || !ids(kept.rack)) return false;
  const fits = arrangementFits(state);
  const myTurn = !view.round_over && view.current === view.me;
  // Undo's history comes back whole, or not at all.
  const undo = kept.undo;
  if (myTurn && Array.isArray(undo) && undo.every((a) => a && typeof a === "object" && fits(a.rack, a.table))) {
    state.undo = undo.map((a) => {
      const step = { rack: a.rack.slice(), table: a.table.map((row) => row.slice()) };
      const told = toldOf(a);
      return told ? { ...step, told } : step;
    });
  }
  const table = kept.table;
  const rackIds = new Set(state.startRack);
  if (myTurn && Array.isArray(table) && table.length && fits(kept.rack, table)) {
    state.rack = kept.rack.slice();
    state.table = table.map((row) => row.slice());
    // The rack as the turn began, for Reset Turn: kept with the arrangement (the
    // engine's rack exactly), else the kept rack with the laid tiles after it.
    const start = kept.start;
    const whole = ids(start) && start.length === state.startRack.length && start.every((id) => rackIds.has(id));
    state.turnRack = whole ? start.slice() : [...kept.rack, ...state.startRack.filter((id) => !kept.rack.includes(id))];
    return isTouched(state);
  }
  // The rack order alone: the kept order of the tiles still on the rack, then the rest.
  const order = kept.rack.filter((id) => rackIds.has(id));
  const inOrder = new Set(order);
  state.rack = [...order, ...state.rack.filter((id) => !inOrder.has(id))];
  state.turnRack = state.rack.slice();
  return false;
}

const TOLD_KINDS = ["move", "split", "step", "group"];

/** What a kept Undo step moved ({id, kind} and, for tiles moved together, ``ids``), when
 *  it names tiles of that step's arrangement; else undefined (Undo then tells the first
 *  tile that changed places). */
function toldOf(step) {
  const told = step.told;
  if (!told || typeof told !== "object" || !TOLD_KINDS.includes(told.kind)) return undefined;
  const turn = new Set([...step.rack, ...step.table.flat()]);
  if (!turn.has(told.id)) return undefined;
  if (told.ids === undefined) return { id: told.id, kind: told.kind };
  if (!ids(told.ids) || !told.ids.length || !told.ids.every((id) => turn.has(id))) return undefined;
  return { id: told.id, kind: told.kind, ids: told.ids.slice() };
}

/** Does a kept (rack, table) fit this turn? Every tile of the turn exactly once, the
 *  rack holding only tiles of the engine's rack, every other tile of the rack and the
 *  table in a set. */
function arrangementFits(state) {
  const rackIds = new Set(state.startRack);
  const expected = [...state.startRack, ...state.startTable.flat()];
  return (rack, table) => {
    if (!ids(rack) || !Array.isArray(table) || !table.every((row) => ids(row) && row.length)) return false;
    const all = [...rack, ...table.flat()];
    const seen = new Set(all);
    return seen.size === all.length && all.length === expected.length && expected.every((id) => seen.has(id)) && rack.every((id) => rackIds.has(id));
  };
}
