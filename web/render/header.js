// The top bar's game part: "Round 2 · first to 200" beside the brand, and the menu's
// Resign and New Game buttons, shown only while there is a game on screen. (The boot's
// line in the bar is boot.js's.)

import { $, setText } from "./dom.js";

export function renderHeader(state) {
  $("menu-new-game").hidden = state.screen !== "game";
  renderRoundLine(state);
  const v = state.view;
  $("menu-resign").hidden =
    state.screen !== "game" || !v || v.round_over || v.me === null || v.players[v.me].resigned || state.resigning;
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
