// A tile as an element (its face, as on a real table), the kept tile and gap nodes of
// the table and the rack, and the engine's words with each tile code ("Y4") shown as a
// small tile. Shared by the regions that draw tiles; each region places these nodes in
// its own elements.

import { codeLabel, COLOUR_WORD } from "../words.js";
import { el, setAttr } from "./dom.js";

export const SYMBOLS = { red: "●", blue: "■", yellow: "▲", black: "◆" };

// A tile's code in the engine's words ("Y4", "K13", "J"), as the narration and the log
// say them.
const CODE = /\b([RBYK])(1[0-3]|[1-9])\b|\bJ\b/g;

/** The engine's words with each tile code shown as a small tile: its number in its
 *  colour, with its colour's symbol (CSS); the letter stays in the text, hidden from the
 *  eye, so the words read (and copy) as they are written: "Computer 1 laid Y4 Y5 Y6". */
export function richText(text) {
  const parts = [];
  let last = 0;
  for (const m of text.matchAll(CODE)) {
    let before = text.slice(last, m.index);
    // An opening bracket stays with the small tile after it: a line broke between them,
    // leaving "(" alone at a line's end.
    const bracket = /[([]$/.test(before) ? before.slice(-1) : "";
    if (bracket) before = before.slice(0, -1);
    if (before) parts.push(before);
    const letter = el("span", { class: "code-letter sr-only", text: m[1] ?? "J" });
    const chip = el("span", { class: `code ${m[1] ? COLOUR_WORD[m[1]] : "joker"}` }, [letter, m[2] ?? ""]);
    parts.push(bracket ? el("span", { class: "nowrap" }, [bracket, chip]) : chip);
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** A tile as it looks on a real table. `opts.standsFor` is the code a joker stands for. */
export function tileElement(tile, opts = {}) {
  const node = opts.interactive
    ? el("button", { type: "button" })
    : el("span", { role: "img" });
  node.setAttribute("aria-label", tile.label);
  if (opts.interactive) {
    node.dataset.id = String(tile.id);
    node.dataset.key = `tile-${tile.id}`;
  }
  if (tile.joker) {
    node.append(el("span", { class: "face", text: "☺", "aria-hidden": "true" }));
    node.append(el("span", { class: "sym", text: "JOKER", "aria-hidden": "true" }));
    node.append(el("span", { class: "stands", "aria-hidden": "true", hidden: true }));
  } else {
    node.append(el("span", { class: "num", text: String(tile.number), "aria-hidden": "true" }));
    node.append(el("span", { class: "sym", text: SYMBOLS[tile.color], "aria-hidden": "true" }));
  }
  updateTile(node, tile, opts);
  return node;
}

function updateTile(node, tile, opts) {
  const cls = ["tile", tile.joker ? "joker" : tile.color];
  if (opts.selected) cls.push("selected");
  if (opts.chosen) cls.push("chosen"); // one of several held to move together
  if (opts.highlight) cls.push("highlight");
  if (opts.hint) cls.push("hinted");
  if (opts.placed) cls.push("placed");
  if (opts.pending) cls.push("pending");
  if (node.classList.contains("dragging")) cls.push("dragging");
  setAttr(node, "class", cls.join(" "));
  if (opts.interactive) {
    setAttr(node, "aria-pressed", opts.selected ? "true" : "false");
    setAttr(node, "aria-disabled", opts.disabled ? "true" : null);
  }
  if (tile.joker) {
    const badge = node.querySelector(".stands");
    if (badge.hidden !== !opts.standsFor) badge.hidden = !opts.standsFor;
    // The tile as a small tile ("= [12 ■]"), as the message shows codes: "= B12" asked
    // the player to know that B is blue and K black.
    const stands = opts.standsFor ? `= ${opts.standsFor}` : "";
    if (badge.textContent !== stands) badge.replaceChildren(...richText(stands));
    setAttr(node, "title", opts.standsFor ? `stands for ${codeLabel(opts.standsFor)}` : null);
    // Said as well as shown: a screen reader hears what the joker stands for.
    setAttr(node, "aria-label", opts.standsFor ? `${tile.label}, standing for ${codeLabel(opts.standsFor)}` : tile.label);
  }
}

// Tile nodes are kept across renders (keyed by id), so a tile being dragged, focused
// or watched by a test stays the same element while the rest of the page updates.
const tileNodes = new Map();
export function tileNode(tile, opts) {
  const key = `${tile.id}:${tile.code}`;
  let node = tileNodes.get(key);
  if (!node) {
    node = tileElement(tile, { ...opts, interactive: true });
    tileNodes.set(key, node);
  } else {
    updateTile(node, tile, { ...opts, interactive: true });
  }
  return node;
}

// Gaps are kept across renders too, keyed by place.
const gapNodes = new Map();
export function gap(where, label) {
  const key = `gap-${where.area}-${where.set ?? ""}-${where.index}`;
  let node = gapNodes.get(key);
  if (!node) {
    const attrs = { type: "button", "data-drop": where.area, "data-index": String(where.index), "data-key": key };
    if (where.area === "table") attrs["data-set"] = String(where.set);
    node = el("button", attrs);
    gapNodes.set(key, node);
  }
  setAttr(node, "aria-label", label); // a row's end gap becomes a middle one as it grows
  setAttr(node, "class", "gap"); // no drop mark kept from a drag that ended while it was away
  return node;
}

/** Where the gap at `index` of `row` (tile ids) is, by the tiles on either side of it
 *  ("between red 5 and red 6", "before red 5", "end, after red 7"): "position 2" asked a
 *  screen reader's user to count the tiles. */
export function between(state, row, index) {
  const label = (k) => state.tiles.get(row[k]).label;
  if (index === 0) return row.length ? `before ${label(0)}` : "end";
  if (index === row.length) return `end, after ${label(index - 1)}`;
  return `between ${label(index - 1)} and ${label(index)}`;
}
