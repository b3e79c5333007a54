// The computers' turns, one at a time, each shown at the player's pace: the engine's
// answer to a played turn is settled (shown, saved), then every computer to move plays,
// its tiles revealed one by one and its turn narrated, until it is the player's turn or
// the round is over. Also where a resignation is sent from (between two computer
// turns: the engine answers one call at a time).

import * as board from "../board.js";
import { flyIn, reducedMotion, showDraw, tileSpots } from "../render/flights.js";
import { focusToRack } from "../render/focus.js";
import { handingOver, isPerson, shared, withSeat } from "../seats.js";
import { recordRound } from "../stats.js";
import { say, sentence } from "./narration.js";
import { keepSince, persist } from "./saving.js";

const BOT_TIMEOUT_MS = 30_000; // a bot that thinks longer is cut off (worker restarted)

/** Is it a computer's turn in ``view``? */
const computersTurn = (view) => !isPerson(view, view.current);

/** Has every person left this round (resigned)? Then no turn of theirs comes round. */
export function outOfRound(state) {
  const v = state.view;
  return !!v && (v.people ?? [v.me]).every((p) => v.players[p]?.resigned);
}

/** ``clock`` is the turn clock (clock.js), started when a person's turn comes;
 *  ``handOver`` puts a person's rack away when the device goes on (hand-over.js). */
