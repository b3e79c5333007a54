// Wires the page together: the engine worker, the game api, and the DOM events.
// ?seed=N, ?delay=MS and ?clock=SECONDS pre-fill the start screen (a seeded deal, how
// long a computer turn stays on show, the turn clock); window.__rummikub is the game
// api, for looking at the state from tests (which still act through the UI).

import { createGame, keptSettings, MAX_DELAY_MS } from "./api.js";
import { attachDrag, dropTarget } from "./drag.js";
import { engine } from "./engine-start.js";
import { landFlights } from "./render/flights.js";
import { renderHowTo } from "./render/howto.js";
import { logShown } from "./render/log.js";
import { markClipped } from "./render/message.js";
import { attachRoving } from "./roving.js";
import { shared } from "./seats.js";
import { clearStats, loadStats, statsNames, statsRows } from "./stats.js";
import { VARIANTS } from "./variants.js";
import { count } from "./words.js";

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
const LEVELS = ["easy", "medium", "hard", "expert"];
// What each level does, under its choice on the start screen (py_engine/bots.py).
const LEVEL_ABOUT = {
  easy: "Lays sets from its rack and adds tiles to the ends of sets on the table; now and then it misses a play.",
  medium: "Adds to sets on the table and rearranges them in simple ways: splits runs, borrows spare tiles, wins back jokers.",
  hard: "Finds the play that lays the most tiles, every turn, rearranging the whole table if it must.",
  expert: "Plays as Hard does, but in a two-player round weighs every turn whether to lay all it can, keep a tile back or draw, reading what you hold from how you have played; with more players, watches anyone close to going out.",
};

const game = createGame(engine);
engine.listen({
  onProgress: (p) => game.bootProgress(p),
  onReady: (info) => game.bootReady(info),
  onFailed: (err) => game.bootFailed(err.message), // each boot's, a fresh one's too
});
window.__rummikub = game;

// ----- start screen

function renderLevels() {
  const box = $("levels");
  const n = Number($("opponents").value);
  const keep = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.className = "row";
    label.textContent = `Computer ${i + 1} level `;
    const select = document.createElement("select");
    select.name = `level${i}`;
    for (const level of LEVELS) {
      const option = new Option(level[0].toUpperCase() + level.slice(1), level);
      select.append(option);
    }
    select.value = keep[i] ?? "medium";
    const about = document.createElement("small");
    about.className = "level-about";
    about.id = `level${i}-about`;
    select.setAttribute("aria-describedby", about.id);
    const describe = () => (about.textContent = LEVEL_ABOUT[select.value]);
    select.addEventListener("change", describe);
    describe();
    label.append(select);
    box.append(label, about);
  }
}
$("opponents").addEventListener("change", renderLevels);

const MAX_NAME = 24; // the engine's longest name
/** A name field for each person at this device when there are several (one person is
 *  "You"), and as many computers offered as leave 2 to 4 players in all. */
function renderPeople() {
  const box = $("names");
  const n = Number($("people").value);
  const keep = [...box.querySelectorAll("input")].map((input) => input.value);
  box.replaceChildren();
  for (let i = 0; n > 1 && i < n; i++) {
    const label = document.createElement("label");
    label.className = "row";
    label.textContent = `Person ${i + 1}'s name `;
    const input = document.createElement("input");
    Object.assign(input, { type: "text", name: `name${i}`, maxLength: MAX_NAME, placeholder: `Player ${i + 1}`, autocomplete: "off", value: keep[i] ?? "" });
    input.addEventListener("input", () => input.setCustomValidity(""));
    label.append(input);
    box.append(label);
  }
  const opponents = $("opponents");
  for (const option of opponents.options) option.disabled = n + Number(option.value) < 2 || n + Number(option.value) > 4;
  if (opponents.selectedOptions[0]?.disabled) opponents.value = String(Math.min(Math.max(2 - n, 0), 4 - n));
  renderLevels();
}
$("people").addEventListener("change", renderPeople);
renderPeople();

/** The people's names as the game will call them (a blank one "Player 2"); null, with
 *  the field told why, when two are the same (the log and the scores name everyone). */
