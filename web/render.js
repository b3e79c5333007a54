// State to DOM, in one pass. Every change goes: a board/api function changes the
// state, then render(). Nothing else writes to the game's DOM.

import { canSplit, fromRack, isTouched, locate } from "./board.js";
import { updateTabStops } from "./roving.js";
import { isMyTurn } from "./state.js";

export const SYMBOLS = { red: "●", blue: "■", yellow: "▲", black: "◆" };
const COLOUR_WORD = { R: "red", B: "blue", Y: "yellow", K: "black" };

const $ = (id) => document.getElementById(id);

/** A number as typeset, with a true minus sign (a hyphen is shorter than the plus and
 *  sits lower): "−45". */
export const minus = (n) => (n < 0 ? `\u2212${-n}` : String(n));

/** "1 tile", "2 tiles", "−1 pt": a count and its noun, singular for one (or minus one). */
export function count(n, word, plural = `${word}s`) {
  return `${minus(n)} ${Math.abs(n) === 1 ? word : plural}`;
}

/** A sentence that starts with a tile's name ("yellow 1 was…") starts with a capital. */
export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** The variants offered on the start screen, each with the line that explains it there
 *  and in How To Play (the engine is what applies them). */
export const VARIANTS = [
  { flag: "wrap_runs", name: "Runs may wrap from 13 to 1", short: "runs wrap 13 to 1", about: "A run may go on from 13 to 1: 12 13 1 2 is a run." },
  {
    flag: "locked_jokers",
    name: "Sets with a joker are locked",
    short: "joker sets locked",
    about: "A set holding a joker can't be changed, except to swap the joker out for the tile it stands for.",
  },
  {
    flag: "easing_opening",
    name: "Opening gets easier while you wait",
    short: "opening eases",
    about: "The opening total drops by 5 after every 2 of your turns without opening, never below 10.",
  },
  {
    flag: "last_call",
    name: "Last call when the pool runs dry",
    short: "last call",
    about: "Once the pool is empty, every player has one last turn; then the round ends as if nobody could play.",
  },
  {
    flag: "no_winner_when_blocked",
    name: "No winner when blocked",
    short: "no winner when blocked",
    about: "If the pool runs dry and nobody can play, nobody wins: everyone loses the value of their own rack.",
  },
];

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k in node && typeof v !== "string") node[k] = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of [].concat(children)) if (c) node.append(c);
  return node;
}

// A tile's code in the engine's words ("Y4", "K13", "J"), as the narration and the log
// say them.
const CODE = /\b([RBYK])(1[0-3]|[1-9])\b|\bJ\b/g;

/** The engine's words with each tile code shown as a small tile: its number in its
 *  colour, with its colour's symbol (CSS); the letter stays in the text, hidden from the
 *  eye, so the words read (and copy) as they are written: "Computer 1 laid Y4 Y5 Y6". */
