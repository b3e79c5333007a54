// Tiles seen to move: a computer's play flying in tile by tile, a drawn tile flying from
// the pool, a tile moved by a tap or a key sliding to its place, a computer's draw. Each
// flight is a copy of the tile over the page, removed when it lands: decoration only,
// the words and the highlight say the same. The tiles' own nodes are table.js's and
// rack.js's; a flight only hides one until its copy lands.

import { $, el } from "./dom.js";

/** Does the player prefer less motion? (Then nothing flies.) */
export const reducedMotion = () => globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

/** A computer's draw, shown: a tile back flies from the pool to that player's chip.
 *  Decoration only (inline styles, removed when done); the words say the same. */
export function showDraw(player, ms) {
  const from = document.querySelector("#pool-button .pool-stack");
  const to = document.querySelector(`#players [data-player="${player}"] .player-tiles`);
  if (!from?.animate || !to) return;
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  if (!a.width || !b.width) return;
  const flyer = from.cloneNode(false);
  flyer.setAttribute("aria-hidden", "true");
  pinned(flyer, a);
  const [dx, dy] = shift(a, b);
  const flight = flyer.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0.3 }],
    { duration: ms, easing: "ease-in" },
  );
  flight.finished.finally(() => flyer.remove()).catch(() => {});
}

/** Where each of these tiles is now, on the table or the rack, by id (boxes in the
 *  viewport): where a move takes them from (``flyIn``, ``slideFrom``). */
export function tileSpots(ids) {
  const spots = new Map();
  for (const id of ids) {
    const node = tileAt(id);
    // A tile still flying is where its copy is, not where it will land.
    const box = node && (flights.get(node)?.flyer ?? node).getBoundingClientRect();
    if (box?.width) spots.set(id, box);
  }
  return spots;
}

/** The tiles the player just drew fly from the pool to their places on the rack. */
export function flyFromPool(ids, ms) {
  const box = document.querySelector("#pool-button .pool-stack")?.getBoundingClientRect();
  if (!box?.width) return;
  const from = { left: box.left, top: box.top, width: box.width, height: box.height, small: true };
  for (const id of ids) flyIn(id, from, ms);
}

const tileAt = (id) => document.querySelector(`#sets .tile[data-id="${id}"], #rack .tile[data-id="${id}"]`);

// Where a tile is seen to fly: inside the table's or the rack's box (the viewport's
// boxes of the two, measured once for a batch of flights).
function inSight() {
  const views = [$("table-view"), $("rack")].map((area) => area.getBoundingClientRect());
  return (box) => {
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    return views.some((v) => x >= v.left && x <= v.right && y >= v.top && y <= v.bottom);
  };
}

/** A tile moved for the player to watch (a computer's play, a hint's step, a draw): a
 *  copy of it flies to its place from where it was (``from``, a box; ``from.small`` for
 *  the pool) or, new from a computer's rack, from that player's card, and the tile shows
 *  once it lands. A tile going to or coming from a place scrolled out of the table's or
 *  the rack's view just shows, as does one that did not move. */
export function flyIn(id, from, ms, player = null) {
  const node = tileAt(id);
  const card = player === null ? null : document.querySelector(`#players [data-player="${player}"]`);
  const start = from ?? card?.getBoundingClientRect();
  if (!node?.animate || !start?.width) return;
  // Its box as it will stand: without the last of the "pending" look (lifted, smaller).
  node.style.transition = "none";
  const to = node.getBoundingClientRect();
  const seen = inSight();
  const small = !from || from.small; // from a card or the pool: as small as they draw it
  if (to.width && seen(to) && (small || seen(from)) && launch(node, id, start, to, ms, small)) return;
  land(node);
}

/** After a change the player asked for (a tap, a key, Undo, Reset Turn, a sort): every
 *  tile of ``spots`` (``tileSpots`` before the change) that moved slides from where it was
 *  to where it is, the tiles beside it too, except ``still`` (the dragged tiles, an id or
 *  a list, already where the pointer let them go). Tiles jumped: the eye lost which
 *  tile went where. */