function peopleNames() {
  const inputs = [...$("names").querySelectorAll("input")];
  const names = inputs.map((input, i) => input.value.trim() || `Player ${i + 1}`);
  const taken = new Set(["you", ...Array.from({ length: 3 }, (_, i) => `computer ${i + 1}`)]);
  for (const [i, name] of names.entries()) {
    const key = name.toLowerCase();
    if (taken.has(key)) {
      inputs[i].setCustomValidity(`Another player is called ${name}: give each person a name of their own.`);
      inputs[i].reportValidity();
      return null;
    }
    taken.add(key);
  }
  return names;
}
for (const v of VARIANTS) $(`${v.flag.replaceAll("_", "-")}-about`).textContent = v.about;

/** The start screen's choices, by field name (the deal number left out: a deal chosen
 *  once is not dealt again unasked). */
function formChoices() {
  const choices = {};
  for (const field of $("start-form").elements) {
    if (!field.name || field.name === "seed") continue;
    choices[field.name] = field.type === "checkbox" ? field.checked : field.value;
  }
  return choices;
}

/** The choices of the game in hand (or the last one) back on the start screen, after a
 *  reload: it showed the defaults. A choice the form no longer offers is left alone. */
function restoreChoices(choices) {
  if (!choices || typeof choices !== "object") return;
  const form = $("start-form");
  const put = (name) => {
    const field = form.elements.namedItem(name);
    const value = choices[name];
    if (!field || field.name === "seed" || !(name in choices)) return;
    if (field.type === "checkbox") {
      if (typeof value === "boolean") field.checked = value;
    } else if (field.type === "text" && typeof value === "string") {
      field.value = value.slice(0, MAX_NAME); // a person's name
    } else if (typeof value === "string" && [...(field.options ?? [])].some((o) => o.value === value && !o.disabled)) {
      field.value = value;
    } else if (name === "delay" && /^\d{1,4}$/.test(value ?? "") && Number(value) <= MAX_DELAY_MS) {
      preselect(field, value, `${value} ms`); // a pace a link asked for (?delay=MS)
    }
  };
  put("people");
  renderPeople(); // a name field for each person, and the computers that leave room for
  put("opponents");
  renderLevels(); // as many level choices as opponents, then their levels
  for (const name of Object.keys(choices)) if (name !== "opponents" && name !== "people") put(name);
  for (const select of $("levels").querySelectorAll("select")) select.dispatchEvent(new Event("change"));
}
restoreChoices(keptSettings()?.form);
if (params.has("seed")) $("seed").value = params.get("seed");
// ?delay=MS and ?clock=SECONDS pre-select a setting, adding it when it is not offered.
function preselect(select, value, label) {
  if (![...select.options].some((o) => o.value === value)) select.append(new Option(label, value));
  select.value = value;
}
if (params.has("delay")) preselect($("delay"), params.get("delay"), `${params.get("delay")} ms`);
if (params.has("clock")) preselect($("turn-seconds"), params.get("clock"), `${params.get("clock")} seconds`);

/** The rules chosen on the start screen. */
function readRules() {
  const data = new FormData($("start-form"));
  const seconds = data.get("turn_seconds");
  const rules = {
    opening: Number(data.get("opening")),
    joker_penalty: Number(data.get("joker_penalty")),
    target: Number(data.get("target")),
    turn_seconds: seconds ? Number(seconds) : null,
  };
  for (const { flag } of VARIANTS) rules[flag] = data.get(flag) === "on";
  return rules;
}

/** The game the start screen sets up; null when it cannot be (two people of one name). */
function readSettings() {
  const data = new FormData($("start-form"));
  const people = Number(data.get("people")) > 1 ? peopleNames() : [];
  if (!people) return null;
  const n = Number(data.get("opponents"));
  const opponents = Array.from({ length: n }, (_, i) => ({ level: data.get(`level${i}`) }));
  const rules = readRules();
  const seed = data.get("seed");
  game.setDelay(Number(data.get("delay")));
  return { people, opponents, rules, seed: seed === "" || seed === null ? null : Number(seed), form: formChoices() };
}

