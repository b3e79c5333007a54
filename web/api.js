// The game's small public surface: each method is one thing a player can do. Each
// changes the state (through board.js or an engine answer) and then renders once.

import * as board from "./board.js";
import { capitalise, codeLabel, count, flyFromPool, flyIn, focusLost, jokersStandFor, landFlights, render, renderClock, roundReason, setVerdict, showDraw, slideFrom, tileSpots } from "./render.js";
import { createState, isMyTurn } from "./state.js";
import { recordRound } from "./stats.js";

const BOT_TIMEOUT_MS = 30_000; // a bot that thinks longer is cut off (worker restarted)
export const SAVE_KEY = "rummikub.savedGame";
const CLOCK_KEY = `${SAVE_KEY}.clock`; // {turn, deadline} of the player's running turn clock
// {turn, rack, table} the player's own rack order and, on their turn, the arrangement in
// progress: a reload brings them back when the engine's game is at that very turn.
const ARRANGEMENT_KEY = `${SAVE_KEY}.arrangement`;
// {game, delay, form} of the game in hand, kept with each save of it (persist): a name of
// its own (so statistics tell its rounds from another game's with the same scores), how
// long a computer turn stays on show (a reload used to fall back to the default), and the
// start screen's choices, which main.js puts back on the start screen.
export const SETTINGS_KEY = `${SAVE_KEY}.settings`;
// {game, turn, lines, highlight}: the computers' turns since the player's last one, as told
// and highlighted so far, so a reload while they play (or before the player's first
// move) still sums up all of them, not only those after it.
const SINCE_KEY = `${SAVE_KEY}.since`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const sentence = (line) => capitalise(/[.!?…]$/.test(line) ? line : `${line}.`);
// How long Hint may look before the message says it is looking.
const HINT_PATIENCE_MS = 250;
const SLIDE_MS = 220; // a tile moved by a tap, a key or a button slides to its place
const HINT_SLIDE_MS = 300; // a hint's step, a set made at once: a little slower
const reducedMotion = () => globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

/** A record the page keeps in localStorage under ``key``, when it is a JSON object;
 *  null when it is missing, unreadable or storage is off. */
function readKept(key) {
  try {
    const kept = JSON.parse(localStorage.getItem(key));
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : null;
  } catch {
    return null;
  }
}

/** The kept settings of the game in hand ({game, delay, form}), or null. */
export const keptSettings = () => readKept(SETTINGS_KEY);
// The longest a computer turn stays on show that a kept record may ask for.
export const MAX_DELAY_MS = 5000;

