// Bringing the saved game back: at load (restoreSaved), and after another tab played on
// (continueHere). The engine loads the save; the page's own records (saving.js) put
// back the rack's order, the arrangement in progress and the computers' turns told
// since the player's last one. Also watches for another tab saving the game, which
// stops this one (it is out of date).

import * as board from "../board.js";
import { landFlights } from "../render/flights.js";
import { drawnNames, say } from "./narration.js";
import { keptSettings, keptSince, MAX_DELAY_MS, restoreArrangement, SAVE_KEY, savedGame, setAside } from "./saving.js";

/** ``turn`` checks a restored arrangement (turn.js liveCheck); ``computers`` play on
 *  (computers.js); ``clock`` stops when another tab takes the game. */
export function createRestoring(state, engine, { redraw, failed, turn, computers, clock }) {
  let restoring = Promise.resolve(false);
  watchOtherTabs();

  /** Bring back the game saved in this browser, if any. A save the engine refuses,
   *  dies on or answers unreadably is set aside (kept under another key) and reported;
   *  it never breaks the page, and a new game can be started at once. */
  function restoreSaved() {
    restoring = restoreFromStorage().catch((err) => {
      // The engine did not start, so the save was never tried: it stays where it is, for
      // the next visit; the start screen says why, and a new game, which would replace
      // it, is asked for first (inProgress).
      state.restoring = false;
      state.unrestored = true;
      state.notice = `Your saved game could not be restored now: ${err.message ?? err}. It is still kept: reload the page to try again.`;
      failed(err);
    });
    return restoring;
  }

  /** After another tab played on: this tab takes the game up from the latest save
   *  (or, when there is none any more, goes back to the start screen). */
  async function continueHere() {
    if (!state.stale) return;
    state.stale = false;
    state.busy = false;
    state.showing = null;
    state.pending = new Set();
    state.dialog = null;
    restoring = restoreFromStorage("Your game was taken up where the other tab left it").catch(failed);
    if (!(await restoring)) {
      state.view = null;
      state.screen = "start";
      redraw();
    }
  }

  /** The saved game loaded into the engine and shown, ``welcome`` said; false when
   *  there was none or it could not be loaded (set aside, and the start screen says so). */
  async function restoreFromStorage(welcome = "Welcome back: your game was restored") {
    const saved = savedGame();
    if (!saved) return false;
    // The game's own settings (its name, its pace), when they were kept.
    const kept = keptSettings();
    state.gameId = typeof kept?.game === "string" ? kept.game : null;
    state.gameForm = kept?.form ?? null;
    if (Number.isFinite(kept?.delay)) state.delay = Math.max(0, Math.min(MAX_DELAY_MS, kept.delay));
    state.restoring = true;
    redraw();
    await engine.ready;
    const answer = await engine.call({ cmd: "load", save: saved }).catch(unloadable);
    state.restoring = false;
    if (answer.error) {
      setAside(saved);
      const why = answer.error.replace(/\.$/, "");
      state.notice = `Your saved game could not be restored, so it was set aside: ${why}. Start a new game.`;
      // The engine died on it: the new game is dealt by a new one (a new game waits for
      // this restore, reboot and all: settled).
      if (engine.dead) await freshEngine();
      redraw();
      return false;
    }
    engine.snapshot = saved;
    await takeUp(answer.view, welcome);
    return true;
  }

  /** A new engine, booted afresh with its progress in the top bar, for the new game. */
  async function freshEngine() {
    Object.assign(state.boot, { stage: "start", done: 0, loaded: 0, ready: false, failed: null, ms: null });
    redraw();
    await engine.reboot().catch(() => {}); // a boot that fails is told by engine.js (onFailed)
  }

  /** The loaded game on screen as it was left: the arrangement, or the turns since the
   *  player's last one, told again; then the computers play on if it is their turn. */
  async function takeUp(view, welcome) {
    state.epoch++;
    landFlights();
    state.screen = "game";
    state.rack = [];
    state.dialog = view.round_over ? "round" : null;
    board.applyView(state, view);
    const arranged = restoreArrangement(state);
    // The tile drawn at the player's last turn is named (and marked, by applyView) again,
    // as it was before the reload; a move this turn had put the mark away.
    if (arranged) state.drawn = new Set();
    const drawn = arranged ? [] : view.drawn;
    const drew = drawn.length ? ` You drew ${drawnNames(drawn)}.` : "";
    // The computers' turns since the player's last one, told and highlighted again: by
    // the computer-turn loop when they are still playing, else here (none once the
    // player has begun to arrange their turn, which put the highlights away).
    const since = arranged || view.round_over ? null : keptSince(state);
    if (since) state.highlight = new Set(since.highlight);
    const myTurn = view.current === view.me;
    const told = since && myTurn && since.lines.length ? ` ${since.lines.join(" ")}` : "";
    say(state, arranged ? `${welcome}, with the tiles you had arranged this turn.` : `${welcome}.${drew}${told}`);
    // An arrangement is checked before it is first shown: the turn line read out its
    // opening total as 0, then changed it.
    if (arranged) await turn.liveCheck().catch(failed);
    redraw();
    // Not awaited: a new game need not wait for them. A loop of the game this replaced
    // may still be ending its pause (another tab's game taken up): this one starts after
    // it (computers.run would hand back the old loop, which stops).
    computers
      .finished()
      .then(() => computers.run(myTurn ? null : since))
      .catch(failed);
  }

  // Another tab or window of this browser saved the game (a storage event comes only
  // from elsewhere): this tab's game is out of date. It stops, its computers and its
  // saving with it, and asks (render/dialogs.js) before taking the game up from the
  // latest save. Two tabs used to play on unseen, each overwriting the other's save.
  function watchOtherTabs() {
    globalThis.addEventListener?.("storage", (event) => {
      if (event.key !== SAVE_KEY || !state.view || state.restoring || state.stale) return;
      state.stale = true;
      state.epoch++; // this tab's computer turns stop
      landFlights();
      clock.stop();
      computers.hurry();
      redraw();
    });
  }

  return {
    restoreSaved,
    continueHere,
    /** The restore under way (or the last one), settled: a new game waits for it. */
    settled: () => restoring.catch(() => {}),
  };
}

/** A load the engine did not answer, taken as a refusal of the save: the engine died on
 *  it (a worker error, Pyodide's fatal error) or answered what could not be read. Any
 *  other failure (the engine did not start) is thrown on: the save is not to blame. */
function unloadable(err) {
  if (err?.dead) return { error: `the game engine stopped while loading it (${err.message})` };
  if (err?.unreadable) return { error: err.message };
  throw err;
}
