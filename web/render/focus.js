// Where the keyboard focus goes after a render: where the state asked (a tile just
// moved), else where it was; and when the control that had it went away, to where the
// player carries on. Also whether the player has acted on the page yet. Focus only: no
// region's elements are written here (but the start screen's heading takes a tabindex
// to take the focus).

import { $ } from "./dom.js";

/** Is the keyboard focus nowhere useful: on the page itself, or on a control that is
 *  disabled, hidden or gone? */
export function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || active.disabled || active.checkVisibility?.() === false;
}

/** The data-key of the focused element before a render (its node may be replaced). */
export const focusedKey = () => document.activeElement?.dataset?.key ?? null;

/** The focus to the element the state asked for (``state.focus``, once), else back to
 *  the one that had it before the render (``was``, its data-key); not out of an open
 *  round's screen (``inDialog``). */
export function focusAsked(state, was, inDialog) {
  const want = state.focus ?? was;
  state.focus = null;
  if (want && !inDialog) document.querySelector(`[data-key="${want}"]`)?.focus({ preventScroll: false });
}

/** The control that had the keyboard focus was disabled, hidden or removed by this
 *  render (Confirm Play and Draw as the computers begin, Reset Turn, the last Undo or
 *  Next Step, New Game, Next Round): the focus goes where the player carries on,
 *  not to the page, where a screen reader loses its place and Tab starts over. On the
 *  start screen that is its heading; after Hint, Next Step in its place; after the
 *  last hint step, Confirm Play; otherwise the rack (its tiles take the focus on the
 *  computers' turns too, so the player's turn begins where the focus already is). */
export function keepFocus(before, state) {
  if (!before || before === document.body) return;
  if (!focusLost() || document.querySelector("dialog[open]")) return;
  let next;
  if (state.screen === "start") {
    next = $("start-title");
    next.tabIndex = -1;
  } else if (!$("hand-over").hidden) {
    next = $("hand-over-ready"); // the device handed on: the next person's button
  } else if (before.id === "hint-step" && !$("confirm").disabled) {
    next = $("confirm");
  } else if (before.id === "hint" && !$("hint-step").hidden) {
    next = $("hint-step");
  } else {
    next = document.querySelector('#rack button[tabindex="0"]') ?? document.querySelector('#sets button[tabindex="0"]');
  }
  next?.focus();
}

// Whether the player has pressed a key or a control on this page yet: until then the
// focus stays where the browser put it (after a reload, a focus ring round the rack's
// first tile looked, to a player with a mouse, like a tile picked up). A click on the
// felt counts for nothing: it focuses nothing, and the ring came back (QA pass 26).
// Listened for until then only.
let acted = false;

/** Start listening for the player's first key or control (once, at the game's start). */
export function watchFirstAct() {
  const listening = new AbortController();
  const act = (event) => {
    if (event.type !== "keydown" && !event.target.closest?.("button, input, select, summary, a[href]")) return;
    acted = true;
    listening.abort();
  };
  for (const type of ["pointerdown", "keydown"]) {
    globalThis.document?.addEventListener(type, act, { capture: true, signal: listening.signal });
  }
}

/** The player's turn has come round with the focus lost (the button pressed last, Start
 *  Game, Confirm Play or Draw, is gone or disabled): should it go to the rack, rather
 *  than back to the top of the page? Not on a page just loaded, where nothing was
 *  pressed. */
export function focusToRack() {
  return focusLost() && (acted || document.activeElement !== document.body);
}