// Start Game stays at the foot of the screen while the form scrolls under it (style.css);
// it has a backing only while it stands over the form ("stuck"), not where the form ends
// in view and it rests in its place (the backing showed as a dark band there).
{
  const bar = document.querySelector(".start-buttons");
  const end = document.createElement("div");
  end.className = "start-end";
  bar.after(end);
  new IntersectionObserver(([entry]) => bar.classList.toggle("stuck", !entry.isIntersecting), {
    root: document.querySelector("main"),
  }).observe(end);
}

// A new game abandons the one in progress: asked first, unless the match is over.
$("start-form").addEventListener("submit", (event) => {
  event.preventDefault();
  if (Number($("people").value) > 1 && !peopleNames()) return; // the name field says why
  if (!game.inProgress()) return startGame();
  const v = game.state.view;
  const you = shared(v) ? null : v?.players[v.me];
  // On a shared device, where everyone stands.
  const all = shared(v) ? `: ${v.players.map((p) => `${p.name} ${count(p.score, "point")}`).join(", ")}` : "";
  const unrestored = !v && game.state.unrestored;
  $("abandon-where").textContent = v
    ? `It is round ${v.round}${you ? `, and you have ${count(you.score, "point")}` : all}.`
    : unrestored
      ? "Your saved game could not be restored this time, and is still kept in this browser: a new game replaces it."
      : "";
  $("abandon-cancel").textContent = unrestored ? "Keep the Saved Game" : "Keep Playing";
  $("abandon-dialog").showModal();
});
$("abandon-cancel").addEventListener("click", () => {
  $("abandon-dialog").close();
  game.resume();
});
$("abandon-confirm").addEventListener("click", () => {
  $("abandon-dialog").close();
  startGame();
});

async function startGame() {
  const settings = readSettings();
  if (!settings) return;
  const button = $("start-game");
  button.disabled = true;
  button.dataset.waiting = game.state.boot.ready ? "" : "yes"; // render/boot.js adds how far
  button.textContent = game.state.boot.ready ? "Dealing…" : "Waiting for the engine…";
  game.render();
  await game.newGame(settings);
  button.disabled = false;
  button.dataset.waiting = "";
  button.textContent = "Start Game";
}

// ----- the game: taps, buttons, keys

const screen = $("game-screen");
// What began the latest tap (finger, pen or mouse): a click event need not say.
let pointerType = "mouse";
screen.addEventListener("pointerdown", (event) => (pointerType = event.pointerType), true);

screen.addEventListener("click", (event) => {
  const target = event.target;
  const handle = target.closest(".set-handle");
  if (handle) {
    game.chooseSet(Number(handle.closest(".set").dataset.set));
    return;
  }
  const gap = target.closest(".gap");
  if (gap) {
    const dest = { area: gap.dataset.drop, index: Number(gap.dataset.index) };
    if (dest.area === "table") dest.set = Number(gap.dataset.set);
    game.place(dest);
    return;
  }
  const tile = target.closest(".tile[data-id]");
  if (tile) {
    const id = Number(tile.dataset.id);
    const held = game.state.selected;
    const finger = pointerType === "touch" || pointerType === "pen";
    // Ctrl (Cmd), or Shift for every tile from the last one chosen, adds a tile to the
    // tiles chosen to move together (or takes it out); while tiles are chosen, so does a
    // finger's tap (a long press chose the first: drag.js).
    const adding = event.ctrlKey || event.metaKey || event.shiftKey;
    if (adding || (finger && event.detail > 0 && game.state.chosen.length)) {
      game.choose(id, { range: event.shiftKey });
      return;
    }
    // Holding a tile, a finger's or pen's tap (not a mouse click, not Enter: detail 0) on
    // another tile of a set puts the held tile beside it, on the side tapped, as a drop
    // there would: the insert markers between tiles are 12 px wide on a phone, and a tap
    // just off one picked up the tapped tile instead. A mouse hits a marker easily, and
    // its click picks the tile up. The held tile itself is let go by tapping it again.
    if (held !== null && id !== held && finger && event.detail > 0 && tile.closest(".set[data-set]")) {
      const spot = dropTarget(event.clientX, event.clientY);
      if (spot?.dest.area === "table") {
        game.place(spot.dest);
        return;
      }
    }
    game.select(id);
    return;
  }
  if (!game.holding()) return;
  // A tap on a set's free space puts the tiles held at its end.
  const set = target.closest(".set[data-set]");
  if (set) {
    const i = Number(set.dataset.set);
    game.place({ area: "table", set: i, index: game.state.table[i].length });
  } else if (target.closest("#rack")) {
    game.returnToRack();
  }
});

