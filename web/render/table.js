// The table region: the sets' boxes (each set's handle and tiles, the gaps of tiles
// held, its note), the empty table's words, "+ New Set", and bringing the set just changed
// into the view. Its layout (tile size, joker labels) is table-fit.js's, asked for by
// layOutTable once every other region is drawn.

import { fromRack } from "../board.js";
import { held, isChoosing } from "../selection.js";
import { isMyTurn } from "../state.js";
import { jokersStandFor, setKind, setVerdict } from "../verdicts.js";
import { $, changed, el, setAttr, setChildren, setText } from "./dom.js";
import { fitTable, markJokerRows, placeJokerLabels, watchTable } from "./table-fit.js";
import { between, gap, richText, tileNode } from "./tile-elements.js";

// The table's set boxes, kept across renders by position (set 1's box stays set 1's),
// each with its parts: the number (on the player's turn a handle that takes the whole
// set), the row of tiles and the note.
const setBoxes = [];
let emptyTable = null;
// Whether the last render changed the table's rows (their joker labels are then placed
// again).
let tableMoved = true;
let tableShape = "";
function setBox(i) {
  if (!setBoxes[i]) {
    const tiles = el("div", { class: "set-tiles" });
    const note = el("p", { class: "set-note" });
    // Kept out of the arrow keys' way (roving.js): Shift+Space on a tile of the set does
    // the same from the keyboard.
    const handle = el("button", { type: "button", class: "set-number set-handle", "aria-label": `Set ${i + 1}: move whole set` }, [
      el("span", { class: "grip", text: "⠿", "aria-hidden": "true" }),
      String(i + 1),
    ]);
    const node = el("div", { class: "set", role: "group", "data-drop": "table", "data-set": String(i) }, [handle, tiles, note]);
    setBoxes[i] = { node, handle, tiles, note };
  }
  return setBoxes[i];
}

export function renderTable(state) {
  const mine = isMyTurn(state);
  const holding = new Set(held(state));
  // What every set's box is drawn with.
  const look = {
    mine,
    holding,
    choosing: isChoosing(state),
    showGaps: mine && holding.size > 0,
    placed: new Set(state.table.flat().filter((id) => fromRack(state, id))),
    startIds: new Set(state.startTable.flat()),
    locked: lockedSets(state),
  };
  const shapes = []; // what decides where the joker labels go: the rows and their notes
  const notes = [];
  let waiting = false; // a set's note waits for the engine's check
  const boxes = state.table.map((row, i) => {
    const drawn = drawSet(state, i, look);
    if (drawn.verdict === null) waiting = true;
    shapes.push(drawn.children, drawn.note, drawn.standsFor);
    notes.push(drawn.note);
    return drawn.node;
  });
  if (!state.table.length) boxes.push(drawEmptyTable(state));
  setChildren($("sets"), boxes);
  tableMoved = changed("table", JSON.stringify([state.table, shapes]));
  // What the sets' size depends on, the gaps of a tile picked up left out (fitTable);
  // nothing while a set's note waits for the engine's check (fitted without their notes
  // for that moment, the tiles grew 8 px and shrank back, QA pass 25).
  tableShape = waiting ? null : JSON.stringify([state.table, notes]);
  renderNewSet(state, look);
}

// The sets the engine says are locked (the locked-joker-sets variant: they hold a
// joker), by their tiles: a set still as it was is marked "locked". Changed, the
// engine's check says why it may not be.
const setKey = (ids) => ids.slice().sort((a, b) => a - b).join(" ");
function lockedSets(state) {
  return new Set(state.view.table.filter((set) => set.locked).map((set) => setKey(set.tiles.map((t) => t.id))));
}

/** Set i's box drawn: its tiles (and gaps), its class, its name and its note. Returns
 *  the box with what it was drawn from (its verdict, note and jokers, its count of
 *  children). */