function richText(text) {
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

/** "R11" -> "red 11"; a joker in a 3-tile group may stand for either missing colour:
 *  "B10/Y10" -> "blue 10 or yellow 10". */
export function codeLabel(code) {
  if (!code) return "";
  if (code.includes("/")) return code.split("/").map(codeLabel).join(" or ");
  if (code === "J") return "joker";
  return `${COLOUR_WORD[code[0]] ?? code[0]} ${code.slice(1)}`;
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
function tileNode(tile, opts) {
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
function gap(where, label) {
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
function between(state, row, index) {
  const label = (k) => state.tiles.get(row[k]).label;
  if (index === 0) return row.length ? `before ${label(0)}` : "end";
  if (index === row.length) return `end, after ${label(index - 1)}`;
  return `between ${label(index - 1)} and ${label(index)}`;
}

/** `parent`'s children become `nodes`, in order, touching the DOM only where they differ:
 *  what is no longer wanted is taken out, what is new or out of place is put in, and a
 *  node already where it belongs stays. A tile moved in and out of the page starts its
 *  glow and its transitions over and loses the focus; re-inserting every tile at each
 *  render made the browser restyle and lay out the whole board (35-90 ms a render at 4x
 *  CPU), and re-inserting a whole row when gaps came or a set was added restarted every
 *  computer's glow and skipped the picked-up tile's lift (QA pass 18). */
function setChildren(parent, nodes) {
  const now = parent.childNodes;
  if (now.length === nodes.length && nodes.every((n, i) => now[i] === n)) return;
  const wanted = new Set(nodes);
  for (const child of [...now]) if (!wanted.has(child)) child.remove();
  nodes.forEach((node, i) => {
    if (now[i] !== node) parent.insertBefore(node, now[i] ?? null);
  });
}

// What each region (the table's rows, the players' cards, the log, the message) was
// last drawn from, as a string: a render that would draw the same leaves it be.
const drawnFrom = new Map();
/** Is `signature` new for `region`? (It is kept as what the region is now drawn from.) */
function changed(region, signature) {
  if (drawnFrom.get(region) === signature) return false;
  drawnFrom.set(region, signature);
  return true;
}

/** Write an attribute only when it changes (null removes it). */
function setAttr(node, name, value) {
  if (value === null) node.removeAttribute(name);
  else if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** What the engine says about set i of the arrangement: a live check when the turn is
 *  touched, else the view's own reading of the table. */
function setInfo(state, i) {
  if (state.check?.sets?.[i]) return state.check.sets[i];
  if (!isTouched(state) && state.view.table[i]) return { valid: true, ...state.view.table[i] };
  return null;
}

function setErrors(state, i) {
  const source = state.refused?.errors ?? state.check?.errors ?? [];
  return source.filter((e) => e.set === i).map((e) => e.message);
}

/** What set i of the arrangement is, as its note shows it and a move's news says it:
 *  ``{problem}`` (its first problem: its own, or one of the turn's that is about it, such
 *  as "before your opening, new sets come from your rack only"), ``{kind, value}``, or
 *  null while nothing is known of it. */
export function setVerdict(state, i) {
  const info = setInfo(state, i);
  const errors = setErrors(state, i);
  if ((info && info.valid === false) || errors.length > 0) {
    return { problem: (errors[0] || info?.message || "Not a valid set").replace(/^Set \d+: /, "") };
  }
  return info ? { kind: info.kind ?? "set", value: info.value } : null;
}

/** What each joker of set i stands for (a code such as "R7", or null), by tile id: a
 *  check reads a row laid out of order in order, and its stands_for goes with that order. */
export function jokersStandFor(state, i) {
  const info = setInfo(state, i);
  const order = info?.order ?? state.table[i];
  return new Map(order.map((id, k) => [id, info?.stands_for?.[k] ?? null]));
}

// The table's set boxes, kept across renders by position (set 1's box stays set 1's),
// each with its parts: the number, the row of tiles and the note.
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
    const node = el("div", { class: "set", role: "group", "data-drop": "table", "data-set": String(i) }, [
      el("span", { class: "set-number", text: String(i + 1), "aria-hidden": "true" }),
      tiles,
      note,
    ]);
    setBoxes[i] = { node, tiles, note };
  }
  return setBoxes[i];
}

function renderTable(state) {
  const sets = $("sets");
  const mine = isMyTurn(state);
  const selected = state.selected;
  const showGaps = mine && selected !== null;
  const placed = new Set(state.table.flat().filter((id) => fromRack(state, id)));
  const startIds = new Set(state.startTable.flat());
  // The sets the engine says are locked (the locked-joker-sets variant: they hold a
  // joker), by their tiles: a set still as it was is marked "locked". Changed, the
  // engine's check says why it may not be.
  const setKey = (ids) => ids.slice().sort((a, b) => a - b).join(" ");
  const locked = new Set(state.view.table.filter((set) => set.locked).map((set) => setKey(set.tiles.map((t) => t.id))));
  const shapes = []; // what decides where the joker labels go: the rows and their notes
  const notes = [];
  let waiting = false; // a set's note waits for the engine's check
  const boxes = state.table.map((row, i) => {
    const info = setInfo(state, i);
    const standsFor = jokersStandFor(state, i);
    const verdict = setVerdict(state, i);
    if (verdict === null) waiting = true;
    const invalid = verdict?.problem !== undefined;
    const box = setBox(i);
    const children = [];
    const here = `Put here: Set ${i + 1}`;
    row.forEach((id, j) => {
      if (showGaps) children.push(gap({ area: "table", set: i, index: j }, `${here}, ${between(state, row, j)}`));
      children.push(
        tileNode(state.tiles.get(id), {
          disabled: !mine,
          selected: selected === id,
          highlight: state.highlight.has(id),
          hint: state.hintIds.has(id),
          placed: placed.has(id),
          pending: state.pending.has(id),
          standsFor: standsFor.get(id) ?? null,
        }),
      );
    });
    if (showGaps) children.push(gap({ area: "table", set: i, index: row.length }, `${here}, ${between(state, row, row.length)}`));
    setChildren(box.tiles, children);
    // Under its own set a problem needs no "Set 3: " in front (the message keeps it).
    const isLocked = !invalid && locked.has(setKey(row));
    const note = invalid ? verdict.problem : verdict ? `${verdict.kind} · ${verdict.value}${isLocked ? " · locked" : ""}` : "";
    const isNew = row.every((id) => !startIds.has(id));
    setAttr(box.node, "class", ["set", invalid ? "invalid" : "", isNew && mine ? "new" : "", box.node.classList.contains("joker-row") ? "joker-row" : ""].join(" ").trim());
    setAttr(box.node, "aria-label", `Set ${i + 1}${invalid ? ", not valid" : info?.kind ? `, ${info.kind}` : ""}${isLocked ? ", locked" : ""}`);
    setAttr(box.note, "class", invalid ? "set-note error" : "set-note");
    // Tile codes in a problem ("the set Y10 J Y12 Y13 holds a joker") as small tiles, as
    // the message shows them.
    if (box.note.textContent !== note) box.note.replaceChildren(...richText(note));
    shapes.push(children.length, note, [...standsFor.values()]);
    notes.push(note);
    return box.node;
  });
  if (!state.table.length) {
    // The round's start: the place to say what the turn line's "Opening: 0 of 30" asks.
    emptyTable ??= el("p", { class: "empty-table" });
    const v = state.view;
    const open = `To open, lay sets from your rack worth ${v.threshold} points or more in all.`;
    const playing = !v.round_over && !v.players[v.me]?.resigned;
    setText(emptyTable, `The table is empty.${playing ? ` ${open}` : ""}`);
    // Not under the who-starts draw's box, which cut through it (kept in place, unseen).
    emptyTable.classList.toggle("behind", !!state.whoStarts);
    boxes.push(emptyTable);
  }
  setChildren(sets, boxes);
  tableMoved = changed("table", JSON.stringify([state.table, shapes]));
  // What the sets' size depends on, the gaps of a tile picked up left out (fitTable);
  // nothing while a set's note waits for the engine's check (fitted without their notes
  // for that moment, the tiles grew 8 px and shrank back, QA pass 25).
  tableShape = waiting ? null : JSON.stringify([state.table, notes]);
  const newSet = $("new-set");
  newSet.classList.toggle("idle", !mine); // out of sight, its room kept
  // Once the round is over its room goes to the sets ("See Table" showed an empty row
  // under the view, the sets scrolled).
  newSet.hidden = !!state.view.round_over;
  newSet.disabled = !mine;
  newSet.classList.toggle("armed", showGaps);
}

function renderRack(state) {
  const rack = $("rack");
  const mine = isMyTurn(state);
  const selected = state.selected;
  const gaps = mine && selected !== null && fromRack(state, selected);
  const children = [];
  state.rack.forEach((id, j) => {
    if (gaps) children.push(gap({ area: "rack", index: j }, `Put here: rack, ${between(state, state.rack, j)}`));
    children.push(
      tileNode(state.tiles.get(id), {
        selected: selected === id,
        hint: state.hintIds.has(id),
        highlight: state.highlight.has(id) || state.drawn.has(id),
      }),
    );
  });
  if (gaps) children.push(gap({ area: "rack", index: state.rack.length }, `Put here: rack, ${between(state, state.rack, state.rack.length)}`));
  setChildren(rack, children);
  rack.classList.toggle("armed", gaps);
}

/** The player whose turn is on show, and what they are doing: a computer's turn stays
 *  on show (its tiles revealed, then a pause) after the engine has moved on to the next
 *  player, and nobody's turn has begun while the who-starts draw is shown. */
function shownTurn(state) {
  const v = state.view;
  if (v.round_over || state.whoStarts) return null;
  if (state.showing) return state.showing;
  if (v.current === v.me) return { player: v.me, action: "mine" };
  return { player: v.current, action: "thinking" };
}

/** What a computer whose turn is on show is doing, said after its name ("Computer 2
 *  is thinking…", "… drew a tile"). */
function computerDoing(state, action) {
  if (action === "play") return state.pending.size ? "is playing…" : "played";
  return { thinking: "is thinking…", draw: "drew a tile", pass: "passed" }[action];
}

/** The same on the player's card, where the name stands above it ("thinking…"). */
function turnStatus(state, shown) {
  if (shown.action === "mine") return "your turn";
  return computerDoing(state, shown.action)?.replace(/^is /, "") ?? "to play";
}

function renderPlayers(state) {
  const v = state.view;
  const list = $("players");
  const shown = shownTurn(state);
  // A computer's rack goes down tile by tile as its play is shown, not all at once
  // before the first tile appears: the tiles of its rack still to be shown are counted.
  const showing = state.showing;
  const unshown = showing?.placed ? [...state.pending].filter((id) => showing.placed.has(id)).length : 0;
  const tiles = v.players.map((p, i) => p.rack_count + (i === showing?.player ? unshown : 0));
  // Rebuilt only when something on the cards changes (most renders change nothing there).
  if (!changed("players", JSON.stringify([v.me, shown?.player, shown?.action, state.pending.size > 0, tiles, v.players]))) return;
  list.replaceChildren();
  v.players.forEach((p, i) => {
    const current = shown?.player === i;
    const who = i === v.me ? "You" : p.name;
    const level = p.kind === "bot" && p.level ? p.level[0].toUpperCase() + p.level.slice(1) : null;
    const status = p.resigned ? "resigned" : current ? turnStatus(state, shown) : "";
    list.append(
      // A computer thinking: its card's ring breathes (a long search on a slow phone
      // looked like a hang behind the still words "is thinking…").
      el("li", { class: `player${current ? " current" : ""}${current && shown.action === "thinking" ? " thinking" : ""}${i === v.me ? " me" : ""}`, "data-player": String(i) }, [
        el("span", { class: "player-name", text: who }),
        level ? el("span", { class: "player-level", text: level }) : null,
        el("span", { class: "player-tiles", text: count(tiles[i], "tile"), title: "tiles on rack" }),
        el("span", { class: "player-score", text: count(p.score, "pt", "pts") }),
        status ? el("span", { class: "player-status", text: status }) : null,
      ]),
    );
  });
}

function turnText(state) {
  const v = state.view;
  if (v.round_over) return v.match_over ? "Game over" : "Round complete";
  const shown = shownTurn(state);
  if (!shown) return "Who starts? Each player draws a tile";
  if (shown.action !== "mine") return `${v.players[shown.player].name} ${computerDoing(state, shown.action)}`;
  // Last call: once the engine says it has begun each player has exactly one more turn,
  // so this is the player's last of the round (the rule is the engine's; this only names it).
  let text = v.last_call ? "Your last turn" : "Your turn";
  if (!v.opened) {
    const total = state.check?.opening_value ?? 0;
    // Eased (the engine's threshold, lower than the game's opening): said, with from what.
    const eased = v.rules?.opening && v.threshold < v.rules.opening ? ` (eased from ${v.rules.opening})` : "";
    // "39 of 30" kept on one line (non-breaking spaces): a narrow turn line wrapped
    // "30" alone onto the next.
    text += ` · Opening: ${total}\u00a0of\u00a0${v.threshold}${eased.replaceAll(" ", "\u00a0")}`;
  }
  return text;
}

/** "Round 2 · first to 200" in the top bar, in a game of more than one round. */
function renderRoundLine(state) {
  const v = state.view;
  const target = state.screen === "game" ? v?.rules?.target ?? 0 : 0;
  $("round-line").hidden = !target;
  if (!target) return;
  setText($("round-number"), `Round ${v.round}`);
  setText($("round-points"), String(target));
}

/** The rules of the game in hand that are not the standard ones (the variants, a 50
 *  opening, a 25-point joker), beside the turn line: a tap opens How To Play, which
 *  tells them in full. Hidden under the standard rules. */
function renderRulesInfo(state) {
  const r = state.view.rules ?? {};
  const on = [
    r.opening && r.opening !== 30 ? `opening ${r.opening}` : null,
    r.joker_penalty && r.joker_penalty !== 30 ? `joker costs ${r.joker_penalty}` : null,
    ...VARIANTS.filter((v) => r[v.flag]).map((v) => v.short),
  ].filter(Boolean);
  const button = $("rules-info");
  button.hidden = !on.length;
  // A game with a turn clock keeps room for it beside the turn line (layout only).
  button.parentElement.classList.toggle("timed", !!r.turn_seconds);
  $("rules-list").textContent = on.join(" · ");
  $("rules-count").textContent = count(on.length, "variant");
  // The tooltip says what the description says (its text is the describing element's).
  button.title = `Variants: ${on.join(" · ")}. ${$("rules-opens").textContent}.`;
}

function renderControls(state) {
  const mine = isMyTurn(state);
  const touched = isTouched(state);
  const v = state.view;
  $("confirm").disabled = !mine || !touched;
  // The engine's live check says the arrangement would be refused: Confirm Play still
  // works (it then says why), but it no longer looks like the thing to press.
  const refused = mine && touched && state.check?.ok === false;
  $("confirm").classList.toggle("primary", !refused);
  $("confirm").title = refused ? "Not a valid play yet: press to see why" : "";
  $("reset").disabled = !mine || !touched;
  $("undo").disabled = !mine || state.undo.length === 0;
  $("draw").disabled = !mine;
  $("draw").textContent = v && v.pool === 0 ? "Pass" : "Draw"; // nothing left to draw
  $("hint").disabled = !mine;
  setAttr($("hint"), "aria-busy", state.hinting ? "true" : "false");
  // While a hint is being laid out its next step takes Hint's place (asked again, Hint
  // gave the same play): beside it, it took a row of buttons of its own on a phone, and
  // the table's view lost that much height.
  const stepping = !!(mine && state.hint);
  $("hint-step").hidden = !stepping;
  $("hint").hidden = stepping || !!v?.round_over;
  // The round is over and its scores were put aside to see the table: the way back, and
  // no turn's buttons (they stood there disabled, Confirm Play in yellow beside it).
  $("show-scores").hidden = !(v?.round_over && state.dialog !== "round");
  for (const id of ["confirm", "undo", "reset", "draw", "return"]) $(id).hidden = !!v?.round_over;
  // "Next Step" is wider than "Hint": while a hint is laid out, "Split" gives it its room
  // (the turn's buttons keep two rows on a phone). A move of the player's own ends the hint.
  $("split").hidden = !!v?.round_over || stepping;
  // Nothing to sort on a rack of one tile or none (gone out, See Table).
  $("sort-colour").disabled = $("sort-number").disabled = state.rack.length < 2;
  const sel = state.selected;
  const onTable = sel !== null && locate(state, sel)?.area === "table";
  // Shown on every turn, disabled on the computers': hidden, it took the bar from two
  // rows to one at tablet widths, and the table grew and shrank by 37 px every turn.
  // Any table tile held enables it: for one that was on the table as the turn began it
  // says why that tile stays there (api.js ``move``), where a greyed button said nothing.
  $("return").disabled = !(mine && onTable);
  $("split").disabled = !(mine && sel !== null && canSplit(state, sel));
  const pool = $("pool-button");
  pool.disabled = !mine;
  $("pool-count").textContent = String(v.pool);
  $("pool-unit").textContent = v.pool === 1 ? "tile" : "tiles";
  const hint = v.pool ? (mine ? "tap to draw" : "in the pool") : mine ? "empty: tap to pass" : "empty";
  $("pool-hint").textContent = hint;
  // Its name holds every visible word in its order (WCAG 2.5.3, Label in Name): "Pool:
  // 50 tiles, tap to draw", "50 tiles in the pool", "Pool: 0 tiles, empty: tap to pass".
  const tiles = count(v.pool, "tile");
  pool.setAttribute("aria-label", v.pool && !mine ? `${tiles} ${hint}` : `Pool: ${tiles}, ${hint}`);
  const opening = !v.opened && mine;
  document.body.classList.toggle("opening", opening);
}

/** How the round ended and where the match stands, as the score screen says it ("You
 *  went out and won the round! Round 2 of a game to 200 points: ..."). */
export function roundReason(v) {
  const out = v.outcome;
  const winner = out.winner === null ? null : v.players[out.winner].name;
  const youWon = out.winner === v.me;
  // Under "last call" the round ended once every player had one more turn, played or
  // not ("nobody could play" was said after a computer had laid tiles in its last turn).
  const dry = v.rules?.last_call ? "The pool ran dry and every player had a last turn" : "The pool ran dry";
  const stuck = v.rules?.last_call ? dry : `${dry} and nobody could play`;
  const reasons = {
    // What happened in the round is told in the past ("went out and won"); the match,
    // still on show, in the present ("You win the game").
    went_out: youWon ? "You went out and won the round!" : `${winner} went out and won the round.`,
    blocked: winner === null ? `${stuck}: no winner.` : `${dry}; ${youWon ? "you" : winner} had the lowest rack and won.`,
    resigned: winner === null ? "The round ended by resignation." : `${youWon ? "You" : winner} won the round by resignation.`,
  };
  let reason = reasons[out.reason] ?? "";
  const target = v.rules?.target ?? 0;
  if (v.match_over && v.winner !== null) {
    // The engine names the match winner (a tie on totals goes to the earlier seat).
    const champion = v.winner === v.me ? "You win" : `${v.players[v.winner].name} wins`;
    reason += target
      ? ` ${champion} the game with ${count(out.totals[v.winner], "point")} (first to ${target}), after ${count(v.round, "round")}.`
      : out.winner !== null
        ? ` ${champion} the game.`
        : // Nobody won the round (blocked, "no winner"): the game goes to the highest total.
          ` ${champion} the game with the highest total, ${count(out.totals[v.winner], "point")}.`;
  } else if (target) {
    reason += ` Round ${v.round} of a game to ${target} points: the totals go on to the next round.`;
  }
  return reason;
}

function renderRoundDialog(state) {
  const dialog = $("round-dialog");
  const v = state.view;
  if (state.dialog !== "round" || !v.outcome) {
    if (dialog.open) dialog.close();
    return;
  }
  const out = v.outcome;
  $("round-title").textContent = v.match_over ? "Game Over" : "Round Complete";
  $("round-reason").textContent = roundReason(v);
  renderLeftTiles(state);
  const body = $("round-scores");
  body.replaceChildren();
  const order = v.players.map((_, i) => i);
  if (v.match_over) order.sort((a, b) => out.totals[b] - out.totals[a]);
  for (const i of order) {
    const p = v.players[i];
    const sign = (n) => (n > 0 ? `+${n}` : minus(n));
    body.append(
      el("tr", { class: i === out.winner ? "winner" : "" }, [
        el("th", { scope: "row" }, [p.name, p.resigned ? el("span", { class: "resigned", text: " (resigned)" }) : null]),
        el("td", { text: String(out.rack_values[i]) }),
        el("td", { text: sign(out.scores[i]) }),
        el("td", { text: minus(out.totals[i]) }),
      ]),
    );
  }
  $("next-round").hidden = v.match_over;
  $("new-game").classList.toggle("primary", v.match_over);
  if (!dialog.open) {
    dialog.showModal();
    (v.match_over ? $("new-game") : $("next-round")).focus();
  }
}

/** Each player's tiles left at the end of the round (the engine shows every rack once
 *  the round is over), smallest first, jokers last. */
function renderLeftTiles(state) {
  const v = state.view;
  const racks = v.outcome?.racks ?? [];
  const key = (t) => (t.joker ? 999 : t.number * 10 + "RBYK".indexOf(t.code[0]));
  const items = v.players.flatMap((p, i) => {
    const tiles = (racks[i] ?? []).slice().sort((a, b) => key(a) - key(b));
    if (!tiles.length) return [];
    const names = tiles.map((t) => t.label).join(", ");
    return [
      el("li", {}, [
        el("span", { class: "left-name", text: i === v.me ? "You" : p.name }),
        el("span", { class: "left-tiles", role: "img", "aria-label": names }, tiles.map((t) => tileElement(t))),
      ]),
    ];
  });
  $("round-left-list").replaceChildren(...items);
  $("round-left").hidden = !items.length;
}

function renderWhoStarts(state) {
  const box = $("who-starts");
  const w = state.whoStarts;
  box.hidden = !w;
  if (!w) {
    box.dataset.round = "";
    return;
  }
  const v = state.view;
  if (box.dataset.round !== String(w.round)) {
    box.dataset.round = String(w.round);
    box.replaceChildren(
      el("p", { class: "who-title", text: w.round ? "Drawing again" : "Highest tile starts" }),
      ...w.draws.map((d) =>
        el("div", { class: "who-row" }, [
          el("span", { class: "who-name", text: d.player === v.me ? "You" : v.players[d.player].name }),
          el("span", { class: "flip" }, [
            el("span", { class: "flip-back" }),
            el("span", { class: "flip-front" }, [tileElement(d.tile)]),
          ]),
        ]),
      ),
      el("p", { class: "who-outcome" }),
    );
  }
  for (const flip of box.querySelectorAll(".flip")) flip.classList.toggle("flipped", w.flipped);
  // Said once the tiles are turned, not before: the draw's outcome is its news.
  box.querySelector(".who-outcome").textContent = w.flipped ? w.outcome : "";
}

/** Is the whole game log on show? (Opened, and with lines: an empty log is hidden.) */
export function logShown(state) {
  return state.logOpen && (state.view?.log.length ?? 0) > 0;
}

// Shut, the log shows its last lines (the last one alone on a phone); open, every line
// the engine keeps (50), scrolled to the newest, over the table so the rack stays put.
function renderLog(state) {
  const log = $("log");
  let lines = state.view.log;
  // While the who-starts draw is on show, the round's first line ("Round 2: You start")
  // would tell its outcome: it waits, and the line says what is going on instead.
  if (state.whoStarts && lines.length) lines = [...lines.slice(0, -1), lines.at(-1).replace(/:.*$/, ": who starts?")];
  const open = logShown(state);
  const wasOpen = log.classList.contains("open");
  // Read only when open: the scroll position forces a layout in the middle of a render,
  // and every render (each tile of a computer's reveal) read it, and rebuilt the lines.
  const atEnd = wasOpen && log.scrollTop + log.clientHeight >= log.scrollHeight - 2;
  const shown = open ? lines : lines.slice(-3);
  // A render that does not change the lines leaves them be.
  if (changed("log", shown.join("\n"))) log.replaceChildren(...shown.map((line) => el("li", {}, richText(line))));
  log.classList.toggle("open", open);
  // Its newest line says what the message says (a computer's move, the summary of the
  // computers' turns): on a phone, where the shut log shows only that line right under
  // the message, it is not shown twice (style.css).
  const newest = lines.at(-1)?.toLowerCase() ?? "";
  log.classList.toggle("echo", !!newest && (state.message?.text ?? "").toLowerCase().includes(newest));
  $("log-box").classList.toggle("open", open);
  $("log-box").hidden = !lines.length;
  const toggle = $("log-toggle");
  toggle.setAttribute("aria-expanded", String(open));
  toggle.title = open ? "Show only the last lines" : "Show the earlier lines too";
  if (open && (!wasOpen || atEnd)) log.scrollTop = log.scrollHeight;
}

/** A computer's draw, shown: a tile back flies from the pool to that player's chip.
 *  Decoration only (inline styles, removed when done); the words say the same. */
export function showDraw(player, ms) {
  const from = document.querySelector("#pool-button .pool-stack");
  const to = document.querySelector(`#players [data-player="${player}"] .player-tiles`);
  if (!from?.animate || !to) return;
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  if (!a.width || !b.width) return;
  const flyer = from.cloneNode(false);
  flyer.setAttribute("aria-hidden", "true");
  pinned(flyer, a);
  const [dx, dy] = shift(a, b);
  const flight = flyer.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0.3 }],
    { duration: ms, easing: "ease-in" },
  );
  flight.finished.finally(() => flyer.remove()).catch(() => {});
}