$("new-set").addEventListener("click", (event) => {
  event.stopPropagation();
  if (game.holding()) game.place({ area: "new-set" });
});
// A wheel over "+ New Set" (pinned over the view's corner, or in its row below) scrolls
// the sets, as it does anywhere else on the table.
$("new-set").addEventListener(
  "wheel",
  (event) => $("table-view").scrollBy(0, event.deltaY * (event.deltaMode === 1 ? 16 : 1)),
  { passive: true },
);
$("hand-over-ready").addEventListener("click", () => game.showRack());
$("confirm").addEventListener("click", () => game.confirm());
$("reset").addEventListener("click", () => game.resetTurn());
$("undo").addEventListener("click", () => game.undo());
$("draw").addEventListener("click", () => game.draw());
$("pool-button").addEventListener("click", () => game.draw());
$("hint").addEventListener("click", () => game.hint());
$("hint-step").addEventListener("click", () => game.hintStep());
$("return").addEventListener("click", (event) => {
  event.stopPropagation();
  game.returnToRack();
});
$("split").addEventListener("click", (event) => {
  event.stopPropagation();
  game.split();
});
$("sort-colour").addEventListener("click", () => game.sortRack("colour"));
$("sort-number").addEventListener("click", () => game.sortRack("number"));

$("log-toggle").addEventListener("click", () => game.showLog());
// The open log covers what lies under it (held sideways, the pool and the turn's buttons;
// wider, part of the table): the focus moving on to something it covers shuts it, so
// what has the focus is in sight. Tab went on to the hidden pool, and Enter drew a tile.
// Looked at a frame later, once the browser has scrolled the focused thing into view;
// covered means the log is what is drawn at its middle (a dialog above it is not).
document.addEventListener("focusin", (event) => {
  const target = event.target;
  if (!logShown(game.state) || $("log-box").contains(target)) return;
  requestAnimationFrame(() => {
    if (!logShown(game.state) || document.activeElement !== target) return;
    const r = target.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if ($("log-box").contains(top)) game.showLog(false);
  });
});
// A flight aims at fixed points of the viewport: a scroll or a new size lands them all.
for (const area of [$("table-view"), $("rack")]) area.addEventListener("scroll", landFlights, { passive: true });
addEventListener("resize", landFlights);

document.addEventListener("keydown", (event) => {
  if (document.querySelector("dialog[open]")) return;
  // On the start screen with a game in progress, Escape goes back to it.
  if (game.state.screen === "start" && event.key === "Escape" && !$("resume-bar").hidden) {
    event.preventDefault();
    game.resume();
    return;
  }
  if (game.state.screen !== "game") return;
  // Escape shuts the open log first (only one on show), then lets go of a picked-up tile.
  if (event.key === "Escape" && logShown(game.state)) game.showLog(false);
  else if (event.key === "Escape") game.deselect();
  const typing = event.target.closest?.("input, select, textarea");
  if (!typing && ((event.key === "z" && (event.ctrlKey || event.metaKey)) || (event.key === "u" && !event.ctrlKey))) {
    event.preventDefault();
    game.undo();
  }
  const onTile = event.target.closest?.(".tile[data-id]");
  // Space adds the focused tile to the tiles chosen to move together (or takes it out);
  // Shift+Space chooses its whole set, as the set's handle does. Not the button's own
  // click (on the key's release), which would pick the tile up alone.
  if (onTile && event.key === " " && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    const set = onTile.closest(".set[data-set]");
    if (event.shiftKey && set) game.chooseSet(Number(set.dataset.set));
    else game.choose(Number(onTile.dataset.id));
    return;
  }
  if (!typing && game.holding() && !event.ctrlKey && !event.metaKey && !event.altKey) {
    if (event.key === "n" || event.key === "N") (event.preventDefault(), game.place({ area: "new-set" }));
    if (event.key === "r" || event.key === "R") (event.preventDefault(), game.returnToRack());
    if (event.key === "s" || event.key === "S") (event.preventDefault(), game.split());
  }
  if (onTile && Number(onTile.dataset.id) === game.state.selected) {
    if (event.key === "ArrowLeft") (event.preventDefault(), game.nudge(-1));
    if (event.key === "ArrowRight") (event.preventDefault(), game.nudge(1));
  }
});

