// The round's screen (Round Complete, Game Over: how the round ended, the scores, the
// tiles left on the racks) and the dialog shown when another tab took the game on.

import { nameOf, shared } from "../seats.js";
import { count, minus } from "../words.js";
import { $, el } from "./dom.js";
import { tileElement } from "./tile-elements.js";

/** How the round ended and where the match stands, as the score screen says it ("You
 *  went out and won the round! Round 2 of a game to 200 points: ..."). */
export function roundReason(v) {
  const out = v.outcome;
  const winner = out.winner === null ? null : v.players[out.winner].name;
  // "You" only for the one person of a game: on a shared device everyone is named.
  const youWon = out.winner === v.me && !shared(v);
  // Under "last call" the round ended once every player had one more turn, played or
  // not ("nobody could play" was said after a computer had laid tiles in its last turn).
  const dry = v.rules?.last_call ? "The pool ran dry and every player had a last turn" : "The pool ran dry";
  const stuck = v.rules?.last_call ? dry : `${dry} and nobody could play`;
  const reasons = {
    // What happened in the round is told in the past ("went out and won"); the match,
    // still on show, in the present ("You win the game").
    went_out: youWon ? "You went out and won the round!" : `${winner} went out and won the round.`,
    blocked: winner === null ? `${stuck}: no winner.` : `${dry}; ${youWon ? "you" : winner} had the lowest rack and won.`,
    resigned: winner === null ? "The round ended by resignation." : `${youWon ? "You" : winner} won the round by resignation.`,
  };
  let reason = reasons[out.reason] ?? "";
  const target = v.rules?.target ?? 0;
  if (v.match_over && v.winner !== null) {
    // The engine names the match winner (a tie on totals goes to the earlier seat).
    const champion = v.winner === v.me && !shared(v) ? "You win" : `${v.players[v.winner].name} wins`;
    reason += target
      ? ` ${champion} the game with ${count(out.totals[v.winner], "point")} (first to ${target}), after ${count(v.round, "round")}.`
      : out.winner !== null
        ? ` ${champion} the game.`
        : // Nobody won the round (blocked, "no winner"): the game goes to the highest total.
          ` ${champion} the game with the highest total, ${count(out.totals[v.winner], "point")}.`;
  } else if (target) {
    reason += ` Round ${v.round} of a game to ${target} points: the totals go on to the next round.`;
  }
  return reason;
}

export function renderRoundDialog(state) {
  const dialog = $("round-dialog");
  const v = state.view;
  if (state.dialog !== "round" || !v.outcome) {
    if (dialog.open) dialog.close();
    if (!v.round_over) forgetRacks();
    return;
  }
  const out = v.outcome;
  $("round-title").textContent = v.match_over ? "Game Over" : "Round Complete";
  $("round-reason").textContent = roundReason(v);
  renderLeftTiles(state);
  const body = $("round-scores");
  body.replaceChildren();
  const order = v.players.map((_, i) => i);
  if (v.match_over) order.sort((a, b) => out.totals[b] - out.totals[a]);
  for (const i of order) {
    const p = v.players[i];
    const sign = (n) => (n > 0 ? `+${n}` : minus(n));
    body.append(
      el("tr", { class: i === out.winner ? "winner" : "" }, [
        el("th", { scope: "row" }, [p.name, p.resigned ? el("span", { class: "resigned", text: " (resigned)" }) : null]),
        el("td", { text: String(out.rack_values[i]) }),
        el("td", { text: sign(out.scores[i]) }),
        el("td", { text: minus(out.totals[i]) }),
      ]),
    );
  }
  $("next-round").hidden = v.match_over;
  $("new-game").classList.toggle("primary", v.match_over);
  if (!dialog.open) {
    dialog.showModal();
    (v.match_over ? $("new-game") : $("next-round")).focus();
  }
}

/** Each player's tiles left at the end of the round (the engine shows every rack once
 *  the round is over), smallest first, jokers last. */
function renderLeftTiles(state) {
  const v = state.view;
  const racks = v.outcome?.racks ?? [];
  const key = (t) => (t.joker ? 999 : t.number * 10 + "RBYK".indexOf(t.code[0]));
  const items = v.players.flatMap((p, i) => {
    const tiles = (racks[i] ?? []).slice().sort((a, b) => key(a) - key(b));
    if (!tiles.length) return [];
    const names = tiles.map((t) => t.label).join(", ");
    return [
      el("li", {}, [
        el("span", { class: "left-name", text: nameOf(v, i) }),
        el("span", { class: "left-tiles", role: "img", "aria-label": names }, tiles.map((t) => tileElement(t))),
      ]),
    ];
  });
  $("round-left-list").replaceChildren(...items);
  $("round-left").hidden = !items.length;
}

/** Another tab played on: nothing here may be touched until the player takes it up. */
export function renderStaleDialog(state) {
  const stale = $("stale-dialog");
  if (state.stale && !stale.open) stale.showModal();
  else if (!state.stale && stale.open) stale.close();
}

/** Off the game screen, no round's screen. */
export function closeRoundDialog() {
  if ($("round-dialog").open) $("round-dialog").close();
}

/** The round's racks, shown while its screen is open, are not kept after it: their tiles
 *  are dealt again next round (and on a shared device nothing of a rack stays unseen). */
function forgetRacks() {
  $("round-left-list").replaceChildren();
}

/** Is the round's screen open (the focus then stays in it)? */
export const roundDialogOpen = () => $("round-dialog").open;
