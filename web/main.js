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
import { clearStats, loadStats, statsRows } from "./stats.js";
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
  expert: "Plays as Hard does, but near the end of a two-player round holds tiles back when that wins more often, and watches an opponent close to going out.",
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
renderLevels();
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
    } else if (typeof value === "string" && [...(field.options ?? [])].some((o) => o.value === value)) {
      field.value = value;
    } else if (name === "delay" && /^\d{1,4}$/.test(value ?? "") && Number(value) <= MAX_DELAY_MS) {
      preselect(field, value, `${value} ms`); // a pace a link asked for (?delay=MS)
    }
  };
  put("opponents");
  renderLevels(); // as many level choices as opponents, then their levels
  for (const name of Object.keys(choices)) if (name !== "opponents") put(name);
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

function readSettings() {
  const data = new FormData($("start-form"));
  const n = Number(data.get("opponents"));
  const opponents = Array.from({ length: n }, (_, i) => ({ level: data.get(`level${i}`) }));
  const rules = readRules();
  const seed = data.get("seed");
  game.setDelay(Number(data.get("delay")));
  return { opponents, rules, seed: seed === "" || seed === null ? null : Number(seed), form: formChoices() };
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
  if (!game.inProgress()) return startGame();
  const v = game.state.view;
  const you = v?.players[v.me];
  const unrestored = !v && game.state.unrestored;
  $("abandon-where").textContent = v
    ? `It is round ${v.round}${you ? `, and you have ${count(you.score, "point")}` : ""}.`
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
  const button = $("start-game");
  button.disabled = true;
  button.dataset.waiting = game.state.boot.ready ? "" : "yes"; // render/boot.js adds how far
  button.textContent = game.state.boot.ready ? "Dealing…" : "Waiting for the engine…";
  game.render();
  await game.newGame(readSettings());
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
    // Holding a tile, a finger's or pen's tap (not a mouse click, not Enter: detail 0) on
    // another tile of a set puts the held tile beside it, on the side tapped, as a drop
    // there would: the insert markers between tiles are 12 px wide on a phone, and a tap
    // just off one picked up the tapped tile instead. A mouse hits a marker easily, and
    // its click picks the tile up. The held tile itself is let go by tapping it again.
    const finger = pointerType === "touch" || pointerType === "pen";
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
  const selected = game.state.selected;
  if (selected === null) return;
  // A tap on a set's free space puts the picked-up tile at its end.
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
  if (game.state.selected !== null) game.place({ area: "new-set" });
});
// A wheel over "+ New Set" (pinned over the view's corner, or in its row below) scrolls
// the sets, as it does anywhere else on the table.
$("new-set").addEventListener(
  "wheel",
  (event) => $("table-view").scrollBy(0, event.deltaY * (event.deltaMode === 1 ? 16 : 1)),
  { passive: true },
);
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
  if (!typing && game.state.selected !== null && !event.ctrlKey && !event.metaKey && !event.altKey) {
    if (event.key === "n" || event.key === "N") (event.preventDefault(), game.place({ area: "new-set" }));
    if (event.key === "r" || event.key === "R") (event.preventDefault(), game.returnToRack());
    if (event.key === "s" || event.key === "S") (event.preventDefault(), game.split());
  }
  const onTile = event.target.closest?.(".tile[data-id]");
  if (onTile && Number(onTile.dataset.id) === game.state.selected) {
    if (event.key === "ArrowLeft") (event.preventDefault(), game.nudge(-1));
    if (event.key === "ArrowRight") (event.preventDefault(), game.nudge(1));
  }
});

// The rack, the table and the bars of buttons are one Tab stop each, with the arrow keys
// inside; attached after the keys above, so a picked-up tile's Left and Right move it.
attachRoving(document);

// ----- drag and drop

const drags = attachDrag(screen, $("drag-layer"), {
  canDrag: (id) => game.canDrag(id),
  turn: () => `${game.state.view?.round}:${game.state.view?.turn}`,
  accepts: (id, dest) => game.accepts(id, dest),
  onDrop: (id, dest) => game.drop(id, dest),
  onRefused: (id, dest) => game.drop(id, dest), // says why, when it is the rack
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
  $("resign-round").textContent =
    others.length === 1 ? `${others[0].name} wins the round at once.` : "The computers play the round out.";
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

function showStats() {
  const list = $("stats");
  list.replaceChildren();
  for (const [name, value] of statsRows(loadStats())) {
    const dt = document.createElement("dt");
    dt.textContent = name;
    const dd = document.createElement("dd");
    dd.textContent = String(value);
    list.append(dt, dd);
  }
}
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
