// The start screen's state-dependent parts: shown or not, its title and notice while a
// saved game comes back, and the bar that leads back to a game in progress. (The form's
// fields are main.js's: they are the player's input, not drawn from the state.)

import { shared } from "../seats.js";
import { count } from "../words.js";
import { $ } from "./dom.js";

export function renderStartScreen(state) {
  $("start-screen").hidden = state.screen !== "start";
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
    // On a shared device nobody in particular is "you".
    const you = v.me === null || shared(v) ? "" : `, you have ${count(v.players[v.me].score, "point")}`;
    $("resume-where").textContent = `Your game (round ${v.round}${you}) is kept until you start a new one.`;
  }
}