/** Where each of these tiles is now, on the table or the rack, by id (boxes in the
 *  viewport): where a move takes them from (``flyIn``, ``slideFrom``). */
export function tileSpots(ids) {
  const spots = new Map();
  for (const id of ids) {
    const node = tileAt(id);
    // A tile still flying is where its copy is, not where it will land.
    const box = node && (flights.get(node)?.flyer ?? node).getBoundingClientRect();
    if (box?.width) spots.set(id, box);
  }
  return spots;
}

/** The tiles the player just drew fly from the pool to their places on the rack. */
export function flyFromPool(ids, ms) {
  const box = document.querySelector("#pool-button .pool-stack")?.getBoundingClientRect();
  if (!box?.width) return;
  const from = { left: box.left, top: box.top, width: box.width, height: box.height, small: true };
  for (const id of ids) flyIn(id, from, ms);
}

const tileAt = (id) => document.querySelector(`#sets .tile[data-id="${id}"], #rack .tile[data-id="${id}"]`);

// Where a tile is seen to fly: inside the table's or the rack's box (the viewport's
// boxes of the two, measured once for a batch of flights).
function inSight() {
  const views = [$("table-view"), $("rack")].map((area) => area.getBoundingClientRect());
  return (box) => {
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    return views.some((v) => x >= v.left && x <= v.right && y >= v.top && y <= v.bottom);
  };
}

