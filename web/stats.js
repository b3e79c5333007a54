// Per-device statistics, kept in localStorage per player name: games and rounds played
// and won, the best round score, and the average points left on the rack at the end of
// a round. Every person of a game counts under their own name (the one person of a game
// against computers is "You").

import { minus } from "./words.js";

const KEY = "rummikub.stats";

const EMPTY = { games: 0, gamesWon: 0, rounds: 0, roundsWon: 0, best: null, leftTotal: 0 };
// The name the statistics kept before they were per name belong to.
const YOU = "You";

/** One name's record, when it is one (a broken one counts as none). */
const record = (data) =>
  data && typeof data === "object" && Number.isFinite(data.rounds) ? { ...EMPTY, ...pick(data) } : null;

const pick = (data) => Object.fromEntries(Object.keys(EMPTY).filter((k) => k in data).map((k) => [k, data[k]]));

/** {players: Map of name to record, seen: [round keys], last: the name that last
 *  finished a round}. Kept as {players: [[name, record]], seen, last}. */
export function loadStats() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) ?? "null");
    const seen = Array.isArray(data?.seen) ? data.seen : [];
    if (Array.isArray(data?.players)) {
      const players = new Map();
      for (const [name, kept] of data.players.filter(Array.isArray)) {
        if (typeof name === "string" && record(kept)) players.set(name, record(kept));
      }
      return { players, seen, last: players.has(data.last) ? data.last : null };
    }
    // Kept before statistics were per name: the one person's, who was always "You".
    const old = record(data);
    if (old) return { players: new Map([[YOU, old]]), seen, last: YOU };
  } catch {
    // A broken record is replaced by an empty one.
  }
  return { players: new Map(), seen: [], last: null };
}

function store(stats) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...stats, players: [...stats.players] }));
  } catch {
    // Storage full or off: statistics are a nicety.
  }
}

export function clearStats() {
  store({ players: new Map(), seen: [], last: null });
}

/** Count a finished round once for each person of the game (a reload shows the same round
 *  again: `key` tells). */
export function recordRound(view, key) {
  const stats = loadStats();
  if (stats.seen.includes(key)) return stats;
  stats.seen = [...stats.seen.slice(-19), key];
  for (const seat of view.people ?? [view.me]) {
    const name = view.players[seat].name;
    stats.players.set(name, counted(stats.players.get(name) ?? { ...EMPTY }, view, seat));
    stats.last = name;
  }
  store(stats);
  return stats;
}

/** ``kept`` with the round just finished counted for the player in ``seat``. */
function counted(kept, view, seat) {
  const out = view.outcome;
  const stats = { ...kept, rounds: kept.rounds + 1 };
  if (out.winner === seat) stats.roundsWon += 1;
  stats.best = stats.best === null ? out.scores[seat] : Math.max(stats.best, out.scores[seat]);
  stats.leftTotal += out.rack_values[seat];
  if (view.match_over) {
    stats.games += 1;
    if (view.winner === seat) stats.gamesWon += 1; // the engine's winner: a tie goes to the earlier seat
  }
  return stats;
}

/** The names with statistics on this device, in the order they first played here. */
export const statsNames = (stats) => [...stats.players.keys()];

/** The rows shown for ``name`` (none kept yet: zeros). */
export function statsRows(stats, name = stats.last) {
  const kept = stats.players.get(name) ?? EMPTY;
  // One decimal where there is one: "48.5", but "115" and "0", not "115.0".
  const avg = kept.rounds ? String(Math.round((kept.leftTotal / kept.rounds) * 10) / 10) : "–";
  return [
    ["Games played", kept.games],
    ["Games won", kept.gamesWon],
    ["Rounds played", kept.rounds],
    ["Rounds won", kept.roundsWon],
    ["Best round score", kept.best === null || kept.best === undefined ? "–" : minus(kept.best)],
    ["Average points left", avg],
  ];
}
