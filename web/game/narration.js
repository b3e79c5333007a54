// What the page says, as the state stands: the message (say), where a tile (or several
// together) just moved went and what its set now is (the move's news, read out), the
// tiles selected, what Undo took back, a split, a draw, the clock running out. Words
// only: every verdict in them is the engine's (verdicts.js), and nothing here touches
// the DOM.

import { jokersStandFor, setVerdict } from "../verdicts.js";
import { capitalise, codeLabel, count } from "../words.js";

/** A line of narration as a sentence: a capital, and a full stop unless it has one. */
export const sentence = (line) => capitalise(/[.!?…]$/.test(line) ? line : `${line}.`);

/** The message shown (null clears it). Every message is a sentence with a capital, one
 *  that starts with a tile's name ("yellow 1 was on the table…") too. ``aside`` is read
 *  out after the words but not shown (the hint's tiles in words, which the words' small
 *  tiles already show). */
export function say(state, text, kind = "info", aside = "") {
  state.message = text ? { text: capitalise(text), kind, aside } : null;
}

export const tileName = (state, id) => state.tiles.get(id)?.label ?? `tile ${id}`;

/** Tiles drawn, as said after "you drew": "red 5, a joker" (not "drew joker"). */
export const drawnNames = (tiles) => tiles.map((t) => (t.joker ? "a joker" : t.label)).join(", ");

/** The engine failed: nothing is under way any more, and the message says why. */
export function engineFailed(state, err) {
  state.busy = false;
  state.showing = null;
  say(state, `The engine failed: ${err.message ?? err}`, "error");
}

/** Where the tiles just moved went (one, or several together, ``ids`` in the order
 *  they landed), and what their set now is, for a screen reader (the set's note shows
 *  it to the eye, from the same verdict): "red 8 to Set 2, place 3 of 4: run, 21
 *  points.", "red 5, red 6, red 7 to Set 4, places 1 to 3 of 3: run, 18 points." or
 *  "…: not valid, a set needs at least 3 tiles." */
function moveNews(state, ids, back = false) {
  const i = state.table.findIndex((row) => row.includes(ids[0]));
  const row = i < 0 ? state.rack : state.table[i];
  const to = `${back ? "back " : ""}to ${i < 0 ? "your rack" : `Set ${i + 1}`}`;
  const names = ids.map((id) => (i < 0 ? tileName(state, id) : setTileName(state, i, id))); // "joker as red 7" in a set
  const at = ids.map((id) => row.indexOf(id) + 1).sort((a, b) => a - b);
  // Side by side ("places 2 to 4"), or each at its own place on the rack ("places 2, 5, 9").
  const side = at.at(-1) - at[0] === at.length - 1;
  const place = at.length === 1 ? `place ${at[0]}` : side ? `places ${at[0]} to ${at.at(-1)}` : `places ${at.join(", ")}`;
  const where = `${names.join(", ")} ${to}, ${place} of ${row.length}`;
  const verdict = i < 0 ? null : setVerdict(state, i);
  let said = `${where}.`;
  if (verdict?.problem !== undefined) said = `${where}: not valid, ${verdict.problem.replace(/\.$/, "")}.`;
  else if (verdict) said = `${where}: ${verdict.kind}, ${verdict.value} points.`;
  // The sets they left, when no longer sets (it was told only at Confirm Play).
  const left = ["move", "group"].includes(state.revealKind) ? state.revealFrom : [];
  const sets = new Set(left.map((id) => state.table.findIndex((r) => r.includes(id))));
  for (const k of [...sets].sort((a, b) => a - b)) {
    const problem = k >= 0 && k !== i ? setVerdict(state, k)?.problem : undefined;
    if (problem !== undefined) said += ` Set ${k + 1} is left not valid: ${problem.replace(/\.$/, "")}.`;
  }
  // Before the opening, its total too, in the same words: the turn line shows it but is
  // not read out for a move (two announcements for one move).
  return withTotal(state, said);
}

/** The tiles now held to move together, read out as they are chosen: "3 tiles
 *  selected: red 5, red 6, red 7." */
export function chosenNews(state, ids) {
  if (!ids.length) return "No tiles selected.";
  return `${count(ids.length, "tile")} selected: ${ids.map((id) => tileName(state, id)).join(", ")}.`;
}

/** A set just split before tile ``id``, for a screen reader, both halves with their
 *  verdicts: "Set 2 split before red 5: Set 2, red 2, red 3, red 4: run, 9 points;
 *  Set 3, red 5 to red 9: run, 35 points." */
