// What the engine said about each set of the arrangement, read for the page: its kind
// and value or its first problem, and what each joker in it stands for. The set's note
// (render/table.js) and the move's news (game/narration.js) both say it from here.
// Nothing is decided here: every reading is the engine's answer.

import { isTouched } from "./board.js";

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

/** The kind the engine gave set i ("run", "group"), or undefined (its box's name). */
export function setKind(state, i) {
  return setInfo(state, i)?.kind;
}

/** What each joker of set i stands for (a code such as "R7", or null), by tile id: a
 *  check reads a row laid out of order in order, and its stands_for goes with that order. */
export function jokersStandFor(state, i) {
  const info = setInfo(state, i);
  const order = info?.order ?? state.table[i];
  return new Map(order.map((id, k) => [id, info?.stands_for?.[k] ?? null]));
}