/** A tile moved for the player to watch (a computer's play, a hint's step, a draw): a
 *  copy of it flies to its place from where it was (``from``, a box; ``from.small`` for
 *  the pool) or, new from a computer's rack, from that player's card, and the tile shows
 *  once it lands. A tile going to or coming from a place scrolled out of the table's or
 *  the rack's view just shows, as does one that did not move. */
export function flyIn(id, from, ms, player = null) {
  const node = tileAt(id);
  const card = player === null ? null : document.querySelector(`#players [data-player="${player}"]`);
  const start = from ?? card?.getBoundingClientRect();
  if (!node?.animate || !start?.width) return;
  // Its box as it will stand: without the last of the "pending" look (lifted, smaller).
  node.style.transition = "none";
  const to = node.getBoundingClientRect();
  const seen = inSight();
  const small = !from || from.small; // from a card or the pool: as small as they draw it
  if (to.width && seen(to) && (small || seen(from)) && launch(node, id, start, to, ms, small)) return;
  land(node);
}

/** After a change the player asked for (a tap, a key, Undo, Reset Turn, a sort): every
 *  tile of ``spots`` (``tileSpots`` before the change) that moved slides from where it was
 *  to where it is, the tiles beside it too, except ``still`` (a dragged tile, already
 *  where the pointer let it go). Tiles jumped: the eye lost which tile went where. */