function splitNews(state, id) {
  const i = state.table.findIndex((row) => row.includes(id));
  return withTotal(state, `Set ${i} split before ${setTileName(state, i, id)}: ${setNews(state, i - 1)}; ${setNews(state, i)}.`);
}

/** A tile of table set ``k`` by name, a joker with what it stands for there. */
function setTileName(state, k, id) {
  const code = jokersStandFor(state, k).get(id);
  return code ? `joker as ${codeLabel(code)}` : tileName(state, id);
}

/** Table set ``k``, its tiles and its verdict: "Set 3, red 5 to red 9: run, 35 points". */
function setNews(state, k) {
  return `Set ${k + 1}, ${setTiles(state, k)}`;
}

/** Set ``k``'s tiles and its verdict, "red 5 to red 9: run, 35 points", a joker named
 *  with what it stands for ("joker as red 9"). */
function setTiles(state, k) {
  const row = state.table[k];
  const verdict = setVerdict(state, k);
  const name = (id) => setTileName(state, k, id);
  // A run of 4 or more from its first tile to its last; a group, or a few tiles, each.
  const run = verdict?.kind === "run" && row.length > 3;
  const tiles = run ? `${name(row[0])} to ${name(row.at(-1))}` : row.map(name).join(", ");
  if (verdict?.problem !== undefined) return `${tiles}: not valid, ${verdict.problem.replace(/\.$/, "")}`;
  return verdict ? `${tiles}: ${verdict.kind}, ${verdict.value} points` : tiles;
}

/** Before the opening, the words end with its total (the turn line is not read out). */
export function withTotal(state, said) {
  const v = state.view;
  return v.opened ? said : `${said} Opening: ${state.check?.opening_value ?? 0} of ${v.threshold}.`;
}

/** What Undo took back, told as the tile (or set) now is: "Undone: red 8 back to your
 *  rack, place 3 of 14." or "Undone: Set 2 whole again, red 2 to red 9: run, 44 points." */
function undoNews(state, id) {
  if (state.revealKind === "unstep") return withTotal(state, "Undone: the hint's last step.");
  if (state.revealKind === "unsplit") {
    const i = state.table.findIndex((row) => row.includes(id));
    return withTotal(state, `Undone: Set ${i + 1} whole again, ${setTiles(state, i)}.`);
  }
  const ids = state.revealKind === "ungroup" ? state.revealGroup : [id];
  // Tiles moved together from several places went back to each: said as one.
  const home = state.table.find((row) => row.includes(ids[0])) ?? state.rack;
  if (!ids.every((t) => home.includes(t))) {
    return withTotal(state, `Undone: ${ids.map((t) => tileName(state, t)).join(", ")} back where they were.`);
  }
  return `Undone: ${moveNews(state, ids, true)}`;
}

/** The news of tile ``id`` just moved, by what moved it (``state.revealKind``). */
export function news(state, id) {
  if (state.revealKind === "split") return splitNews(state, id);
  if (state.revealKind === "step") {
    const i = state.table.findIndex((row) => row.includes(id));
    return withTotal(state, `Hint step: ${setNews(state, i)}.`);
  }
  if (["undo", "unsplit", "unstep", "ungroup"].includes(state.revealKind)) return undoNews(state, id);
  return moveNews(state, state.revealKind === "group" ? state.revealGroup : [id]);
}

/** The move's news, read out (#move-news). */
export function tellMove(state, text) {
  // The same words twice in a row differ by a space, so they are read again (a live
  // region reads what changes).
  state.news = state.news === text ? `${text}\u00a0` : text;
  // Before the opening the words say its total: the turn line, which shows it too, is
  // not read out for this change (render).
  state.newsHasTotal = !state.view?.opened;
}

/** The player drew (or passed on an empty pool): "You drew red 5.", with the
 *  arrangement put back first when there was one. */
export function drawNews(arranged, drawn) {
  const did = drawn.length ? `drew ${drawnNames(drawn)}` : "passed";
  return arranged ? `Your arrangement was put back; you ${did}.` : `You ${did}.`;
}

/** The clock ran out, and the engine did ``event.outcome`` (its ``timeout`` event). */
export function timeoutNews(event) {
  const tiles = event.tiles ?? [];
  const n = tiles.length;
  const texts = {
    draw: `Time ran out: you drew ${drawnNames(tiles)}.`,
    pass: "Time ran out: the pool is empty, so you passed.",
    play: "Time ran out: your arrangement was legal, so it was played.",
    penalty: `Time ran out: your arrangement was not legal, so the table snapped back ${n ? `and you drew ${count(n, "penalty tile")}: ${drawnNames(tiles)}` : "(the pool is empty, so there was no penalty)"}.`,
  };
  return texts[event.outcome] ?? "Time ran out.";
}
