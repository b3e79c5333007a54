// A game from its deal to its last round: New Game, Next Round, the round's screen and
// the table behind it, and leaving the game for the start screen and coming back.

import * as board from "../board.js";
import { landFlights } from "../render/flights.js";
import { focusLost } from "../render/focus.js";
import { roundReason } from "../render/dialogs.js";
import { handingOver } from "../seats.js";
import { say } from "./narration.js";
import { forgetTurn } from "./saving.js";
import { showWhoStarts, whoStartsText } from "./who-starts.js";

/** The seats of a new game, in order, as the engine's new_game takes them: the people
 *  of ``settings`` (``people: [names]``; none, or one: "You") and its computers
 *  (``opponents: [{level}]``) taking turns round the table, so that computers play
 *  between people: You, Computer 1, Computer 2; or Anna, Computer 1, Bob, Computer 2. */
function seatsOf(settings) {
  const names = settings.people?.length > 1 ? settings.people : ["You"];
  const people = names.map((name) => ({ name, kind: "human" }));
  const computers = settings.opponents.map((o, i) => ({ name: `Computer ${i + 1}`, kind: "bot", level: o.level }));
  const seats = [];
  for (let i = 0; i < Math.max(people.length, computers.length); i++) seats.push(people[i], computers[i]);
  return seats.filter(Boolean);
}

/** ``computers`` settles the engine's answers and plays (computers.js); ``restoring``
 *  is the restore a new game waits for (restoring.js); ``clock`` the turn clock. */
export function createRounds(state, engine, { redraw, clock, computers, restoring }) {
  /** Start a new game: settings = {people, opponents: [{level}], rules: {...}, seed, form}. */
  async function newGame(settings) {
    // Until the new game's view is in, the old game is no longer to be resumed: the
    // resume bar is hidden and Back to Game and Escape do nothing (the old game came
    // back, its clock running, while the new one was being dealt).
    state.starting = true;
    redraw();
    try {
      await startNewGame(settings);
    } finally {
      if (state.starting) {
        state.starting = false; // the engine failed: the old view, resumable again
        redraw();
      }
    }
  }

  /** newGame's work: the old game's computers stopped, a new game dealt and begun. */
  async function startNewGame(settings) {
    await engine.ready;
    const players = seatsOf(settings);
    const rules = { ...settings.rules, players: players.length };
    await restoring.settled(); // a saved game being restored goes first
    state.epoch++; // stop the old game's computers, and let their last call finish
    landFlights(); // its tiles' nodes are used again
    state.resigning = false; // a resignation of the old game not yet sent is dropped
    state.notice = null;
    state.unrestored = false; // the player chose to replace it
    forgetTurn();
    await computers.finished();
    // A computer play cut short mid-reveal leaves its tiles still to come: none are
    // the new game's (a tile of the new deal with one of those ids was drawn hidden).
    state.pending = new Set();
    const answer = await engine.call({ cmd: "new_game", seed: settings.seed ?? null, rules, players });
    if (answer.error) throw new Error(answer.error);
    // Kept with the game's first save (saving.js persist).
    state.gameId = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;
    state.gameForm = settings.form ?? null;
    state.busy = false;
    state.showing = null;
    state.message = null;
    state.screen = "game";
    state.rack = [];
    state.dialog = null;
    state.highlight = new Set();
    state.logOpen = false; // a new game opens on its table, not over it
    board.applyView(state, answer.view);
    state.starting = false; // the view is the new game's from here on
    state.busy = true;
    await showWhoStarts(state, answer, redraw);
    await computers.settle(answer, whoStartsText(answer));
  }

  /** The next round dealt, its who-starts draw shown, then played. */
  async function nextRound() {
    const answer = await engine.call({ cmd: "next_round" });
    say(state, null); // the last round's news is over
    state.dialog = null;
    state.rack = [];
    state.highlight = new Set();
    state.logOpen = false; // so does a new round
    if (answer.error) return computers.settle(answer);
    board.applyView(state, answer.view);
    state.busy = true;
    await showWhoStarts(state, answer, redraw);
    await computers.settle(answer, answer.who_starts ? whoStartsText(answer) : null);
  }

  /** The round's scores put aside, to look at the table as the round ended (the
   *  winning play still highlighted); ``showScores`` brings them back. */
  function seeTable() {
    if (!state.view?.round_over) return;
    state.dialog = null;
    // The message says how it ended, not the last computer's move.
    if (state.view.outcome) say(state, `The table as the round ended. ${roundReason(state.view)}`);
    state.showSet = state.lastPlaced;
    redraw();
  }

  function showScores() {
    if (!state.view?.round_over) return;
    state.dialog = "round";
    redraw();
  }

  /** Is there a game that starting a new one would abandon? (A finished match is not;
   *  a saved game that could not be restored is.) */
  function inProgress() {
    return state.restoring || state.unrestored || (!!state.view && !state.view.match_over);
  }

  /** Back to the start screen; the game in progress stays until a new one starts. */
  function backToStart() {
    state.dialog = null;
    state.screen = "start";
    clock.pause(); // the turn's time waits for the player to come back
    redraw();
  }

  function resume() {
    if (!state.view || state.starting) return;
    state.screen = "game";
    if (state.view.round_over) state.dialog = "round";
    // The control that brought the player back (Back to Game, or the focused start-screen
    // field) is hidden now: the focus goes to the rack's first tile, not to the page.
    if (handingOver(state.view)) state.focus = "hand-over-ready";
    else if (state.rack.length) state.focus = `tile-${state.rack[0]}`;
    redraw();
    if (focusLost() && !state.dialog) document.getElementById("menu-new-game")?.focus();
    clock.start();
  }

  return { newGame, nextRound, seeTable, showScores, inProgress, backToStart, resume };
}