export function slideFrom(spots, ms, still = null) {
  const seen = inSight();
  const moves = [];
  for (const [id, from] of spots) {
    const node = id === still ? null : tileAt(id);
    const to = node?.getBoundingClientRect();
    if (to?.width && seen(to) && seen(from)) moves.push([node, id, from, to]);
  }
  for (const [node, id, from, to] of moves) launch(node, id, from, to, ms, false);
}

// A tile's node: the flight under way to it ({flight, flyer}); and every flight under way.
const flights = new WeakMap();
const flying = new Set();

/** How far the middle of box ``b`` is from the middle of box ``a``: [dx, dy]. */
function shift(a, b) {
  return [b.left + b.width / 2 - (a.left + a.width / 2), b.top + b.height / 2 - (a.top + a.height / 2)];
}

/** A copy put in the page fixed over ``box`` (a flight's or a draw's), above the rest. */
function pinned(copy, box) {
  Object.assign(copy.style, {
    position: "fixed", left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`,
    height: `${box.height}px`, margin: "0", zIndex: "40", pointerEvents: "none",
  });
  document.body.append(copy);
}

/** Every flight under way ends at once, each tile shown in its place: the table or the
 *  rack scrolled, the window changed size, or the game changed (a flight aims at fixed
 *  points of the viewport, and a new game re-uses tile nodes). */
export function landFlights() {
  for (const flight of [...flying]) flight.finish();
}

/** A copy of the tile, fixed to the viewport (so it is not cut off at the table's edge),
 *  flies from ``from`` to ``to`` while the tile itself stays unseen in its place (no
 *  fade: its transitions are off until it lands). Decoration only (inline styles,
 *  removed when done): the words and the highlight say the same. False when there is
 *  nothing to fly (it did not move). */
function launch(node, id, from, to, ms, small) {
  const [dx, dy] = shift(to, from); // from where it lands back to where it starts
  if (Math.hypot(dx, dy) < 2 || !node.animate) return false;
  flights.get(node)?.flight.cancel(); // moved again mid-flight: on from where its copy was
  // A picture of the tile, not a second button: its faces only, hidden from screen readers.
  const flyer = el("span", { class: node.className, "aria-hidden": "true" }, [...node.childNodes].map((c) => c.cloneNode(true)));
  flyer.classList.remove("pending", "selected");
  flyer.classList.add("flyer");
  flyer.dataset.flight = String(id);
  flyer.style.setProperty("--tile-w", `${to.width}px`);
  flyer.style.setProperty("--tile-h", `${to.height}px`);
  flyer.style.transition = "none";
  pinned(flyer, to);
  node.style.transition = "none";
  node.style.opacity = "0";
  const flight = flyer.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${small ? 0.6 : 1})`, opacity: small ? 0.5 : 1 }, { transform: "none", opacity: 1 }],
    { duration: ms, easing: "cubic-bezier(0.25, 0.7, 0.35, 1)" },
  );
  flights.set(node, { flight, flyer });
  flying.add(flight);
  // The focused tile's ring goes with its copy (the tile itself is unseen, ring and all):
  // checked again after the render that moved it, which puts the focus back on it.
  const ring = () => flyer.classList.toggle("focused", node.matches(":focus-visible"));
  ring();
  requestAnimationFrame(ring);
  flight.finished
    .catch(() => {})
    .finally(() => {
      flyer.remove();
      flying.delete(flight);
      if (flights.get(node)?.flight !== flight) return; // flying again
      flights.delete(node);
      land(node);
    });
  return true;
}