// Space on a tile chose it (above): its release is no click.
document.addEventListener("keyup", (event) => {
  if (event.key === " " && event.target.closest?.(".tile[data-id]")) event.preventDefault();
});

// The rack, the table and the bars of buttons are one Tab stop each, with the arrow keys
// inside; attached after the keys above, so a picked-up tile's Left and Right move it.
attachRoving(document);

// ----- drag and drop

// A tile drags the tiles held with it (or itself); a set's handle, its whole set.
const grab = (node) =>
  node.matches(".set-handle") ? game.setTiles(Number(node.closest(".set").dataset.set)) : game.grabbed(Number(node.dataset.id));
const drags = attachDrag(screen, $("drag-layer"), {
  grab,
  canDrag: (ids) => game.canDrag(ids),
  turn: () => `${game.state.view?.round}:${game.state.view?.turn}`,
  accepts: (ids, dest) => game.accepts(ids, dest),
  onDrop: (ids, dest) => game.drop(ids, dest),
  onRefused: (ids, dest) => game.drop(ids, dest), // says why, when it is the rack
  // A long press chooses a tile (a handle: its set) to move with others.
  onLongPress: (node) =>
    node.matches(".set-handle") ? game.chooseSet(Number(node.closest(".set").dataset.set)) : game.choose(Number(node.dataset.id), { keep: true }),
});
// Whose turn it is, as rendered (render.js, body[data-turn]): when the player's turn ends under a tile
// still held (the clock ran out), the tile is let go of at once.
new MutationObserver(() => drags.settle()).observe(document.body, { attributes: true, attributeFilter: ["data-turn"] });

// ----- dialogs

$("menu-new-game").addEventListener("click", () => {
  game.backToStart();
  showStats();
});
$("menu-resign").addEventListener("click", () => {
  // Resigning gives up this round only; in a single-round game that is the game.
  const v = game.state.view;
  const single = v?.rules?.target === 0;
  // With one opponent left, that opponent wins the round (RULES.md): nothing is played out.
  const others = v ? v.players.filter((p, i) => i !== v.me && !p.resigned) : [];
  const computers = others.every((p) => p.kind === "bot");
  $("resign-round").textContent =
    others.length === 1
      ? `${others[0].name} wins the round at once.`
      : computers
        ? "The computers play the round out."
        : "The others play the round on.";
  $("resign-after").textContent = single
    ? "This is a single-round game, so the game ends with this round."
    : "The game goes on with the next round, your score carried, unless a total reaches the target.";
  $("resign-dialog").showModal();
});
$("resign-cancel").addEventListener("click", () => $("resign-dialog").close());
$("resign-confirm").addEventListener("click", () => {
  $("resign-dialog").close();
  game.resign();
});
$("resume-game").addEventListener("click", () => game.resume());
// A long message's fade goes once it is scrolled to its end (and comes back up top).
$("message").addEventListener("scroll", (event) => markClipped(event.currentTarget), { passive: true });
$("stale-continue").addEventListener("click", () => game.continueHere());
$("stale-dialog").addEventListener("cancel", (event) => event.preventDefault()); // no way round it
// How To Play tells the rules of the game on screen: the one being played, or the one
// being set up on the start screen.
// The variants button beside the turn line opens it at its Variants; otherwise it opens
// at the top.
function openHowTo(section = null) {
  const v = game.state.view;
  const playing = game.state.screen === "game" && v;
  renderHowTo(playing ? v.rules : readRules(), !!playing);
  $("howto-dialog").showModal();
  const body = $("howto-dialog").querySelector(".howto-body");
  body.scrollTop = section ? $(section).offsetTop - body.offsetTop : 0;
}
$("howto-open").addEventListener("click", () => openHowTo());
for (const link of document.querySelectorAll(".howto-link")) {
  link.addEventListener("click", () => openHowTo(link.id === "rules-info" ? "howto-variants-title" : null));
}
$("howto-close").addEventListener("click", () => $("howto-dialog").close());
$("next-round").addEventListener("click", () => game.nextRound());
$("see-table").addEventListener("click", () => {
  game.seeTable();
  $("show-scores").focus();
});
$("show-scores").addEventListener("click", () => game.showScores());
$("new-game").addEventListener("click", () => {
  game.backToStart();
  showStats();
});

