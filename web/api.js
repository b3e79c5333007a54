// The game's small public surface: each method is one thing a player can do (main.js
// calls them from the page's events). Each changes the state, through a module of
// game/ that owns that concern, and then renders once. window.__rummikub is this api.
//
//   game/turn.js        the turn in progress: moves, Undo, Reset Turn, the live check
//   game/group.js       several tiles moved together: choosing them, a set by its handle
//   game/turn-end.js    Confirm Play, Draw, the clock running out
//   game/hints.js       Hint and Next Step
//   game/computers.js   an answer settled, then the computers' turns at their pace
//   game/who-starts.js  the who-starts draw
//   game/rounds.js      New Game, Next Round, the round's screen, leaving and resuming
//   game/clock.js       the turn clock
//   game/hand-over.js   several people at one device: each rack put away between turns
//   game/saving.js      the save and the page's records in localStorage
//   game/restoring.js   the saved game brought back; another tab taking it on
//   game/narration.js   what is said
//
// A module of game/ that keeps something of its own between calls (the clock's timer,
// the newest live check, the loop of computer turns under way, the restore in hand) is a
// factory, createX(state, engine, hooks): one closure over exactly what it is given,
// each function inside it short, so a factory runs to a hundred lines or two. The rest
// (narration, saving, who-starts) are plain functions of the state. Who gets what is
// wired here, once; imports only run down: api.js > game/ > render/ > the shared
// modules (board.js, verdicts.js, words.js, variants.js) > state.js.

import * as board from "./board.js";
import { createClock } from "./game/clock.js";
import { createGroup } from "./game/group.js";
import { createComputers } from "./game/computers.js";
import { createHandOver } from "./game/hand-over.js";
import { createHints } from "./game/hints.js";
import { engineFailed } from "./game/narration.js";
import { createRestoring } from "./game/restoring.js";
import { createRounds } from "./game/rounds.js";
import { createTurn } from "./game/turn.js";
import { createTurnEnd } from "./game/turn-end.js";
import { watchFirstAct } from "./render/focus.js";
import { markFailed, render } from "./render.js";
import { held } from "./selection.js";
import { createState } from "./state.js";

export { keptSettings, MAX_DELAY_MS } from "./game/saving.js";

/** The game over ``engine`` (engine.js): the api below, its state in ``api.state``.
 *  Long only for the table of methods, one line each. */
