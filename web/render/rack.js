// The rack region: the player's tiles in their own order, with the gaps of rack tiles
// held (where they may go back to).

import { fromRack } from "../board.js";
import { handingOver } from "../seats.js";
import { held, isChoosing } from "../selection.js";
import { isMyTurn } from "../state.js";
import { $, setChildren, setHidden } from "./dom.js";
import { between, gap, tileNode } from "./tile-elements.js";

export function renderRack(state) {
  const rack = $("rack");
  setHidden(rack, handingOver(state.view)); // the hand-over in its place (hand-over.js)
  const mine = isMyTurn(state);
  const holding = new Set(held(state));
  const gaps = mine && holding.size > 0 && [...holding].every((id) => fromRack(state, id));
  const children = [];
  state.rack.forEach((id, j) => {
    if (gaps) children.push(gap({ area: "rack", index: j }, `Put here: rack, ${between(state, state.rack, j)}`));
    children.push(
      tileNode(state.tiles.get(id), {
        selected: holding.has(id),
        chosen: isChoosing(state) && holding.has(id),
        hint: state.hintIds.has(id),
        highlight: state.highlight.has(id) || state.drawn.has(id),
      }),
    );
  });
  if (gaps) children.push(gap({ area: "rack", index: state.rack.length }, `Put here: rack, ${between(state, state.rack, state.rack.length)}`));
  setChildren(rack, children);
  rack.classList.toggle("armed", gaps);
}
