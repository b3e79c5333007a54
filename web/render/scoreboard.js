// The scoreboard region, above the table: the players' cards, the turn line (and the
// move's read-out, which speaks in its place), the variants button and the turn clock.

import { isPerson, nameOf, shared } from "../seats.js";
import { isMyTurn } from "../state.js";
import { VARIANTS } from "../variants.js";
import { count } from "../words.js";
import { $, changed, el, setText } from "./dom.js";

/** The player whose turn is on show, and what they are doing: a computer's turn stays
 *  on show (its tiles revealed, then a pause) after the engine has moved on to the next
 *  player, and nobody's turn has begun while the who-starts draw is shown. */
function shownTurn(state) {
  const v = state.view;
  if (v.round_over || state.whoStarts) return null;
  if (state.showing) return state.showing;
  if (v.current === v.me) return { player: v.me, action: "mine" };
  // On a shared device, a person whose turn it is but who has not taken the device yet.
  if (isPerson(v, v.current)) return { player: v.current, action: "next" };
  return { player: v.current, action: "thinking" };
}

/** What a computer whose turn is on show is doing, said after its name ("Computer 2
 *  is thinking…", "… drew a tile"). */
function computerDoing(state, action) {
  if (action === "play") return state.pending.size ? "is playing…" : "played";
  return { thinking: "is thinking…", draw: "drew a tile", pass: "passed" }[action];
}

/** The same on the player's card, where the name stands above it ("thinking…"). */
function turnStatus(state, shown) {
  if (shown.action === "mine") return "your turn";
  if (shown.action === "next") return "to play";
  return computerDoing(state, shown.action)?.replace(/^is /, "") ?? "to play";
}

export function renderPlayers(state) {
  const v = state.view;
  const list = $("players");
  const shown = shownTurn(state);
  // A computer's rack goes down tile by tile as its play is shown, not all at once
  // before the first tile appears: the tiles of its rack still to be shown are counted.
  const showing = state.showing;
  const unshown = showing?.placed ? [...state.pending].filter((id) => showing.placed.has(id)).length : 0;
  const tiles = v.players.map((p, i) => p.rack_count + (i === showing?.player ? unshown : 0));
  // Rebuilt only when something on the cards changes (most renders change nothing there).
  if (!changed("players", JSON.stringify([v.me, shown?.player, shown?.action, state.pending.size > 0, tiles, v.players]))) return;
  list.replaceChildren();
  v.players.forEach((p, i) => {
    const current = shown?.player === i;
    const who = nameOf(v, i);
    const level = p.kind === "bot" && p.level ? p.level[0].toUpperCase() + p.level.slice(1) : null;
    const status = p.resigned ? "resigned" : current ? turnStatus(state, shown) : "";
    list.append(
      // A computer thinking: its card's ring breathes (a long search on a slow phone
      // looked like a hang behind the still words "is thinking…").
      el("li", { class: `player${current ? " current" : ""}${current && shown.action === "thinking" ? " thinking" : ""}${i === v.me ? " me" : ""}`, "data-player": String(i) }, [
        el("span", { class: "player-name", text: who }),
        level ? el("span", { class: "player-level", text: level }) : null,
        el("span", { class: "player-tiles", text: count(tiles[i], "tile"), title: "tiles on rack" }),
        el("span", { class: "player-score", text: count(p.score, "pt", "pts") }),
        status ? el("span", { class: "player-status", text: status }) : null,
      ]),
    );
  });
}

/** The turn line ("Your turn · Opening: 21 of 30", "Computer 1 is thinking…"), read out
 *  as it changes, and the move's read-out (#move-news). While the computers play, the
 *  message tells each turn: the turn line's "Computer 1 is thinking…", "… is playing…"
 *  would be read out beside it, so it is not read then. Nor is the opening's total when
 *  a move's read-out just said it ("…: run, 21 points. Opening: 21 of 30."): one
 *  announcement for the move. (Undo's news says it too; after a hint's step the turn
 *  line still reads it.) */
export function renderTurnLine(state) {
  const turnLine = $("turn-info");
  const turn = turnText(state);
  const head = (line) => line.split(" · ")[0];
  const sameTurn = head(turnLine.textContent) === head(turn);
  const quiet = state.showing || (state.newsHasTotal && isMyTurn(state) && sameTurn);
  state.newsHasTotal = false;
  turnLine.setAttribute("aria-live", quiet ? "off" : "polite");
  setText(turnLine, turn); // a live region: written only when it changes
  setText($("move-news"), state.news);
}

function turnText(state) {
  const v = state.view;
  if (v.round_over) return v.match_over ? "Game over" : "Round complete";
  const shown = shownTurn(state);
  if (!shown) return "Who starts? Each player draws a tile";
  if (shown.action === "next") return `${v.players[shown.player].name}'s turn`;
  if (shown.action !== "mine") return `${v.players[shown.player].name} ${computerDoing(state, shown.action)}`;
  // Last call: once the engine says it has begun each player has exactly one more turn,
  // so this is the player's last of the round (the rule is the engine's; this only names it).
  let text = v.last_call ? "Your last turn" : "Your turn";
  if (shared(v)) text += `, ${v.players[v.me].name}`; // the device passes round: whose
  if (!v.opened) {
    const total = state.check?.opening_value ?? 0;
    // Eased (the engine's threshold, lower than the game's opening): said, with from what.
    const eased = v.rules?.opening && v.threshold < v.rules.opening ? ` (eased from ${v.rules.opening})` : "";
    // "39 of 30" kept on one line (non-breaking spaces): a narrow turn line wrapped
    // "30" alone onto the next.
    text += ` · Opening: ${total}\u00a0of\u00a0${v.threshold}${eased.replaceAll(" ", "\u00a0")}`;
  }
  return text;
}

/** The rules of the game in hand that are not the standard ones (the variants, a 50
 *  opening, a 25-point joker), beside the turn line: a tap opens How To Play, which
 *  tells them in full. Hidden under the standard rules. */
export function renderRulesInfo(state) {
  const r = state.view.rules ?? {};
  const on = [
    r.opening && r.opening !== 30 ? `opening ${r.opening}` : null,
    r.joker_penalty && r.joker_penalty !== 30 ? `joker costs ${r.joker_penalty}` : null,
    ...VARIANTS.filter((v) => r[v.flag]).map((v) => v.short),
  ].filter(Boolean);
  const button = $("rules-info");
  button.hidden = !on.length;
  // A game with a turn clock keeps room for it beside the turn line (layout only).
  button.parentElement.classList.toggle("timed", !!r.turn_seconds);
  $("rules-list").textContent = on.join(" · ");
  $("rules-count").textContent = count(on.length, "variant");
  // The tooltip says what the description says (its text is the describing element's).
  button.title = `Variants: ${on.join(" · ")}. ${$("rules-opens").textContent}.`;
}

/** The turn clock's countdown ("1:05"), low for its last ten seconds; hidden while no
 *  clock runs. Also drawn alone at each tick of game/clock.js. */
export function renderClock(state) {
  const clock = $("clock");
  if (!state.clock) {
    clock.hidden = true;
    return;
  }
  const ms = state.clock.left ?? state.clock.deadline - Date.now(); // left: standing still
  const left = Math.max(0, Math.ceil(ms / 1000));
  clock.hidden = false;
  clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  clock.classList.toggle("low", left <= 10);
}