export function createGame(engine, options = {}) {
  const state = createState();
  state.delay = options.botDelay ?? 900;
  const redraw = () => render(state);
  const failed = (err) => {
    console.error(err);
    markFailed(String(err.message ?? err));
    engineFailed(state, err);
    redraw();
  };
  watchFirstAct();
  // Each concern gets what it needs; the clock's timeout goes through the api (below).
  const clock = createClock(state, () => api.timeout());
  const turn = createTurn(state, engine, { redraw, failed });
  const group = createGroup(state, { redraw, turn });
  const handOver = createHandOver(state, engine, { redraw, clock, turn });
  const computers = createComputers(state, engine, { redraw, clock, handOver });
  const turnEnd = createTurnEnd(state, engine, { redraw, clock, settle: computers.settle });
  const hints = createHints(state, engine, { redraw, turn });
  const restoring = createRestoring(state, engine, { redraw, failed, turn, computers, clock });
  const rounds = createRounds(state, engine, { redraw, clock, computers, restoring });

  const api = {
    state,
    engine,
    render: redraw,

    // ----- the engine's boot
    bootProgress: (p) => bootProgress(state, p, redraw), // how far the engine's boot is
    bootReady: (info) => bootReady(state, info, redraw), // the engine is ready
    bootFailed: (message) => bootFailed(state, message, redraw), // it failed to start

    // ----- a game
    newGame: rounds.newGame, // deal a new game: settings = {people: [names], opponents: [{level}], rules, seed, form}
    restoreSaved: restoring.restoreSaved, // bring back the game saved in this browser, if any
    continueHere: restoring.continueHere, // take the game up here after another tab played on
    inProgress: rounds.inProgress, // is there a game a new one would abandon?
    setDelay: (ms) => setDelay(state, ms), // how long a computer turn stays on show (ms)
    backToStart: rounds.backToStart, // to the start screen, the game kept
    resume: rounds.resume, // back to the game kept

    // ----- the turn in progress
    canDrag: (ids) => ids.every((id) => board.canMove(state, id)), // may these tiles be dragged now?
    accepts: (ids, dest) => ids.every((id) => board.canDrop(state, id, dest)), // may they be dropped there?
    grabbed: (id) => (held(state).includes(id) ? held(state) : [id]), // what a drag of this tile takes: the tiles held with it, or it
    setTiles: (i) => state.table[i]?.slice() ?? [], // what a drag of set i's handle takes
    holding: () => held(state).length > 0, // is a tile picked up, or are tiles chosen?
    select: group.select, // pick up a tile, or put it down when picked up already
    choose: group.choose, // add a tile to the tiles chosen to move together, or take it out
    chooseSet: group.chooseSet, // choose a whole set by its handle
    deselect: group.deselect, // let go of the picked-up or chosen tiles
    move: turn.move, // move a tile to dest ({area: "rack" | "table" | "new-set", set, index})
    drop: group.drop, // dragged tiles let go at dest
    place: group.place, // put the picked-up or chosen tiles at dest
    split: turn.split, // split the picked-up tile's set before it
    nudge: turn.nudge, // move the picked-up tile one place left (-1) or right (+1)
    returnToRack: group.returnToRack, // the picked-up or chosen tiles back to their places on the rack
    undo: turn.undo, // take back the last move of this turn
    resetTurn: turn.resetTurn, // every tile back where it was at the turn's start
    sortRack: turn.sortRack, // sort the rack by "colour" or "number"

    // ----- ending the turn, and help with it
    confirm: turnEnd.confirm, // Confirm Play: the engine plays the arrangement or says why not
    draw: turnEnd.draw, // draw a tile (pass when the pool is empty)
    timeout: turnEnd.timeout, // the turn clock ran out
    hint: hints.hint, // ask the engine for the best play
    hintStep: hints.hintStep, // lay out the hint's next set
    resign: computers.resign, // resign this round; the computers play it out
    showRack: handOver.ready, // the person the device was handed to is ready: their rack shown

    // ----- the round's end, and the log
    seeTable: rounds.seeTable, // the round's scores put aside, to see the table
    showScores: rounds.showScores, // the round's scores back
    nextRound: rounds.nextRound, // deal the next round
    showLog: (open = !state.logOpen) => showLog(state, open, redraw), // the whole log (true), or its last lines
    holdClock: clock.hold, // a dialog the player opened is up (true) or shut: their turn clock stands still
  };

  // Any answer the engine cannot give is shown, not thrown into the void.
  for (const name of ["newGame", "confirm", "draw", "hint", "timeout", "nextRound", "resign", "showRack"]) {
    const fn = api[name];
    api[name] = (...args) => fn(...args).catch(failed);
  }
  return api;
}

function bootProgress(state, p, redraw) {
  Object.assign(state.boot, { done: p.done, total: p.total, stage: p.stage, loaded: p.loaded ?? 0, bytes: p.bytes ?? 0 });
  redraw();
}

function bootReady(state, info, redraw) {
  state.boot.ready = true;
  state.boot.done = state.boot.total;
  state.boot.ms = info.timings.total;
  redraw();
}

function bootFailed(state, message, redraw) {
  state.boot.failed = message;
  redraw();
}

function setDelay(state, ms) {
  state.delay = Number.isFinite(ms) ? ms : 900;
}

function showLog(state, open, redraw) {
  state.logOpen = open;
  redraw();
}