function land(node) {
  node.style.opacity = "";
  // Its transitions back once it shows (not while a newer flight keeps it unseen).
  requestAnimationFrame(() => flights.has(node) || (node.style.transition = ""));
}

/** How To Play, told for one set of rules: the current game's (`current`) or the one
 *  being set up on the start screen. */
export function renderHowTo(rules, current) {
  const r = rules ?? {};
  $("howto-runs").textContent = r.wrap_runs
    ? "Here runs may wrap from 13 to 1: 12 13 1 2 is a run (1 still counts 1)."
    : "1 is always low; 13 is the top.";
  const opening = `${r.opening ?? 30} points`;
  $("howto-opening").textContent = r.easing_opening
    ? `${opening} at first, then 5 less after every 2 of your turns without opening, never below 10; the header shows what you need now`
    : opening;
  $("howto-joker").textContent = String(r.joker_penalty ?? 30);
  // How a round that nobody went out of is scored (RULES.md), and when it ends.
  const scored = r.no_winner_when_blocked
    ? "nobody wins: everyone loses the value of their own rack."
    : "the lowest rack wins: each other player loses the difference between their rack's value and the lowest, and the winner gains the sum of those differences.";
  $("howto-blocked").textContent = r.last_call
    ? `Once the pool is empty, every player has one last turn; if nobody has gone out by then, ${scored}`
    : `If the pool runs dry and nobody can play, ${scored}`;
  $("howto-target").textContent = r.target === 0
    ? "This is a single-round game: the round decides it."
    : `Rounds go on until someone reaches ${r.target ?? 200} points; the highest total wins the game.`;
  $("howto-variants-intro").textContent = current
    ? "Chosen on the New Game screen. In this game:"
    : "Chosen on the New Game screen. For the game you are setting up:";
  // The two rules with a choice of value come first, then the variants to tick: the
  // Variants button beside the turn line names an opening of 50 or a joker at 25 too.
  const opens = r.opening ?? 30;
  const costs = r.joker_penalty ?? 30;
  $("howto-variants").replaceChildren(
    el("li", {}, [
      el("b", { text: "Opening meld" }),
      ` (${opens} points${opens === 30 ? ", the standard" : "; the standard is 30"}): the least your first play must total, from your own rack.`,
    ]),
    el("li", {}, [
      el("b", { text: "Joker left on a rack" }),
      ` (costs ${costs}${costs === 30 ? ", the standard" : "; the standard is 30"}): what a joker still on your rack counts against you when the round ends.`,
    ]),
    ...VARIANTS.map((v) =>
      el("li", {}, [el("b", { text: v.name }), ` (${r[v.flag] ? "on" : "off"}): ${v.about}`]),
    ),
  );
}

export function renderClock(state) {
  const clock = $("clock");
  if (!state.clock) {
    clock.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((state.clock.deadline - Date.now()) / 1000));
  clock.hidden = false;
  clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  clock.classList.toggle("low", left <= 10);
}

/** How far the engine's boot is, 0-100: the download of its files (by bytes, as the
 *  worker counts them) up to 85, then 5 for each stage after (runtime, engine, import). */
export function bootPercent(b) {
  if (b.ready) return 100;
  const download = b.bytes ? Math.min(1, b.loaded / b.bytes) : 0;
  return Math.max(Math.floor(85 * download), b.done ? 85 + Math.round((15 * b.done) / b.total) : 0);
}

export function renderBoot(state) {
  const b = state.boot;
  const text = $("boot-text");
  const bar = $("boot-progress");
  const percent = bootPercent(b);
  bar.max = 100;
  bar.value = percent;
  const megabytes = (n) => (n / 1e6).toFixed(1);
  const downloading = b.bytes && b.loaded < b.bytes && !b.done;
  const said = b.failed
    ? `The engine failed to start: ${b.failed}`
    : b.ready
      ? "Engine ready" // how long it took is in the boot's title (a player needs no timing)
      : `Loading the game engine… ${percent}%` + (downloading ? ` (${megabytes(b.loaded)} of ${megabytes(b.bytes)} MB)` : "");
  // A live region: written only when it changes (each render replaced its text, which
  // some screen readers read out again), and not read out while the count goes up (the
  // bar holds it): its first words, then that it is ready or failed.
  if (text.textContent !== said) text.textContent = said;
  setAttr(text, "title", b.ready && b.ms !== null ? `Loaded in ${(b.ms / 1000).toFixed(1)} s` : null);
  $("boot").setAttribute("aria-live", b.ready || b.failed ? "polite" : "off");
  // On a phone the sentence gives way to the figure.
  $("boot-short").textContent = b.ready || b.failed ? "" : `${percent}%`;
  // Start Game pressed before the engine is ready says how far it is.
  const start = $("start-game");
  if (start.dataset.waiting && !b.ready) start.textContent = `Waiting for the engine… ${percent}%`;
  $("boot").classList.toggle("ready", b.ready);
  document.body.dataset.engine = b.failed ? "failed" : b.ready ? "ready" : "booting";
}