export function createGame(engine, options = {}) {
  const state = createState();
  let botDelay = options.botDelay ?? 900; // ms a computer turn stays on show
  let checkSeq = 0;
  let epoch = 0; // bumped by every new game, so a computer loop of an old game stops
  let clockTimer = null;

  const redraw = () => render(state);
  // Whether the player has pressed a key or a control on this page yet: until then the
  // focus stays where the browser put it (after a reload, a focus ring round the rack's
  // first tile looked, to a player with a mouse, like a tile picked up). A click on the
  // felt counts for nothing: it focuses nothing, and the ring came back (QA pass 26).
  // Listened for until then only.
  let acted = false;
  const listening = new AbortController();
  const act = (event) => {
    if (event.type !== "keydown" && !event.target.closest?.("button, input, select, summary, a[href]")) return;
    acted = true;
    listening.abort();
  };
  for (const type of ["pointerdown", "keydown"]) {
    globalThis.document?.addEventListener(type, act, { capture: true, signal: listening.signal });
  }
  // Every message is a sentence with a capital, one that starts with a tile's name
  // ("yellow 1 was on the table…") too.
  // ``aside`` is read out after the words but not shown (the hint's tiles in words, which
  // the words' small tiles already show).
  const say = (text, kind = "info", aside = "") => {
    state.message = text ? { text: capitalise(text), kind, aside } : null;
  };
  const tileName = (id) => state.tiles.get(id)?.label ?? `tile ${id}`;
  // Tiles drawn, as said after "you drew": "red 5, a joker" (not "drew joker").
  const drawnNames = (tiles) => tiles.map((t) => (t.joker ? "a joker" : t.label)).join(", ");

  function failed(err) {
    console.error(err);
    document.body.dataset.failed = String(err.message ?? err);
    state.busy = false;
    state.showing = null;
    say(`The engine failed: ${err.message ?? err}`, "error");
    redraw();
  }

  /** Where the tile just moved went, and what its set now is, for a screen reader (the
   *  set's note shows it to the eye, from the same verdict): "red 8 to Set 2, place 3 of
   *  4: run, 21 points." or "…: not valid, a set needs at least 3 tiles." */
  function moveNews(id, back = false) {
    const i = state.table.findIndex((row) => row.includes(id));
    const row = i < 0 ? state.rack : state.table[i];
    const to = `${back ? "back " : ""}to ${i < 0 ? "your rack" : `Set ${i + 1}`}`;
    const name = i < 0 ? tileName(id) : setTileName(i, id); // "joker as red 7" in a set
    const where = `${name} ${to}, place ${row.indexOf(id) + 1} of ${row.length}`;
    const verdict = i < 0 ? null : setVerdict(state, i);
    let said = `${where}.`;
    if (verdict?.problem !== undefined) said = `${where}: not valid, ${verdict.problem.replace(/\.$/, "")}.`;
    else if (verdict) said = `${where}: ${verdict.kind}, ${verdict.value} points.`;
    // The set it left, when that is no longer a set (it was told only at Confirm Play).
    const left = state.revealKind === "move" ? state.revealFrom : [];
    const k = left.length ? state.table.findIndex((r) => r.includes(left[0])) : -1;
    const problem = k >= 0 && k !== i ? setVerdict(state, k)?.problem : undefined;
    if (problem !== undefined) said += ` Set ${k + 1} is left not valid: ${problem.replace(/\.$/, "")}.`;
    // Before the opening, its total too, in the same words: the turn line shows it but is
    // not read out for a move (two announcements for one move).
    return withTotal(said);
  }

  /** A set just split before tile ``id``, for a screen reader, both halves with their
   *  verdicts: "Set 2 split before red 5: Set 2, red 2, red 3, red 4: run, 9 points;
   *  Set 3, red 5 to red 9: run, 35 points." */
  function splitNews(id) {
    const i = state.table.findIndex((row) => row.includes(id));
    return withTotal(`Set ${i} split before ${setTileName(i, id)}: ${setNews(i - 1)}; ${setNews(i)}.`);
  }

  /** A tile of table set ``k`` by name, a joker with what it stands for there. */
  function setTileName(k, id) {
    const code = jokersStandFor(state, k).get(id);
    return code ? `joker as ${codeLabel(code)}` : tileName(id);
  }

  /** Table set ``k``, its tiles and its verdict: "Set 3, red 5 to red 9: run, 35 points". */
  function setNews(k) {
    return `Set ${k + 1}, ${setTiles(k)}`;
  }

  /** Set ``k``'s tiles and its verdict, "red 5 to red 9: run, 35 points", a joker named
   *  with what it stands for ("joker as red 9"). */
  function setTiles(k) {
    const row = state.table[k];
    const verdict = setVerdict(state, k);
    const name = (id) => setTileName(k, id);
    // A run of 4 or more from its first tile to its last; a group, or a few tiles, each.
    const run = verdict?.kind === "run" && row.length > 3;
    const tiles = run ? `${name(row[0])} to ${name(row.at(-1))}` : row.map(name).join(", ");
    if (verdict?.problem !== undefined) return `${tiles}: not valid, ${verdict.problem.replace(/\.$/, "")}`;
    return verdict ? `${tiles}: ${verdict.kind}, ${verdict.value} points` : tiles;
  }

  /** Before the opening, the words end with its total (the turn line is not read out). */
  function withTotal(said) {
    const v = state.view;
    return v.opened ? said : `${said} Opening: ${state.check?.opening_value ?? 0} of ${v.threshold}.`;
  }

  /** What Undo took back, told as the tile (or set) now is: "Undone: red 8 back to your
   *  rack, place 3 of 14." or "Undone: Set 2 whole again, red 2 to red 9: run, 44 points." */
  function undoNews(id) {
    if (state.revealKind === "unstep") return withTotal("Undone: the hint's last step.");
    if (state.revealKind === "unsplit") {
      const i = state.table.findIndex((row) => row.includes(id));
      return withTotal(`Undone: Set ${i + 1} whole again, ${setTiles(i)}.`);
    }
    return `Undone: ${moveNews(id, true)}`;
  }

  const news = (id) => {
    if (state.revealKind === "split") return splitNews(id);
    if (state.revealKind === "step") {
      const i = state.table.findIndex((row) => row.includes(id));
      return withTotal(`Hint step: ${setNews(i)}.`);
    }
    if (["undo", "unsplit", "unstep"].includes(state.revealKind)) return undoNews(id);
    return moveNews(id);
  };

  /** What every move of a tile (or split of its set) ends with: the arrangement before
   *  it kept for Undo, the tile let go and focused, its set scrolled into view and told. */
  function moved(id, before, kind = "move") {
    state.undo.push({ ...before, told: { id, kind } });
    // The tiles of the set it came from, if it came from one (its news says if that is
    // left not valid).
    state.revealFrom = (before.table.find((row) => row.includes(id)) ?? []).filter((t) => t !== id);
    state.selected = null;
    state.highlight = new Set();
    state.drawn = new Set();
    state.focus = `tile-${id}`;
    state.reveal = id;
    state.revealKind = kind;
    changed();
  }

  function tellMove(text) {
    // The same words twice in a row differ by a space, so they are read again (a live
    // region reads what changes).
    state.news = state.news === text ? `${text}\u00a0` : text;
    // Before the opening the words say its total: the turn line, which shows it too, is
    // not read out for this change (render).
    state.newsHasTotal = !state.view?.opened;
  }

  /** Ask the engine to check the arrangement; the newest answer wins. */
  async function liveCheck() {
    const seq = ++checkSeq;
    if (!isMyTurn(state) || !board.isTouched(state)) {
      state.check = null;
      if (state.reveal !== null && isMyTurn(state)) tellMove(news(state.reveal));
      state.reveal = null;
      return;
    }
    const table = state.table.map((s) => s.slice());
    try {
      const answer = await engine.call({ cmd: "check", table });
      if (seq !== checkSeq) return;
      if (!answer.error) {
        state.check = answer;
        if (state.reveal !== null) tellMove(news(state.reveal));
        redraw(); // the set's note may have grown: the set just changed is shown again
      }
    } finally {
      // Even when the engine fails, the set is shown once, not on every later redraw.
      if (seq === checkSeq) state.reveal = null;
    }
  }

  function changed() {
    keepArrangement();
    state.refused = null;
    // A message is news of the moment it was said: the next move clears it, except a
    // hint's guidance while the hint is being laid out.
    if (state.message && !(state.message.kind === "hint" && state.hint)) say(null);
    // The check is asked for before the redraw: a table back as the turn began (Undo)
    // drops the last arrangement's check at once, so its "not valid" is not drawn.
    const checking = liveCheck();
    redraw();
    checking.catch(failed);
  }

  /** Tiles the player moves by a tap, a key or a button slide from where they were to
   *  their new places (render.js ``slideFrom``); ``still``, a dragged tile, does not. */
  function sliding(change, ms = SLIDE_MS, still = null) {
    const spots = reducedMotion() || !state.view ? null : tileSpots([...state.rack, ...state.table.flat()]);
    const result = change();
    if (spots) slideFrom(spots, ms, still);
    return result;
  }

  // The turn clock: a deadline in the state, a ticker that redraws the countdown and,
  // once it has passed and the player is free to act, tells the engine time is up.
  // The deadline is also kept in the browser, so a reload mid-turn does not wind the
  // clock back to full time.
  function stopClock() {
    clearInterval(clockTimer);
    clockTimer = null;
    state.clock = null;
    renderClock(state);
  }

  function startClock() {
    stopClock();
    const view = state.view;
    if (view?.round_over) keepDeadline(null);
    const seconds = view?.rules?.turn_seconds;
    if (!seconds || !isMyTurn(state) || state.screen !== "game") return;
    const turn = turnKey(view);
    const full = Date.now() + seconds * 1000;
    const deadline = Math.min(keptDeadline(turn) ?? full, full);
    keepDeadline({ turn, deadline });
    state.clock = { deadline, turn: view.turn };
    renderClock(state);
    clockTimer = setInterval(() => {
      const clock = state.clock;
      if (!clock || state.view?.turn !== clock.turn || state.screen !== "game") return stopClock();
      renderClock(state);
      if (Date.now() >= clock.deadline && isMyTurn(state)) {
        stopClock();
        api.timeout();
      }
    }, 250);
  }

  // Names the player's turn on show: the round, the turn in it, the match so far and the
  // rack it started with. A new game forgets the kept deadline, so two games that share
  // a key (the same deal played the same way) never share a deadline.
  function turnKey(view) {
    return JSON.stringify([view.round, view.turn, view.history, view.rack.map((t) => t.id)]);
  }

  function keptDeadline(turn) {
    // Storage disabled or the entry unreadable: the clock starts afresh.
    const kept = readKept(CLOCK_KEY);
    return kept?.turn === turn && Number.isFinite(kept.deadline) ? kept.deadline : null;
  }

  /** Keep {turn, deadline} in the browser, or forget it (null). */
  function keepDeadline(kept) {
    try {
      if (kept) localStorage.setItem(CLOCK_KEY, JSON.stringify(kept));
      else localStorage.removeItem(CLOCK_KEY);
    } catch {
      // Storage full or disabled: the clock runs, it just restarts after a reload.
    }
  }

  /** Keep the game in the browser after every action, so a reload brings it back. */
  async function persist() {
    const saved = await engine.takeSnapshot();
    if (state.stale) return; // another tab saved the game since: never write over it
    try {
      if (saved) localStorage.setItem(SAVE_KEY, saved);
      // The game's own settings beside it, written with it: written when the engine dealt
      // a new game, they named the old saved game until the new one was first saved.
      if (saved && state.gameId) {
        const settings = { game: state.gameId, delay: botDelay, form: state.gameForm };
        localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
      }
    } catch {
      // Storage full or disabled: the game goes on, it just won't survive a reload.
    }
    keepArrangement();
  }

  // The rack order and the arrangement in progress are the page's own (the engine keeps
  // only the game): kept beside the saved game, keyed to the exact turn, so a reload
  // brings back a sorted rack and a half-built play, and never a stale one.
  function keepArrangement() {
    const view = state.view;
    if (!view || state.restoring || state.stale) return;
    const mine = isMyTurn(state);
    const table = mine && board.isTouched(state) ? state.table : null;
    // The turn's moves so far, for Undo after a reload (a reload used to forget them).
    const undo = mine ? state.undo.map((a) => ({ rack: a.rack, table: a.table })) : [];
    try {
      const start = table ? state.turnRack : null; // the rack Reset Turn brings back
      localStorage.setItem(ARRANGEMENT_KEY, JSON.stringify({ turn: turnKey(view), rack: state.rack, table, start, undo }));
    } catch {
      // Storage full or disabled: a reload deals the rack back in the engine's order.
    }
  }

  function keepSince(lines) {
    if (state.stale) return;
    try {
      const since = { game: state.gameId, turn: turnKey(state.view), lines, highlight: [...state.highlight] };
      localStorage.setItem(SINCE_KEY, JSON.stringify(since));
    } catch {
      // Storage full or off: a reload sums up only the turns after it.
    }
  }

  /** The computers' turns since the player's last one, as kept for this very turn of
   *  the game ({lines, highlight}), or null. */
  function keptSince() {
    const kept = readKept(SINCE_KEY);
    const view = state.view;
    // This game's (a deal replayed has the same first turns) and this very turn.
    if (!kept || kept.game !== state.gameId || kept.turn !== turnKey(view)) return null;
    const { lines, highlight } = kept;
    if (!Array.isArray(lines) || !lines.every((l) => typeof l === "string")) return null;
    if (!Array.isArray(highlight) || !highlight.every(Number.isInteger)) return null;
    const onTable = new Set(view.table.flatMap((set) => set.tiles.map((t) => t.id)));
    return { lines, highlight: highlight.filter((id) => onTable.has(id)) };
  }

  /** Put back the kept rack order (and the arrangement in progress and Undo's history,
   *  on the player's turn) when it fits the view just restored: the same turn, and
   *  exactly the tiles the engine reports. Anything else is ignored. Returns true when
   *  the arrangement came back. */
  function restoreArrangement() {
    const kept = readKept(ARRANGEMENT_KEY); // unreadable: the engine's order stands
    const view = state.view;
    const ids = (list) => Array.isArray(list) && list.every(Number.isInteger) && new Set(list).size === list.length;
    if (!kept || kept.turn !== turnKey(view) || !ids(kept.rack)) return false;
    const rackIds = new Set(state.startRack);
    const expected = [...state.startRack, ...state.startTable.flat()];
    // An arrangement of this turn: every tile of the turn exactly once, the rack holding
    // only tiles of the engine's rack, every other tile of the rack and the table in a set.
    const fits = (rack, table) => {
      if (!ids(rack) || !Array.isArray(table) || !table.every((row) => ids(row) && row.length)) return false;
      const all = [...rack, ...table.flat()];
      const seen = new Set(all);
      return seen.size === all.length && all.length === expected.length && expected.every((id) => seen.has(id)) && rack.every((id) => rackIds.has(id));
    };
    const myTurn = !view.round_over && view.current === view.me;
    // Undo's history comes back whole, or not at all.
    const undo = kept.undo;
    if (myTurn && Array.isArray(undo) && undo.every((a) => a && typeof a === "object" && fits(a.rack, a.table))) {
      state.undo = undo.map((a) => ({ rack: a.rack.slice(), table: a.table.map((row) => row.slice()) }));
    }
    const table = kept.table;
    if (myTurn && Array.isArray(table) && table.length && fits(kept.rack, table)) {
      state.rack = kept.rack.slice();
      state.table = table.map((row) => row.slice());
      // The rack as the turn began, for Reset Turn: kept with the arrangement (the
      // engine's rack exactly), else the kept rack with the laid tiles after it.
      const start = kept.start;
      const whole = ids(start) && start.length === state.startRack.length && start.every((id) => rackIds.has(id));
      state.turnRack = whole ? start.slice() : [...kept.rack, ...state.startRack.filter((id) => !kept.rack.includes(id))];
      return board.isTouched(state);
    }
    // The rack order alone: the kept order of the tiles still on the rack, then the rest.
    const order = kept.rack.filter((id) => rackIds.has(id));
    const inOrder = new Set(order);
    state.rack = [...order, ...state.rack.filter((id) => !inOrder.has(id))];
    state.turnRack = state.rack.slice();
    return false;
  }

  /** ``shown``: run once the answer is drawn (a flight to watch). */
  async function settle(answer, what, shown = null) {
    if (answer.error) {
      say(answer.error, "error");
      redraw();
      return false;
    }
    board.applyView(state, answer.view);
    if (what) say(what);
    state.busy = true; // until the game is saved and the computers have played
    redraw();
    shown?.();
    await persist();
    await runComputers();
    return true;
  }

  // The computer loop's pauses (the reveal, a turn on show): a resignation cuts the
  // current one short.
  let hurry = () => {};
  function pause(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      hurry = () => (clearTimeout(timer), resolve());
    });
  }

  /** Send the resignation the player confirmed (from the computer-turn loop). */
  async function resignNow() {
    stopClock();
    state.busy = true;
    let answer;
    try {
      answer = await engine.call({ cmd: "resign" });
    } finally {
      state.resigning = false;
    }
    if (answer.error) {
      say(answer.error, "error");
      redraw();
      return;
    }
    board.applyView(state, answer.view);
    say("You resigned this round.");
    redraw();
    await persist();
  }

  // Every computer player takes its turn, one at a time, shown and narrated. One loop
  // of computer turns at a time; it runs until it is the player's turn again.
  let computers = Promise.resolve();
  let running = null;
  function runComputers(since = null) {
    if (!running) running = computerTurns(since).finally(() => (running = null));
    computers = running;
    return running;
  }

  /** ``since``: the turns told and highlighted before a reload ({lines, highlight}). */
  async function computerTurns(since) {
    const v = () => state.view;
    const mine = epoch;
    // What the player last did (or was told), then each computer turn: the summary
    // shown when the player's turn starts.
    const told = state.message && state.message.kind !== "error" ? [sentence(state.message.text)] : [];
    const start = told.length;
    // Every tile the computers placed or moved since the player's last turn stays
    // highlighted until the player's first move: the summary tells all their turns.
    // After a reload, those before it come back (restoreFromStorage) and go on from there.
    if (since) told.push(...since.lines);
    let fresh = !since;
    // A resignation is sent from here, between two computer turns (never beside one: the
    // engine answers one call at a time, and a bot turn cut off by the watchdog restarts
    // the worker), so one made while the computers play takes effect at once.
    while (mine === epoch && !state.stale && !v().round_over && (v().current !== v().me || state.resigning)) {
      if (fresh) state.highlight = new Set();
      fresh = false;
      if (state.resigning) {
        await resignNow();
        if (mine !== epoch) return;
        continue;
      }
      // Once the player is out of the round (resigned), nobody is waiting for the
      // computers' turns: they are played out at once, then the round's end is shown.
      // Asked again at every pause: a resignation cuts short the turn on show.
      const pace = () => (outOfRound() || state.resigning ? 0 : botDelay);
      const delay = pace();
      const player = v().current;
      state.busy = true;
      state.showing = { player, action: "thinking" };
      redraw();
      let answer;
      try {
        answer = await engine.call({ cmd: "bot_turn" }, { timeoutMs: BOT_TIMEOUT_MS });
      } catch (err) {
        if (err.message !== "timeout") throw err;
        say(`${v().players[player].name} took too long; it plays a quick move instead`, "error");
        told.push(sentence(state.message.text));
        redraw();
        await engine.restart();
        // The same search would run just as long: ask for a quick (Easy-level) move.
        answer = await engine.call({ cmd: "bot_turn", quick: true }, { timeoutMs: BOT_TIMEOUT_MS });
      }
      if (mine !== epoch) return;
      if (answer.error) {
        state.busy = false;
        state.showing = null;
        say(answer.error, "error");
        redraw();
        return;
      }
      const turn = answer.turn;
      const moved = [...new Set([...turn.steps.map((s) => s.tile), ...turn.placed])];
      // Where the table tiles it moves stand before it moves them: they fly from there.
      const spots = tileSpots(moved);
      board.applyView(state, answer.view);
      // The view's `current` is already the next player: until the turn has been shown,
      // the page names the computer whose turn it was and says what it did.
      state.showing = { player: turn.player, action: turn.action, placed: new Set(turn.placed) };
      const line = sentence(turn.narration);
      told.push(line);
      say(line);
      for (const id of moved) state.highlight.add(id);
      // Shown tile by tile at the player's speed (all at once when instant or when the
      // player prefers less motion), each flying in from where it was on the table or from
      // the computer's card; the narration is the newest line of the log.
      if (delay && moved.length && !reducedMotion()) {
        state.pending = new Set(moved);
        redraw();
        const step = Math.max(80, Math.min(350, delay / moved.length));
        const flight = Math.round(Math.min(450, Math.max(220, step * 1.4)));
        for (const id of moved) {
          await pause(step);
          if (mine !== epoch) return;
          if (!pace()) break; // resigned: the rest of the play at once
          state.pending.delete(id);
          redraw();
          flyIn(id, spots.get(id), flight, turn.player);
        }
      }
      state.pending = new Set();
      redraw();
      if (turn.action === "draw" && pace() && !reducedMotion()) showDraw(turn.player, Math.min(600, delay));
      await persist();
      if (mine !== epoch) return;
      keepSince(told.slice(start));
      if (pace()) await pause(pace());
    }
    if (mine !== epoch) return;
    state.resigning = false; // the round ended before it was sent: nothing to resign
    state.busy = false;
    state.showing = null;
    // Summed up only when the player's turn comes round (one line per opponent): after a
    // resignation the computers may play out the rest of the round, far too much to say.
    if (told.length > 1 && !v().round_over && v().current === v().me) say(told.join(" "));
    if (v().round_over) {
      state.dialog = "round";
      recordRound(v(), roundKey(v()));
    } else if (focusLost() && state.rack.length && (acted || document.activeElement !== document.body)) {
      // The button pressed last (Start Game, Confirm Play, Draw) is gone or disabled:
      // the turn starts on the rack rather than back at the top of the page. Not on a
      // page just loaded, where nothing was pressed.
      state.focus = `tile-${state.rack[0]}`;
    }
    redraw();
    startClock();
  }

  /** Has the player left this round (resigned)? Then no turn of theirs comes round. */
  function outOfRound() {
    const v = state.view;
    return !!v && !!v.players[v.me]?.resigned;
  }

  // Another tab or window of this browser saved the game (a storage event comes only
  // from elsewhere): this tab's game is out of date. It stops, its computers and its
  // saving with it, and asks (render.js) before taking the game up from the latest save.
  // Two tabs used to play on unseen, each overwriting the other's save.
  globalThis.addEventListener?.("storage", (event) => {
    if (event.key !== SAVE_KEY || !state.view || state.restoring || state.stale) return;
    state.stale = true;
    epoch++; // this tab's computer turns stop
    landFlights();
    stopClock();
    hurry();
    redraw();
  });

  let restoring = Promise.resolve(false);
  async function restoreFromStorage(welcome = "Welcome back: your game was restored") {
    let saved = null;
    try {
      saved = localStorage.getItem(SAVE_KEY);
    } catch {
      return false;
    }
    if (!saved) return false;
    // The game's own settings (its name, its pace), when they were kept.
    const kept = keptSettings();
    state.gameId = typeof kept?.game === "string" ? kept.game : null;
    state.gameForm = kept?.form ?? null;
    if (Number.isFinite(kept?.delay)) botDelay = Math.max(0, Math.min(MAX_DELAY_MS, kept.delay));
    state.restoring = true;
    redraw();
    await engine.ready;
    const answer = await engine.call({ cmd: "load", save: saved });
    state.restoring = false;
    if (answer.error) {
      try {
        localStorage.setItem(`${SAVE_KEY}.setAside`, saved);
        localStorage.removeItem(SAVE_KEY);
      } catch {}
      state.notice = `Your saved game could not be restored (${answer.error}). It was set aside; start a new game.`;
      redraw();
      return false;
    }
    engine.snapshot = saved;
    epoch++;
    landFlights();
    state.screen = "game";
    state.rack = [];
    state.dialog = answer.view.round_over ? "round" : null;
    board.applyView(state, answer.view);
    const arranged = restoreArrangement();
    // The tile drawn at the player's last turn is named (and marked, by applyView) again,
    // as it was before the reload; a move this turn had put the mark away.
    if (arranged) state.drawn = new Set();
    const drawn = arranged ? [] : answer.view.drawn;
    const drew = drawn.length ? ` You drew ${drawnNames(drawn)}.` : "";
    // The computers' turns since the player's last one, told and highlighted again: by
    // the computer-turn loop when they are still playing, else here (none once the
    // player has begun to arrange their turn, which put the highlights away).
    const since = arranged || answer.view.round_over ? null : keptSince();
    if (since) state.highlight = new Set(since.highlight);
    const myTurn = answer.view.current === answer.view.me;
    const told = since && myTurn && since.lines.length ? ` ${since.lines.join(" ")}` : "";
    say(arranged ? `${welcome}, with the tiles you had arranged this turn.` : `${welcome}.${drew}${told}`);
    // An arrangement is checked before it is first shown: the turn line read out its
    // opening total as 0, then changed it.
    if (arranged) await liveCheck().catch(failed);
    redraw();
    // Not awaited: a new game need not wait for them. A loop of the game this replaced
    // may still be ending its pause (another tab's game taken up): this one starts after
    // it (runComputers would hand back the old loop, which stops).
    computers
      .catch(() => {})
      .then(() => runComputers(myTurn ? null : since))
      .catch(failed);
    return true;
  }

  /** newGame's work: the old game's computers stopped, a new game dealt and begun. */
  async function startNewGame(settings) {
    await engine.ready;
    const players = [{ name: "You", kind: "human" }];
    settings.opponents.forEach((o, i) => players.push({ name: `Computer ${i + 1}`, kind: "bot", level: o.level }));
    const rules = { ...settings.rules, players: players.length };
    await restoring.catch(() => {}); // a saved game being restored goes first
    epoch++; // stop the old game's computers, and let their last call finish
    landFlights(); // its tiles' nodes are used again
    state.resigning = false; // a resignation of the old game not yet sent is dropped
    state.notice = null;
    state.unrestored = false; // the player chose to replace it
    keepDeadline(null);
    try {
      localStorage.removeItem(ARRANGEMENT_KEY);
    } catch {}
    await computers.catch(() => {});
    const answer = await engine.call({ cmd: "new_game", seed: settings.seed ?? null, rules, players });
    if (answer.error) throw new Error(answer.error);
    // Kept with the game's first save (persist).
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
    await showWhoStarts(answer);
    await settle(answer, whoStartsText(answer));
  }

  const api = {
    state,
    engine,
    render: redraw,

    /** Boot progress from the engine worker. */
    bootProgress(p) {
      Object.assign(state.boot, { done: p.done, total: p.total, stage: p.stage, loaded: p.loaded ?? 0, bytes: p.bytes ?? 0 });
      redraw();
    },
    bootReady(info) {
      state.boot.ready = true;
      state.boot.done = state.boot.total;
      state.boot.ms = info.timings.total;
      redraw();
    },
    bootFailed(message) {
      state.boot.failed = message;
      redraw();
    },

    /** Start a new game: settings = {opponents: [{level}], rules: {...}, seed}. */
    async newGame(settings) {
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
    },

    canDrag: (id) => board.canMove(state, id),
    accepts: (id, dest) => board.canDrop(state, id, dest),

    /** Pick up a tile (tap or keyboard), or put it down when it is picked up already. */
    select(id) {
      if (!board.canMove(state, id)) return;
      state.selected = state.selected === id ? null : id;
      state.hintIds = new Set();
      state.focus = `tile-${id}`;
      redraw();
    },
    deselect() {
      if (state.selected === null) return;
      state.focus = `tile-${state.selected}`;
      state.selected = null;
      redraw();
    },

    /** Move a tile (drag, or a tap on a destination). */
    move(id, dest) {
      if (dest.area === "rack" && board.canMove(state, id) && !board.fromRack(state, id)) {
        // Said, not silently ignored: a tap on the rack or a drop there did nothing.
        say(`${tileName(id)} stays on the table: it was there when your turn began, and only tiles you laid this turn can go back to your rack.`, "error");
        redraw();
        return false;
      }
      const before = board.snapshot(state);
      state.hint = null;
      if (!board.moveTile(state, id, dest)) return false;
      moved(id, before);
      return true;
    },
    /** A dragged tile let go at dest: the tiles it pushes aside slide (it is already
     *  where the pointer let it go). */
    drop(id, dest) {
      return sliding(() => api.move(id, dest), SLIDE_MS, id);
    },
    /** Put the picked-up tile at dest; put at its own spot, it is let go where it is. */
    place(dest) {
      const id = state.selected;
      if (id === null) return false;
      if (board.isOwnSpot(state, id, dest)) {
        api.deselect();
        return false;
      }
      return sliding(() => api.move(id, dest));
    },
    /** Split the picked-up tile's set before it (``board.splitSet``): the tile and the
     *  tiles after it become a set of their own. */
    split() {
      const id = state.selected;
      if (id === null || !board.canSplit(state, id)) return false;
      return sliding(() => {
        const before = board.snapshot(state);
        state.hint = null;
        board.splitSet(state, id);
        moved(id, before, "split");
        return true;
      });
    },
    /** Move the picked-up tile one place left (-1) or right (+1) in its row. */
    nudge(delta) {
      const id = state.selected;
      if (id === null) return;
      sliding(() => {
        const before = board.snapshot(state);
        if (!board.nudge(state, id, delta)) return;
        state.undo.push({ ...before, told: { id, kind: "move" } });
        state.focus = `tile-${id}`;
        state.reveal = id;
        state.revealKind = "move"; // told as a move, even just after a split
        state.revealFrom = [];
        changed();
      });
    },
    /** The picked-up tile back to its own place on the rack (``board.rackPlace``). */
    returnToRack() {
      const id = state.selected;
      if (id === null) return;
      api.place({ area: "rack", index: board.rackPlace(state, id) });
    },

    /** Take back the last move of this turn. */
    undo() {
      if (!isMyTurn(state)) return;
      sliding(() => {
        const was = board.snapshot(state);
        const kept = state.undo.at(-1)?.told;
        if (!board.undo(state)) return;
        // Told as the tile now is (a move restored from a reload has no record of which
        // tile it moved: the first that changed places stands for it).
        const told = kept ?? { id: board.firstMoved(was, state), kind: "move" };
        state.reveal = told.id;
        state.revealKind = { split: "unsplit", step: "unstep" }[told.kind] ?? "undo";
        if (told.id === null) tellMove(withTotal("Undone."));
        changed();
      });
    },

    resetTurn() {
      if (!isMyTurn(state)) return;
      sliding(() => {
        board.resetTurn(state);
        keepArrangement();
        say("Turn reset: every tile is back where it was.");
        checkSeq++;
        redraw();
      });
    },

    sortRack(by) {
      sliding(() => {
        board.sortRack(state, by);
        keepArrangement();
        // Read out: the tiles move, and a screen reader heard nothing of it.
        const first = state.rack.slice(0, 3).map(tileName).join(", ");
        tellMove(`Your rack sorted by ${by}${first ? `: ${first} first` : ""}.`);
        state.newsHasTotal = false; // these words say no opening total
        redraw();
      });
    },

    async confirm() {
      if (!isMyTurn(state)) return;
      const table = state.table.map((s) => s.slice());
      const pressed = document.activeElement;
      state.busy = true;
      redraw();
      const answer = await engine.call({ cmd: "play", table });
      state.busy = false;
      if (answer.error) {
        state.refused = { message: answer.error, errors: answer.errors ?? [] };
        // After the colon the engine's sentence goes on in lower case ("Not played: your
        // opening totals 39 points…"); a set's name ("Set 2: …", as the page names it
        // everywhere) and a tile code stay as they are.
        say(`Not played: ${answer.error.replace(/^(?!Set \d)[A-Z](?=[a-z])/, (c) => c.toLowerCase())}`, "error");
        redraw();
        // Confirm Play was disabled only while the engine checked (the focus went to the
        // rack): a refused play gives it back, so the player is where they pressed.
        if (pressed?.id === "confirm" && !pressed.disabled) pressed.focus();
        return false;
      }
      stopClock();
      state.highlight = new Set();
      await settle(answer, answer.view.log.at(-1));
      return true;
    },

    /** Draw one tile (or pass when the pool is empty); the arrangement is put back,
     *  and the player is told so. */
    async draw() {
      if (!isMyTurn(state)) return;
      const arranged = board.isTouched(state);
      state.busy = true;
      redraw();
      const answer = await engine.call({ cmd: "draw" });
      state.busy = false;
      stopClock();
      if (answer.error) return settle(answer);
      const drawn = answer.view.drawn;
      const did = drawn.length ? `drew ${drawnNames(drawn)}` : "passed";
      const text = arranged ? `Your arrangement was put back; you ${did}.` : `You ${did}.`;
      const fly = reducedMotion() ? null : () => flyFromPool(drawn.map((t) => t.id), 400);
      return settle(answer, text, fly);
    },

    /** Ask the engine for the best play from the table as it was at the start of the
     *  turn; it is shown, and "Next Step" lays it out one set at a time (each step
     *  can be undone), first putting back rack tiles the hint does not use. */
    async hint() {
      // A second press while the engine looks is the same request (two searches went).
      if (!isMyTurn(state) || state.hinting) return;
      state.hinting = true;
      // A search that takes a while says so (a second or more with wrap-around runs,
      // several on a slow phone); a quick one would only flicker.
      const slow = setTimeout(() => {
        if (state.hinting) say("Looking for the best play…", "hint"), redraw();
      }, HINT_PATIENCE_MS);
      redraw();
      let answer;
      try {
        answer = await engine.call({ cmd: "hint" });
      } finally {
        clearTimeout(slow);
        state.hinting = false;
      }
      if (!isMyTurn(state)) return redraw(); // the turn ended meanwhile (its clock)
      if (answer.error) return say(answer.error, "error"), redraw();
      if (!answer.table) {
        say("No play found from your rack: draw a tile.");
        state.hintIds = new Set();
        state.hint = null;
      } else {
        state.hintIds = new Set(answer.placed);
        state.hint = { table: answer.table, placed: answer.placed };
        // The computers' last plays are no longer marked: kept, they read as part of the
        // hint (QA pass 31). The log and the message's summary still tell them.
        state.highlight = new Set();
        const strays = board.hintStrays(state, answer.table);
        const back = strays.length
          ? ` It does not use ${strays.map(tileName).join(", ")}: the first step puts ${strays.length === 1 ? "it" : "them"} back on your rack.`
          : "";
        // The engine tells the play in words: "lay R10 B10 Y10 and add K7 to K4 K5 K6".
        // What to do next comes before the tiles' names, which a long hint may push past
        // the message's two lines.
        // The tiles in the order the engine's words name them (its ``placed``).
        say(`Hint: ${answer.said}.${back} Use Next Step to lay it out.`, "hint", ` (${answer.placed.map(tileName).join(", ")})`);
      }
      redraw();
    },

    hintStep() {
      if (!isMyTurn(state) || !state.hint) return;
      // The step's tiles fly from where they were, the tiles they push aside with them.
      sliding(() => {
        const hint = state.hint;
        const before = board.snapshot(state);
        const step = board.hintStep(state, hint.table);
        if (!step) {
          state.hint = null;
          say("That is the whole hint: Confirm Play to play it.", "hint");
          redraw();
          return;
        }
        const stepTiles = step.returned ?? state.table[step.built];
        state.undo.push({ ...before, told: { id: stepTiles[0], kind: "step" } });
        state.highlight = new Set(stepTiles);
        if (!step.returned) {
          // The set it laid is read out with the engine's verdict, as a move is.
          state.reveal = stepTiles[0];
          state.revealKind = "step";
        }
        changed();
        if (board.hintDone(state, hint.table)) {
          state.hint = null;
          say("The hint is laid out: Confirm Play to play it.", "hint");
        } else if (step.returned) {
          say(`${step.returned.map(tileName).join(", ")} went back to your rack: the hint does not use ${step.returned.length === 1 ? "it" : "them"}.`, "hint");
        }
        redraw();
      }, HINT_SLIDE_MS);
    },

    /** The clock ran out: the engine draws, plays a legal arrangement, or snaps the
     *  table back with penalty tiles; the player is told which. */
    async timeout() {
      if (!isMyTurn(state)) return;
      const touched = board.isTouched(state);
      state.busy = true;
      redraw();
      const answer = await engine.call({ cmd: "timeout", table: touched ? state.table : null, touched });
      state.busy = false;
      if (answer.error) return settle(answer);
      const event = answer.events?.find((e) => e.type === "timeout") ?? {};
      const tiles = event.tiles ?? [];
      const n = tiles.length;
      const texts = {
        draw: `Time ran out: you drew ${drawnNames(tiles)}.`,
        pass: "Time ran out: the pool is empty, so you passed.",
        play: "Time ran out: your arrangement was legal, so it was played.",
        penalty: `Time ran out: your arrangement was not legal, so the table snapped back ${n ? `and you drew ${count(n, "penalty tile")}: ${drawnNames(tiles)}` : "(the pool is empty, so there was no penalty)"}.`,
      };
      state.highlight = new Set();
      return settle(answer, texts[event.outcome] ?? "Time ran out.");
    },

    /** The round's scores put aside, to look at the table as the round ended (the
     *  winning play still highlighted); ``showScores`` brings them back. */
    seeTable() {
      if (!state.view?.round_over) return;
      state.dialog = null;
      // The message says how it ended, not the last computer's move.
      if (state.view.outcome) say(`The table as the round ended. ${roundReason(state.view)}`);
      state.showSet = state.lastPlaced;
      redraw();
    },
    showScores() {
      if (!state.view?.round_over) return;
      state.dialog = "round";
      redraw();
    },

    async nextRound() {
      const answer = await engine.call({ cmd: "next_round" });
      say(null); // the last round's news is over
      state.dialog = null;
      state.rack = [];
      state.highlight = new Set();
      state.logOpen = false; // so does a new round
      if (answer.error) return settle(answer);
      board.applyView(state, answer.view);
      state.busy = true;
      await showWhoStarts(answer);
      await settle(answer, answer.who_starts ? whoStartsText(answer) : null);
    },

    /** Bring back the game saved in this browser, if any. A save the engine refuses
     *  is set aside (kept under another key) and reported; it never breaks the page. */
    restoreSaved() {
      restoring = restoreFromStorage().catch((err) => {
        // The save stays where it is, for the next visit; the start screen says why, and
        // a new game, which would replace it, is asked for first (inProgress).
        state.restoring = false;
        state.unrestored = true;
        state.notice = `Your saved game could not be restored now: ${err.message ?? err}. It is still kept: reload the page to try again.`;
        failed(err);
      });
      return restoring;
    },

    /** After another tab played on: this tab takes the game up from the latest save
     *  (or, when there is none any more, goes back to the start screen). */
    async continueHere() {
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
    },

    /** Resign this round (after the player confirmed); the computers play it out. Sent
     *  at once: on the player's turn, or during the computers' turns, where the loop
     *  sends it after the turn being computed, with the rest of the round at no pace. */
    async resign() {
      if (!state.view || state.view.round_over || outOfRound() || state.resigning || state.starting) return;
      state.resigning = true;
      stopClock();
      state.highlight = new Set();
      hurry();
      redraw();
      // A play, a draw or a deal still on its way to the engine goes first (its answer
      // starts the computer loop, which then sends the resignation); never beside it.
      while (state.resigning && !running && (state.busy || state.whoStarts)) await sleep(50);
      if (state.resigning) await runComputers();
    },

    /** Is there a game that starting a new one would abandon? (A finished match is not;
     *  a saved game that could not be restored is.) */
    inProgress() {
      return state.restoring || state.unrestored || (!!state.view && !state.view.match_over);
    },

    /** Show the whole game log, or only its last lines (open: true, false, or toggle). */
    showLog(open = !state.logOpen) {
      state.logOpen = open;
      redraw();
    },

    setDelay(ms) {
      botDelay = Number.isFinite(ms) ? ms : 900;
    },

    /** Back to the start screen; the game in progress stays until a new one starts. */
    backToStart() {
      state.dialog = null;
      state.screen = "start";
      stopClock();
      redraw();
    },
    resume() {
      if (!state.view || state.starting) return;
      state.screen = "game";
      if (state.view.round_over) state.dialog = "round";
      // The control that brought the player back (Back to Game, or the focused start-screen
      // field) is hidden now: the focus goes to the rack's first tile, not to the page.
      if (state.rack.length) state.focus = `tile-${state.rack[0]}`;
      redraw();
      if (focusLost() && !state.dialog) document.getElementById("menu-new-game")?.focus();
      startClock();
    },
  };

  /** The who-starts draw as tiles flipping over, one draw after another (ties draw
   *  again). Skipped when computer turns are instant or the player prefers less motion. */
  async function showWhoStarts(answer) {
    const rounds = answer.who_starts ?? [];
    if (!rounds.length || !botDelay || reducedMotion()) return;
    const mine = epoch;
    const starter = starterLine(answer.view);
    for (let r = 0; r < rounds.length; r++) {
      // What this draw shows, once its tiles are turned: who starts, or why they draw again.
      const outcome =
        r === rounds.length - 1
          ? starter
          : rounds[r].some((d) => d.tile.joker)
            ? "A joker: draw again"
            : "A tie: draw again";
      state.whoStarts = { round: r, draws: rounds[r], flipped: false, outcome };
      redraw();
      await sleep(200);
      state.whoStarts.flipped = true;
      redraw();
      await sleep(r === rounds.length - 1 ? 1300 : 800);
      if (mine !== epoch) return;
    }
    state.whoStarts = null;
    redraw();
  }

  /** Names a finished round, so statistics count it once even across reloads: by the
   *  game's own name and the round (a game saved before games had names, by its scores). */
  function roundKey(view) {
    if (state.gameId) return JSON.stringify([state.gameId, view.round]);
    return JSON.stringify([view.history, view.players.map((p) => p.name), view.round]);
  }

  function whoStartsText(answer) {
    const rounds = answer.who_starts ?? [];
    const last = rounds.at(-1);
    if (!last) return null;
    const v = answer.view;
    const drew = last.map((d) => `${d.player === v.me ? "you" : v.players[d.player].name} ${codeLabel(d.tile.code)}`);
    return `Who starts: ${drew.join(", ")}. ${starterLine(v)}.`;
  }

  /** "You start" or "Computer 1 starts": the player to move first in ``view``. */
  function starterLine(view) {
    return view.current === view.me ? "You start" : `${view.players[view.current]?.name} starts`;
  }

  // Any answer the engine cannot give is shown, not thrown into the void.
  for (const name of ["newGame", "confirm", "draw", "hint", "timeout", "nextRound", "resign"]) {
    const fn = api[name];
    api[name] = (...args) => fn(...args).catch(failed);
  }
  return api;
}
