// The hand-over, in place of the turn's buttons and the rack while the device goes from
// one person to the next (several people at one device): whom to pass it to, and the
// button they tap when ready, which shows their rack. The table above stays in view, and
// the computers' turns meanwhile are played out on it. Until it is that person's turn
// the button says so and does nothing (aria-disabled: it keeps the focus).

import { handingOver } from "../seats.js";
import { $, setAttr, setHidden, setText } from "./dom.js";

export function renderHandOver(state) {
  const v = state.view;
  const on = handingOver(v);
  setHidden($("hand-over"), !on);
  if (!on) return;
  const name = v.players[v.hand_over].name;
  // Not yet while the who-starts draw is on show, a computer before them plays, or
  // their view is being asked for.
  const playing = state.showing?.player ?? (v.current === v.hand_over ? null : v.current);
  const before = state.whoStarts ? "Who starts is being drawn" : playing === null ? null : `${v.players[playing].name} is playing`;
  const waiting = before !== null || state.busy;
  setText($("hand-over-title"), `Pass to ${name}`);
  setText($("hand-over-note"), before ? `${before}; then it is ${name}'s turn.` : `${name}, tap when ready. Every rack stays hidden until then.`);
  const button = $("hand-over-ready");
  setText(button, `Show ${name}'s Rack`);
  setAttr(button, "aria-disabled", waiting ? "true" : null);
}