export function render(state) {
  const before = document.activeElement;
  renderScreens(state);
  keepFocus(before, state);
}

/** Is the keyboard focus nowhere useful: on the page itself, or on a control that is
 *  disabled, hidden or gone? */
export function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || active.disabled || active.checkVisibility?.() === false;
}

/** The control that had the keyboard focus was disabled, hidden or removed by this
 *  render (Confirm Play and Draw as the computers begin, Reset Turn, the last Undo or
 *  Next Step, New Game, Next Round): the focus goes where the player carries on,
 *  not to the page, where a screen reader loses its place and Tab starts over. On the
 *  start screen that is its heading; after Hint, Next Step in its place; after the
 *  last hint step, Confirm Play; otherwise the rack (its tiles take the focus on the
 *  computers' turns too, so the player's turn begins where the focus already is). */
function keepFocus(before, state) {
  if (!before || before === document.body) return;
  if (!focusLost() || document.querySelector("dialog[open]")) return;
  let next;
  if (state.screen === "start") {
    next = $("start-title");
    next.tabIndex = -1;
  } else if (before.id === "hint-step" && !$("confirm").disabled) {
    next = $("confirm");
  } else if (before.id === "hint" && !$("hint-step").hidden) {
    next = $("hint-step");
  } else {
    next = document.querySelector('#rack button[tabindex="0"]') ?? document.querySelector('#sets button[tabindex="0"]');
  }
  next?.focus();
}

function renderScreens(state) {
  renderBoot(state);
  // Another tab played on: nothing here may be touched until the player takes it up.
  const stale = $("stale-dialog");
  if (state.stale && !stale.open) stale.showModal();
  else if (!state.stale && stale.open) stale.close();
  $("start-screen").hidden = state.screen !== "start";
  $("game-screen").hidden = state.screen !== "game";
  $("menu-new-game").hidden = state.screen !== "game";
  renderRoundLine(state);
  const v = state.view;
  $("menu-resign").hidden =
    state.screen !== "game" || !v || v.round_over || v.players[v.me].resigned || state.resigning;
  // While a saved game comes back, the start form is put away: starting a new game
  // then would replace the saved one.
  const restoring = state.restoring && state.screen === "start";
  $("start-form").hidden = restoring;
  $("start-title").textContent = restoring ? "Restoring your saved game…" : "New Game";
  $("start-screen").setAttribute("aria-busy", restoring ? "true" : "false");
  const notice = $("start-notice");
  notice.textContent = restoring
    ? "Welcome back. Your game comes back as soon as the game engine has loaded (progress at the top of the page)."
    : state.notice ?? "";
  notice.hidden = !notice.textContent;
  // Not while a new game is being dealt: the view is still the old game's.
  const resumable = state.screen === "start" && !!state.view && !state.view.match_over && !state.starting;
  $("resume-bar").hidden = !resumable;
  if (resumable) {
    const v = state.view;
    $("resume-where").textContent = `Your game (round ${v.round}, you have ${count(v.players[v.me].score, "point")}) is kept until you start a new one.`;
  }
  if (state.screen !== "game" || !state.view) {
    document.body.dataset.turn = "none";
    if ($("round-dialog").open) $("round-dialog").close();
    return;
  }
  const focusKey = document.activeElement?.dataset?.key ?? null;
  renderPlayers(state);
  renderTable(state);
  renderRack(state);
  renderControls(state);
  renderRulesInfo(state);
  renderLog(state);
  // While the computers play, the message tells each turn: the turn line's "Computer 1 is
  // thinking…", "… is playing…" would be read out beside it, so it is not read then. Nor
  // is the opening's total when a move's read-out just said it ("…: run, 21 points.
  // Opening: 21 of 30."): one announcement for the move. (Undo's news says it too;
  // after a hint's step the turn line still reads it.)
  const turnLine = $("turn-info");
  const turn = turnText(state);
  const head = (line) => line.split(" · ")[0];
  const sameTurn = head(turnLine.textContent) === head(turn);
  const quiet = state.showing || (state.newsHasTotal && isMyTurn(state) && sameTurn);
  state.newsHasTotal = false;
  turnLine.setAttribute("aria-live", quiet ? "off" : "polite");
  setText(turnLine, turn); // a live region: written only when it changes
  setText($("move-news"), state.news);
  renderClock(state);
  const msg = $("message");
  // Routine news is read out politely; a refused move or an error interrupts.
  msg.setAttribute("aria-live", state.message?.kind === "error" ? "assertive" : "polite");
  const text = state.message?.text ?? "";
  const aside = state.message?.aside ?? "";
  // Its kind, with what markClipped last measured kept.
  const kind = ["message", state.message?.kind].filter(Boolean).join(" ");
  const measured = ["clipped", "at-end"].filter((c) => msg.classList.contains(c));
  setAttr(msg, "class", [kind, ...measured].join(" "));
  if (msg.textContent !== text + aside) {
    msg.replaceChildren(...richText(text), aside ? el("span", { class: "sr-only", text: aside }) : "");
    msg.scrollTop = 0;
  }
  // Measured when its words or its kind change (an error is bold: it may wrap more), and
  // when its box changes size (watchMessage).
  if (changed("message", `${kind}\n${text}`)) markClipped(msg);
  watchMessage(msg);
  document.body.dataset.turn = isMyTurn(state) ? "mine" : state.view.round_over ? "over" : "theirs";
  if (isMyTurn(state) && !performance.getEntriesByName("first-turn-playable").length) {
    performance.mark("first-turn-playable");
  }
  renderWhoStarts(state);
  renderRoundDialog(state);
  const want = state.focus ?? focusKey;
  state.focus = null;
  if (want && !$("round-dialog").open) document.querySelector(`[data-key="${want}"]`)?.focus({ preventScroll: false });
  if (tableMoved) markJokerRows();
  const fitted = fitTable();
  revealSet(state);
  // Measured again only when the rows changed (and when the table changes size:
  // watchTable); measuring forced a layout at every render.
  if (tableMoved || fitted) placeJokerLabels();
  updateTabStops();
}

/** A message longer than its two lines scrolls in place: it then fades out at its foot
 *  until scrolled to the end, and takes the keyboard focus, to be scrolled with the
 *  arrow keys (a cut-off message gave no sign that there was more). */
export function markClipped(msg) {
  const clipped = msg.scrollHeight > msg.clientHeight + 1;
  msg.classList.toggle("clipped", clipped);
  msg.classList.toggle("at-end", clipped && msg.scrollTop + msg.clientHeight >= msg.scrollHeight - 1);
  if (clipped) msg.tabIndex = 0;
  else msg.removeAttribute("tabindex");
}

