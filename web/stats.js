// Per-device statistics, kept in localStorage: games and rounds played and won, the
// best round score, and the average points left on the rack at the end of a round.

import { minus } from "./words.js";

const KEY = "rummikub.stats";

const EMPTY = { games: 0, gamesWon: 0, rounds: 0, roundsWon: 0, best: null, leftTotal: 0, seen: [] };

export function loadStats() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) ?? "null");
    if (data && typeof data === "object" && Number.isFinite(data.rounds)) return { ...EMPTY, ...data };
  } catch {
    // A broken record is replaced by an empty one.
  }
  return { ...EMPTY };
}

function store(stats) {
  try {
    localStorage.setItem(KEY, JSON.stringify(stats));
  } catch {
    // Storage full or off: statistics are a nicety.
  }
}

export function clearStats() {
  store({ ...EMPTY });
}

/** Count a finished round once (a reload shows the same round again: `key` tells). */
export function recordRound(view, key) {
  const stats = loadStats();
  if (stats.seen.includes(key)) return stats;
  const out = view.outcome;
  const me = view.me;
  stats.seen = [...stats.seen.slice(-19), key];
  stats.rounds += 1;
  if (out.winner === me) stats.roundsWon += 1;
  stats.best = stats.best === null ? out.scores[me] : Math.max(stats.best, out.scores[me]);
  stats.leftTotal += out.rack_values[me];
  if (view.match_over) {
    stats.games += 1;
    if (view.winner === me) stats.gamesWon += 1; // the engine's winner: a tie goes to the earlier seat
  }
  store(stats);
  return stats;
}

export function statsRows(stats) {
  // One decimal where there is one: "48.5", but "115" and "0", not "115.0".
  const avg = stats.rounds ? String(Math.round((stats.leftTotal / stats.rounds) * 10) / 10) : "–";
  return [
    ["Games played", stats.games],
    ["Games won", stats.gamesWon],
    ["Rounds played", stats.rounds],
    ["Rounds won", stats.roundsWon],
    ["Best round score", stats.best === null || stats.best === undefined ? "–" : minus(stats.best)],
    ["Average points left", avg],
  ];
}
