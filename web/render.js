// State to DOM, in one pass: render(state) draws each region of the screen from the
// state, in the order below. Every change goes: a function changes the state, then
// render(). Each region's elements are written by its own module (render/) only.
//
//   top bar        render/boot.js, render/header.js
//   start screen   render/start-screen.js
//   game screen    render/scoreboard.js (players, turn line, variants, clock),
//                  render/who-starts.js, render/table.js (+ table-fit.js),
//                  render/message.js, render/log.js, render/controls.js, render/rack.js
//                  render/hand-over.js (in their place while the device is handed on)
//   dialogs        render/dialogs.js (the round's screen, another tab), render/howto.js
//   animation      render/flights.js
//   shared         render/dom.js, render/tile-elements.js
//   focus          render/focus.js

import { updateTabStops } from "./roving.js";
import { isMyTurn } from "./state.js";
import { renderBoot } from "./render/boot.js";
import { renderControls } from "./render/controls.js";
import { $ } from "./render/dom.js";
import { closeRoundDialog, renderRoundDialog, renderStaleDialog, roundDialogOpen } from "./render/dialogs.js";
import { focusAsked, focusedKey, keepFocus } from "./render/focus.js";
import { renderHandOver } from "./render/hand-over.js";
import { renderHeader } from "./render/header.js";
import { renderLog } from "./render/log.js";
import { renderMessage } from "./render/message.js";
import { renderRack } from "./render/rack.js";
import { renderClock, renderPlayers, renderRulesInfo, renderTurnLine } from "./render/scoreboard.js";
import { renderStartScreen } from "./render/start-screen.js";
import { layOutTable, renderTable } from "./render/table.js";
import { renderWhoStarts } from "./render/who-starts.js";

export function render(state) {
  const before = document.activeElement;
  renderScreens(state);
  keepFocus(before, state);
}

/** The page marks that the engine failed, once (tests and benchmarks wait on it). */
export function markFailed(message) {
  document.body.dataset.failed = message;
}

function renderScreens(state) {
  renderBoot(state);
  renderStaleDialog(state);
  renderStartScreen(state);
  $("game-screen").hidden = state.screen !== "game";
  renderHeader(state);
  if (state.screen !== "game" || !state.view) {
    document.body.dataset.turn = "none";
    closeRoundDialog();
    return;
  }
  renderGame(state);
}

/** The game screen's regions. The writes come first and the layout is measured after
 *  them (the table's fit and joker labels), so that one render lays out once. */
function renderGame(state) {
  const focusKey = focusedKey();
  renderPlayers(state);
  renderTable(state);
  renderRack(state);
  renderControls(state);
  renderRulesInfo(state);
  renderLog(state);
  renderTurnLine(state);
  renderClock(state);
  renderMessage(state);
  renderHandOver(state);
  document.body.dataset.turn = isMyTurn(state) ? "mine" : state.view.round_over ? "over" : "theirs";
  if (isMyTurn(state) && !performance.getEntriesByName("first-turn-playable").length) {
    performance.mark("first-turn-playable");
  }
  renderWhoStarts(state);
  renderRoundDialog(state);
  focusAsked(state, focusKey, roundDialogOpen());
  layOutTable(state);
  updateTabStops();
}
