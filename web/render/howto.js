// The How To Play dialog's rules, told for the game being played or the one being set
// up on the start screen (main.js opens it).

import { VARIANTS } from "../variants.js";
import { $, el } from "./dom.js";

/** How To Play, told for one set of rules: the current game's (`current`) or the one
 *  being set up on the start screen. */
export function renderHowTo(rules, current) {
  const r = rules ?? {};
  $("howto-runs").textContent = r.wrap_runs
    ? "Here runs may wrap from 13 to 1: 12 13 1 2 is a run (1 still counts 1)."
    : "1 is always low; 13 is the top.";
  const opening = `${r.opening ?? 30} points`;
  $("howto-opening").textContent = r.easing_opening
    ? `${opening} at first, then 5 less after every 2 of your turns without opening, never below 10; the header shows what you need now`
    : opening;
  $("howto-joker").textContent = String(r.joker_penalty ?? 30);
  // How a round that nobody went out of is scored (RULES.md), and when it ends.
  const scored = r.no_winner_when_blocked
    ? "nobody wins: everyone loses the value of their own rack."
    : "the lowest rack wins: each other player loses the difference between their rack's value and the lowest, and the winner gains the sum of those differences.";
  $("howto-blocked").textContent = r.last_call
    ? `Once the pool is empty, every player has one last turn; if nobody has gone out by then, ${scored}`
    : `If the pool runs dry and nobody can play, ${scored}`;
  $("howto-target").textContent = r.target === 0
    ? "This is a single-round game: the round decides it."
    : `Rounds go on until someone reaches ${r.target ?? 200} points; the highest total wins the game.`;
  $("howto-variants-intro").textContent = current
    ? "Chosen on the New Game screen. In this game:"
    : "Chosen on the New Game screen. For the game you are setting up:";
  // The two rules with a choice of value come first, then the variants to tick: the
  // Variants button beside the turn line names an opening of 50 or a joker at 25 too.
  const opens = r.opening ?? 30;
  const costs = r.joker_penalty ?? 30;
  $("howto-variants").replaceChildren(
    el("li", {}, [
      el("b", { text: "Opening meld" }),
      ` (${opens} points${opens === 30 ? ", the standard" : "; the standard is 30"}): the least your first play must total, from your own rack.`,
    ]),
    el("li", {}, [
      el("b", { text: "Joker left on a rack" }),
      ` (costs ${costs}${costs === 30 ? ", the standard" : "; the standard is 30"}): what a joker still on your rack counts against you when the round ends.`,
    ]),
    ...VARIANTS.map((v) =>
      el("li", {}, [el("b", { text: v.name }), ` (${r[v.flag] ? "on" : "off"}): ${v.about}`]),
    ),
  );
}