function drawSet(state, i, look) {
  const row = state.table[i];
  const standsFor = jokersStandFor(state, i);
  const verdict = setVerdict(state, i);
  const invalid = verdict?.problem !== undefined;
  const box = setBox(i);
  const children = [];
  const here = `Put here: Set ${i + 1}`;
  row.forEach((id, j) => {
    if (look.showGaps) children.push(gap({ area: "table", set: i, index: j }, `${here}, ${between(state, row, j)}`));
    children.push(
      tileNode(state.tiles.get(id), {
        disabled: !look.mine,
        selected: look.holding.has(id),
        chosen: look.choosing && look.holding.has(id),
        highlight: state.highlight.has(id),
        hint: state.hintIds.has(id),
        placed: look.placed.has(id),
        pending: state.pending.has(id),
        standsFor: standsFor.get(id) ?? null,
      }),
    );
  });
  if (look.showGaps) children.push(gap({ area: "table", set: i, index: row.length }, `${here}, ${between(state, row, row.length)}`));
  setChildren(box.tiles, children);
  if (box.handle.disabled === look.mine) box.handle.disabled = !look.mine; // a write only when it changes
  setAttr(box.handle, "aria-pressed", look.choosing && row.every((id) => look.holding.has(id)) ? "true" : "false");
  // Under its own set a problem needs no "Set 3: " in front (the message keeps it).
  const isLocked = !invalid && look.locked.has(setKey(row));
  const note = invalid ? verdict.problem : verdict ? `${verdict.kind} · ${verdict.value}${isLocked ? " · locked" : ""}` : "";
  const isNew = row.every((id) => !look.startIds.has(id));
  const kind = setKind(state, i);
  setAttr(box.node, "class", ["set", invalid ? "invalid" : "", isNew && look.mine ? "new" : "", box.node.classList.contains("joker-row") ? "joker-row" : ""].join(" ").trim());
  setAttr(box.node, "aria-label", `Set ${i + 1}${invalid ? ", not valid" : kind ? `, ${kind}` : ""}${isLocked ? ", locked" : ""}`);
  setAttr(box.note, "class", invalid ? "set-note error" : "set-note");
  // Tile codes in a problem ("the set Y10 J Y12 Y13 holds a joker") as small tiles, as
  // the message shows them.
  if (box.note.textContent !== note) box.note.replaceChildren(...richText(note));
  return { node: box.node, verdict, note, standsFor: [...standsFor.values()], children: children.length };
}

/** The round's start: the place to say what the turn line's "Opening: 0 of 30" asks. */
function drawEmptyTable(state) {
  emptyTable ??= el("p", { class: "empty-table" });
  const v = state.view;
  const open = `To open, lay sets from your rack worth ${v.threshold} points or more in all.`;
  const playing = !v.round_over && v.me !== null && !v.players[v.me].resigned; // nobody's view: no rack
  setText(emptyTable, `The table is empty.${playing ? ` ${open}` : ""}`);
  // Not under the who-starts draw's box, which cut through it (kept in place, unseen).
  emptyTable.classList.toggle("behind", !!state.whoStarts);
  return emptyTable;
}

function renderNewSet(state, look) {
  const newSet = $("new-set");
  newSet.classList.toggle("idle", !look.mine); // out of sight, its room kept
  // Once the round is over its room goes to the sets ("See Table" showed an empty row
  // under the view, the sets scrolled).
  newSet.hidden = !!state.view.round_over;
  newSet.disabled = !look.mine;
  newSet.classList.toggle("armed", look.showGaps);
}

/** The table laid out, once every region is drawn (the layout is measured then): the
 *  rows holding a joker marked, the tiles fitted to the view, the set just changed
 *  brought into view, and the joker labels placed. Measured again only when the rows
 *  changed (and when the table changes size: table-fit.js watchTable); measuring
 *  forced a layout at every render. */
export function layOutTable(state) {
  watchTable(layOutAgain);
  if (tableMoved) markJokerRows();
  const fitted = fitTable(tableShape);
  revealSet(state);
  if (tableMoved || fitted) placeJokerLabels();
}

/** The sets' view changed size: its joker labels are placed again, and when it shrank,
 *  the set last shown is brought back into view (a small phone's view lost a row to the
 *  buttons under it, and the note of the set just laid slipped out of view). */
function layOutAgain(shrank) {
  markJokerRows();
  fitTable(tableShape);
  placeJokerLabels();
  if (shrank && keptInView !== null) showSetsOf(keptInView);
}

/** After a move, the whole set the tile went to (its note and number included) is
 *  scrolled into the sets' view (its scroll-padding): focusing the tile showed the tile
 *  only, its note out of view. So are, once, the sets of the tiles in ``showSet``: the
 *  set a hint step laid (the last one was left cut in half under "+ New Set" on a phone,
 *  QA pass 24), and at See Table those the round's last turn put tiles in (the view had
 *  been left wherever the last turn was shown, often a row cut in half at each edge). */
function revealSet(state) {
  if (!isMyTurn(state)) keptInView = null;
  const ids = state.reveal !== null ? [state.reveal] : state.showSet;
  state.showSet = null;
  if (ids === null) return;
  keptInView = ids;
  showSetsOf(ids);
}

/** The sets holding any of ``ids`` brought into the table's view: together when they
 *  fit, the first at the top when they do not; the top of the table when ``ids`` is
 *  empty (See Table after a turn that put nothing down: a pass, a resignation). */
function showSetsOf(ids) {
  if (!ids.length) {
    $("table-view").scrollTop = 0;
    return;
  }
  const wanted = new Set(ids);
  const sets = [...document.querySelectorAll("#sets .set")].filter((set) =>
    [...set.querySelectorAll(".tile")].some((tile) => wanted.has(Number(tile.dataset.id))),
  );
  // The last to the nearest edge, then the first: both in view when they fit together.
  for (const set of [sets.at(-1), sets[0]]) set?.scrollIntoView({ block: "nearest", inline: "nearest" });
}

// The tiles whose sets were last brought into the table's view on this turn (kept in
// view when the view shrinks: layOutAgain).
let keptInView = null;
