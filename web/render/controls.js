// The controls region, between the table and the rack: the pool, the turn's buttons
// (Confirm Play, Undo, Reset Turn, Draw, Hint or Next Step, Return to rack, Split, Show
// Scores) and the rack's sort buttons. Each is enabled from the state; what pressing
// one does is api.js's.

import { canSplit, isTouched, locate } from "../board.js";
import { handingOver } from "../seats.js";
import { held } from "../selection.js";
import { isMyTurn } from "../state.js";
import { count } from "../words.js";
import { $, setAttr, setHidden } from "./dom.js";

export function renderControls(state) {
  setHidden($("controls"), handingOver(state.view)); // the hand-over in their place (hand-over.js)
  renderTurnButtons(state);
  renderPool(state);
  const opening = !state.view.opened && isMyTurn(state);
  document.body.classList.toggle("opening", opening);
}

function renderTurnButtons(state) {
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
  const onTable = held(state).some((id) => locate(state, id)?.area === "table");
  // Shown on every turn, disabled on the computers': hidden, it took the bar from two
  // rows to one at tablet widths, and the table grew and shrank by 37 px every turn.
  // Any table tile held enables it: for one that was on the table as the turn began it
  // says why that tile stays there (game/turn.js ``move``), where a greyed button said
  // nothing.
  $("return").disabled = !(mine && onTable);
  $("split").disabled = !(mine && sel !== null && canSplit(state, sel));
}

function renderPool(state) {
  const mine = isMyTurn(state);
  const v = state.view;
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
}