// The message's box changes width with the window and height with the layout: whether
// its text is cut off is measured again then (and when its text changes), not at every
// render, where the measuring forced a layout.
let messageObserver = null;
function watchMessage(msg) {
  if (messageObserver || !globalThis.ResizeObserver) return;
  messageObserver = new ResizeObserver(() => markClipped(msg));
  messageObserver.observe(msg);
}

/** Each table joker's label ("= Y10/K10") is centred over its joker, then slid sideways
 *  as little as it takes to stay inside its set's box, right of the set's number and
 *  clear of the set's other labels (two jokers side by side). Layout only: measured
 *  when the table's rows change (render) and whenever the table changes size. Measured
 *  in layout boxes (offsets within the set), which no transform moves: a tile still
 *  being revealed (moved up and scaled down) or lifted as it is picked up is measured
 *  where it comes to rest, not where its transition has got to. */
export function placeJokerLabels() {
  const table = $("table-view");
  if (!table) return;
  watchTable(table);
  for (const set of table.querySelectorAll(".set")) {
    const labels = [...set.querySelectorAll(".stands:not([hidden])")];
    if (!labels.length || !set.clientWidth) continue;
    for (const label of labels) label.style.marginLeft = "";
    const badge = set.querySelector(".set-number");
    const badgeBottom = badge ? badge.offsetTop + badge.offsetHeight : -Infinity;
    const spans = labels.map((label) => {
      const tile = label.parentElement; // positioned: the label's offsets are within it
      const width = label.offsetWidth;
      const left = tile.offsetLeft + label.offsetLeft - width / 2; // its translateX(-50%)
      const top = tile.offsetTop + label.offsetTop;
      // At the badge's height a label starts right of it.
      const besideBadge = badge && top < badgeBottom && top + label.offsetHeight > badge.offsetTop;
      const min = Math.max(2, besideBadge ? badge.offsetLeft + badge.offsetWidth + 2 : -Infinity);
      return { label, from: left, x: left, width, min, max: set.clientWidth - 2 - width };
    });
    spans.sort((a, b) => a.from - b.from);
    let edge = -Infinity;
    for (const s of spans) {
      s.x = Math.max(s.x, s.min, edge);
      edge = s.x + s.width + 2;
    }
    edge = Infinity;
    for (const s of spans.slice().reverse()) {
      s.x = Math.min(s.x, s.max, edge - s.width);
      edge = s.x - 2;
    }
    for (const s of spans) if (Math.abs(s.x - s.from) > 0.1) s.label.style.marginLeft = `${s.x - s.from}px`;
  }
}

// The sets' view changes size (the window, a row of buttons appearing under the table):
// its joker labels are placed again, and when it shrank, the set last shown is brought
// back into view (a small phone's view lost a row to the buttons under it, and the note
// of the set just laid slipped out of view). One observer, made at the first render.
let tableObserver = null;
let tableHeight = 0;
function watchTable(table) {
  if (tableObserver || !globalThis.ResizeObserver) return;
  tableObserver = new ResizeObserver(([entry]) => {
    const shrank = entry.contentRect.height < tableHeight - 0.5;
    tableHeight = entry.contentRect.height;
    // Its scrollbar's width (one that always shows, on a desktop): "+ New Set" pinned
    // over the view's corner stands clear of it (style.css).
    $("table").style.setProperty("--bar", `${table.offsetWidth - table.clientWidth}px`);
    markJokerRows();
    fitTable();
    placeJokerLabels();
    if (shrank && keptInView !== null) showSetsOf(keptInView);
  });
  tableObserver.observe(table);
}

/** The sets in a row holding a joker keep room above their tiles for what it stands for
 *  ("= R5", style.css), the rows without one none: given to every set while any joker
 *  was on the table, the room took 13 px more of every row. A row's sets have it alike,
 *  so their tiles stay in line, joker or not, label shown or not (a label coming and
 *  going as its set turns valid or not moves nothing). Rows are where the sets wrap,
 *  and the room changes no set's width, so marking a row never wraps the sets again.
 *  Marked when the rows change: the table's sets, the tiles' width, the view's width,
 *  the gaps of a tile picked up (renderTable keeps the mark as it sets a set's class). */
function markJokerRows() {
  const boxes = setBoxes.filter((box) => box.node.isConnected);
  const tops = boxes.map((box) => Math.round(box.node.offsetTop));
  const withJoker = new Set(tops.filter((top, i) => boxes[i].tiles.querySelector(":scope > .tile.joker")));
  boxes.forEach((box, i) => box.node.classList.toggle("joker-row", withJoker.has(tops[i])));
}

/** The table's tiles as big as lets every set show without scrolling, down to
 *  FIT_FLOOR px wide (the layout's own width, from style.css, where the sets fit or
 *  where that is no wider). At 1366x768 a late game's 18 sets took three rows of 49 px
 *  tiles in a view 285 px tall, 15% of them out of sight, and 23 sets 36%; on a phone
 *  the table's tiles are already 28-36 px and the sets scroll. Worked out again when
 *  the sets or the view's size change, never for the gaps of a tile picked up (the
 *  tiles would shrink and grow as it is picked up and put down), in the middle of a
 *  drag (nothing moves under the pointer) or while the engine checks the sets. The
 *  largest width that fits is searched halving the range, each try two layouts of the
 *  sets (the rows holding a joker marked, then measured). True when it measured. */
const FIT_FLOOR = 36;
let fitFor = "";
function fitTable() {
  const table = $("table");
  const view = $("table-view");
  if (tableShape === null || !view.offsetWidth) return false;
  if (document.body.classList.contains("is-dragging")) return false;
  const key = `${view.offsetWidth}x${view.offsetHeight} ${tableShape}`;
  if (key === fitFor) return false;
  fitFor = key;
  const fits = () => {
    markJokerRows();
    return view.scrollHeight <= view.clientHeight + 1;
  };
  table.style.removeProperty("--tile-w");
  const widest = view.querySelector(".tile")?.offsetWidth ?? 0;
  if (widest <= FIT_FLOOR) {
    markJokerRows();
    return true;
  }
  if (fits()) return true;
  let best = FIT_FLOOR;
  let [lo, hi] = [FIT_FLOOR, widest - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    table.style.setProperty("--tile-w", `${mid}px`);
    if (fits()) [best, lo] = [mid, mid + 1];
    else hi = mid - 1;
  }
  table.style.setProperty("--tile-w", `${best}px`);
  markJokerRows();
  return true;
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
// view when the view shrinks: watchTable).
let keptInView = null;