export function createComputers(state, engine, { redraw, clock, handOver }) {
  // One loop of computer turns at a time: the one running, and the last one started.
  let running = null;
  let computers = Promise.resolve();
  // The loop's pauses (the reveal, a turn on show): a resignation cuts the current one
  // short.
  let hurry = () => {};
  function pause(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      hurry = () => (clearTimeout(timer), resolve());
    });
  }

  /** Take the engine's answer to the player's action: shown (``what`` said; ``shown``
   *  run once it is drawn, a flight to watch), saved, then the computers play. False
   *  when the engine refused it (the message says why). */
  async function settle(answer, what, shown = null) {
    if (answer.error) {
      say(state, answer.error, "error");
      redraw();
      return false;
    }
    // On a shared device whose next person is another, the view for nobody, told in
    // words everyone may read.
    const { view, handed, news } = await handOver.viewFor(answer);
    board.applyView(state, view);
    // Handed on, the person's own words (a hint, their drawn tile) never stay on show.
    if (handed) say(state, news || null);
    else if (what) say(state, what);
    state.busy = true; // until the game is saved and the computers have played
    redraw();
    if (!handed) shown?.();
    await persist(state, engine);
    await run();
    return true;
  }

  /** Every computer to move takes its turn (``since``: the turns told and highlighted
   *  before a reload, {lines, highlight}). The loop already running, if one is. */
  function run(since = null) {
    if (!running) running = computerTurns(since).finally(() => (running = null));
    computers = running;
    return running;
  }

  async function computerTurns(since) {
    const v = () => state.view;
    const mine = state.epoch;
    // What the player last did (or was told), then each computer turn: the summary
    // shown when the player's turn starts.
    const last = () => (state.message && state.message.kind !== "error" ? [sentence(state.message.text)] : []);
    let told = last();
    let start = told.length;
    // Every tile the computers placed or moved since the player's last turn stays
    // highlighted until the player's first move: the summary tells all their turns.
    // After a reload, those before it come back (restoring.js) and go on from there.
    if (since) told.push(...since.lines);
    let fresh = !since;
    // A resignation is sent from here, between two computer turns (never beside one: the
    // engine answers one call at a time, and a bot turn cut off by the watchdog restarts
    // the worker), so one made while the computers play takes effect at once.
    while (mine === state.epoch && !state.stale && !v().round_over && (computersTurn(v()) || state.resigning)) {
      if (fresh) state.highlight = new Set();
      fresh = false;
      if (state.resigning) {
        await resignNow();
        if (mine !== state.epoch) return;
        // The resignation is now what was last done (the summary opens with it).
        const since = told.slice(start);
        told = [...last(), ...since];
        start = told.length - since.length;
        continue;
      }
      if (!(await computerTurn(told, mine))) return;
      keepSince(state, told.slice(start));
      if (pace()) await pause(pace());
    }
    if (mine !== state.epoch) return;
    handBack(told);
  }

  // Once the player is out of the round (resigned), nobody is waiting for the
  // computers' turns: they are played out at once, then the round's end is shown.
  // Asked again at every pause: a resignation cuts short the turn on show.
  const pace = () => (outOfRound(state) || state.resigning ? 0 : state.delay);

  /** One computer's turn, asked for, shown and saved; its narration added to ``told``.
   *  False when the loop is to stop (a new game, or the engine refused). */
  async function computerTurn(told, mine) {
    const delay = pace();
    const player = state.view.current;
    state.busy = true;
    state.showing = { player, action: "thinking" };
    redraw();
    const answer = await askBot(player, told);
    if (mine !== state.epoch) return false;
    if (answer.error) {
      state.busy = false;
      state.showing = null;
      say(state, answer.error, "error");
      redraw();
      return false;
    }
    if (!(await showTurn(answer, told, delay, mine))) return false;
    await persist(state, engine);
    return mine === state.epoch;
  }

  /** The engine's move for the computer to play; one that thinks too long is cut off,
   *  and a quick move asked for instead. */
  async function askBot(player, told) {
    try {
      return await engine.call(withSeat(state.view, { cmd: "bot_turn" }), { timeoutMs: BOT_TIMEOUT_MS });
    } catch (err) {
      if (err.message !== "timeout") throw err;
      say(state, `${state.view.players[player].name} took too long; it plays a quick move instead`, "error");
      told.push(sentence(state.message.text));
      redraw();
      await engine.restart();
      // The same search would run just as long: ask for a quick (Easy-level) move.
      return engine.call(withSeat(state.view, { cmd: "bot_turn", quick: true }), { timeoutMs: BOT_TIMEOUT_MS });
    }
  }

  /** A computer's turn shown: narrated, its tiles highlighted and revealed one by one.
   *  False when a new game began meanwhile. */
  async function showTurn(answer, told, delay, mine) {
    const turn = answer.turn;
    const moved = [...new Set([...turn.steps.map((s) => s.tile), ...turn.placed])];
    // Where the table tiles it moves stand before it moves them: they fly from there.
    const spots = tileSpots(moved);
    const log = state.view.log;
    board.applyView(state, answer.view);
    // The view's `current` is already the next player: until the turn has been shown,
    // the page names the computer whose turn it was and says what it did.
    state.showing = { player: turn.player, action: turn.action, placed: new Set(turn.placed) };
    const line = sentence(turn.narration);
    told.push(line);
    for (const id of moved) state.highlight.add(id);
    // Shown tile by tile at the player's speed (all at once when instant or when the
    // player prefers less motion), each flying in from where it was on the table or from
    // the computer's card. The play is told (the message, the log's newest lines) once
    // its tiles are down: told first, the words gave away what the reveal then showed.
    if (delay && moved.length && !reducedMotion()) {
      state.logHeld = log;
      const shown = await reveal(moved, spots, delay, turn.player, mine);
      state.logHeld = null;
      if (!shown) return false;
    }
    say(state, line);
    state.pending = new Set();
    redraw();
    if (turn.action === "draw" && pace() && !reducedMotion()) showDraw(turn.player, Math.min(600, delay));
    return true;
  }

  /** The tiles of a computer's play shown one at a time, each flying in. */
  async function reveal(moved, spots, delay, player, mine) {
    state.pending = new Set(moved);
    redraw();
    const step = Math.max(80, Math.min(350, delay / moved.length));
    const flight = Math.round(Math.min(450, Math.max(220, step * 1.4)));
    for (const id of moved) {
      await pause(step);
      if (mine !== state.epoch) return false;
      if (!pace()) break; // resigned: the rest of the play at once
      state.pending.delete(id);
      redraw();
      flyIn(id, spots.get(id), flight, player);
    }
    return true;
  }

  /** The computers are done: the player's turn (told what they did, the clock started),
   *  the device handed on to the next person, or the round's end. */
  function handBack(told) {
    const v = state.view;
    state.resigning = false; // the round ended before it was sent: nothing to resign
    state.busy = false;
    state.showing = null;
    // Summed up only when a person's turn comes round (one line per opponent): after a
    // resignation the computers may play out the rest of the round, far too much to say.
    // Handing over, the summary is what everyone may read: the next person's news.
    const summary = handingOver(v) ? told.length > 0 : told.length > 1;
    if (summary && !v.round_over && !computersTurn(v)) say(state, told.join(" "));
    if (v.round_over) {
      state.dialog = "round";
      recordRound(v, roundKey(v));
    } else if (handingOver(v) && focusToRack()) {
      state.focus = "hand-over-ready"; // the next person's button
    } else if (state.rack.length && focusToRack()) {
      // The turn starts on the rack rather than back at the top of the page.
      state.focus = `tile-${state.rack[0]}`;
    }
    redraw();
    clock.start();
  }

  /** Names a finished round, so statistics count it once even across reloads: by the
   *  game's own name and the round (a game saved before games had names, by its scores). */
  function roundKey(view) {
    if (state.gameId) return JSON.stringify([state.gameId, view.round]);
    return JSON.stringify([view.history, view.players.map((p) => p.name), view.round]);
  }

  /** Send the resignation the player confirmed (from the computer-turn loop). */
  async function resignNow() {
    clock.stop();
    state.busy = true;
    let answer;
    try {
      answer = await engine.call(withSeat(state.view, { cmd: "resign" }));
    } finally {
      state.resigning = false;
    }
    if (answer.error) {
      say(state, answer.error, "error");
      redraw();
      return;
    }
    const { view, handed, news } = await handOver.viewFor(answer);
    board.applyView(state, view);
    const who = shared(view) ? view.players[answer.events[0].player].name : "You";
    say(state, handed ? news || null : `${who} resigned this round.`);
    redraw();
    await persist(state, engine);
  }

  /** Resign this round (after the player confirmed); the computers play it out. Sent
   *  at once: on the player's turn, or during the computers' turns, where the loop
   *  sends it after the turn being computed, with the rest of the round at no pace. */
  async function resign() {
    const v = state.view;
    if (!v || v.round_over || v.me === null || v.players[v.me].resigned || state.resigning || state.starting) return;
    state.resigning = true;
    clock.stop();
    state.highlight = new Set();
    hurry();
    redraw();
    // A play, a draw or a deal still on its way to the engine goes first (its answer
    // starts the computer loop, which then sends the resignation); never beside it.
    while (state.resigning && !running && (state.busy || state.whoStarts)) await sleep(50);
    if (state.resigning) await run();
  }

  return {
    settle,
    run,
    resign,
    hurry: () => hurry(),
    /** The last loop of computer turns, ended (a new game or a restore waits for it). */
    finished: () => computers.catch(() => {}),
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