export function slideFrom(spots, ms, still = null) {
  const seen = inSight();
  const moves = [];
  const dragged = [still].flat();
  for (const [id, from] of spots) {
    const node = dragged.includes(id) ? null : tileAt(id);
    const to = node?.getBoundingClientRect();
    if (to?.width && seen(to) && seen(from)) moves.push([node, id, from, to]);
  }
  for (const [node, id, from, to] of moves) launch(node, id, from, to, ms, false);
}

// A tile's node: the flight under way to it ({flight, flyer}); and every flight under way.
const flights = new WeakMap();
const flying = new Set();

/** How far the middle of box ``b`` is from the middle of box ``a``: [dx, dy]. */
function shift(a, b) {
  return [b.left + b.width / 2 - (a.left + a.width / 2), b.top + b.height / 2 - (a.top + a.height / 2)];
}

/** A copy put in the page fixed over ``box`` (a flight's or a draw's), above the rest. */
function pinned(copy, box) {
  Object.assign(copy.style, {
    position: "fixed", left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`,
    height: `${box.height}px`, margin: "0", zIndex: "40", pointerEvents: "none",
  });
  document.body.append(copy);
}

/** Every flight under way ends at once, each tile shown in its place: the table or the
 *  rack scrolled, the window changed size, or the game changed (a flight aims at fixed
 *  points of the viewport, and a new game re-uses tile nodes). */
export function landFlights() {
  for (const flight of [...flying]) flight.finish();
}

/** A copy of the tile, fixed to the viewport (so it is not cut off at the table's edge),
 *  flies from ``from`` to ``to`` while the tile itself stays unseen in its place (no
 *  fade: its transitions are off until it lands). Decoration only (inline styles,
 *  removed when done): the words and the highlight say the same. False when there is
 *  nothing to fly (it did not move). */
function launch(node, id, from, to, ms, small) {
  const [dx, dy] = shift(to, from); // from where it lands back to where it starts
  if (Math.hypot(dx, dy) < 2 || !node.animate) return false;
  flights.get(node)?.flight.cancel(); // moved again mid-flight: on from where its copy was
  // A picture of the tile, not a second button: its faces only, hidden from screen readers.
  const flyer = el("span", { class: node.className, "aria-hidden": "true" }, [...node.childNodes].map((c) => c.cloneNode(true)));
  flyer.classList.remove("pending", "selected");
  flyer.classList.add("flyer");
  flyer.dataset.flight = String(id);
  flyer.style.setProperty("--tile-w", `${to.width}px`);
  flyer.style.setProperty("--tile-h", `${to.height}px`);
  flyer.style.transition = "none";
  pinned(flyer, to);
  node.style.transition = "none";
  node.style.opacity = "0";
  const flight = flyer.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${small ? 0.6 : 1})`, opacity: small ? 0.5 : 1 }, { transform: "none", opacity: 1 }],
    { duration: ms, easing: "cubic-bezier(0.25, 0.7, 0.35, 1)" },
  );
  flights.set(node, { flight, flyer });
  flying.add(flight);
  // The focused tile's ring goes with its copy (the tile itself is unseen, ring and all):
  // checked again after the render that moved it, which puts the focus back on it.
  const ring = () => flyer.classList.toggle("focused", node.matches(":focus-visible"));
  ring();
  requestAnimationFrame(ring);
  flight.finished
    .catch(() => {})
    .finally(() => {
      flyer.remove();
      flying.delete(flight);
      if (flights.get(node)?.flight !== flight) return; // flying again
      flights.delete(node);
      land(node);
    });
  return true;
}

function land(node) {
  node.style.opacity = "";
  // Its transitions back once it shows (not while a newer flight keeps it unseen).
  requestAnimationFrame(() => flights.has(node) || (node.style.transition = ""));
}