/** The statistics of one player name on this device: the one chosen, else the last
 *  to finish a round here. With more than one name, a choice of whose. */
function showStats() {
  const stats = loadStats();
  const names = statsNames(stats);
  const who = $("stats-who");
  const chosen = names.includes(who.value) ? who.value : stats.last;
  who.replaceChildren(...names.map((name) => new Option(name, name)));
  if (chosen !== null) who.value = chosen;
  $("stats-who-row").hidden = names.length < 2;
  const list = $("stats");
  list.replaceChildren();
  for (const [name, value] of statsRows(stats, chosen)) {
    const dt = document.createElement("dt");
    dt.textContent = name;
    const dd = document.createElement("dd");
    dd.textContent = String(value);
    list.append(dt, dd);
  }
}
$("stats-who").addEventListener("change", showStats);
// Asked first: one stray tap used to wipe every game counted on the device.
$("stats-reset").addEventListener("click", () => $("clear-stats-dialog").showModal());
$("clear-stats-cancel").addEventListener("click", () => $("clear-stats-dialog").close());
$("clear-stats-confirm").addEventListener("click", () => {
  $("clear-stats-dialog").close();
  clearStats();
  showStats();
});
showStats();
$("round-dialog").addEventListener("cancel", (event) => event.preventDefault());
// While a dialog the player opened is up (How To Play, from its button or the variants,
// Resign's question, ...), their turn clock stands still: it ran on under How To Play
// and the turn timed out. The round's screen and "Played in another tab" come of
// themselves, with no turn running. The game log is no dialog: the turn goes on under it.
{
  const own = ["round-dialog", "stale-dialog"];
  const dialogs = [...document.querySelectorAll("dialog")].filter((d) => !own.includes(d.id));
  const watcher = new MutationObserver(() => game.holdClock(dialogs.some((d) => d.open)));
  for (const d of dialogs) watcher.observe(d, { attributes: true, attributeFilter: ["open"] });
}

game.render();
game.restoreSaved();
performance.mark("ui-ready"); // the start screen answers from here on (benchmarks/web.py)

// ----- offline: the service worker caches this build once the engine is up (so its
// downloads never compete with the boot) and has put the files it booted from into the
// cache (engine.kept). A newer build waits until the player says.

let updating = false;
async function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.register(new URL("../sw.js", import.meta.url));
  const offer = (worker) => {
    if (!worker || !navigator.serviceWorker.controller) return; // first install: nothing to replace
    $("update-banner").hidden = false;
    $("update-now").onclick = () => {
      updating = true;
      worker.postMessage("update");
    };
  };
  offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => worker.state === "installed" && offer(worker));
  });
  // The first install also changes the controller (clients.claim): only an update the
  // player asked for reloads the page.
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (updating) location.reload();
  });
}
engine.ready
  .then(() => engine.kept)
  .then(() => registerServiceWorker())
  .catch((err) => console.warn("offline cache:", err));
