// Drag-and-drop with pointer events, so mouse, pen and touch behave alike: a tile, the
// tiles held with it, or a whole set by its handle. A press that moves less than a few
// pixels is a tap and falls through to the click handler; a finger or pen held still
// on a tile is a long press (choosing it to move with others).

const THRESHOLD = 6;
// Held this close to the top or bottom edge of a scrolling area (the table's view), a dragged
// tile scrolls it, faster the deeper in; a little beyond the edge counts too. Not over
// another place to drop ("+ New Set", below the table's view or over its corner).
const EDGE = 56;
const OUTSIDE = 24;
const MAX_SPEED = 14; // px a frame
// Only held there: no scrolling until the tile has stayed within HOLD_PX of one spot
// for DWELL_MS, then up to full speed over RAMP_MS. A tile carried up from the rack
// crosses the table's bottom edge on its way to a set, and the table scrolled under it
// as it passed (at 1280x800, 0 to 176 px by the time it reached a set 93 px clear of
// the edge: it went into another set); held sideways, the rack lies along that edge.
const DWELL_MS = 300;
const RAMP_MS = 600;
const HOLD_PX = 16;
// On a touch screen the table's tiles cover most of it, and a tile takes no native
// panning (touch-action: none, for dragging). A finger that sets off up or down from a
// table tile within this many ms scrolls the table; held still longer, it drags.
const HOLD_MS = 300;
// The ghost floats this far above the pointer, so neither it nor a finger hides the
// insert marker under the pointer.
const LIFT = { mouse: 10, pen: 14, touch: 28 };
// A finger or pen held this long on a tile without moving chooses it (hooks.onLongPress).
const LONG_PRESS_MS = 500;
// What a press can drag: a tile, or a set's handle (its whole set).
const GRIPS = ".tile[data-id], .set-handle";

/** The vertically scrolling area a drag at (x, y) should scroll, and how fast; ``under``
 *  is the place to drop at (x, y), if any (dropTarget's zone). */
function edgeScroll(areas, x, y, under) {
  for (const area of areas) {
    if (area.scrollHeight <= area.clientHeight + 1) continue;
    const r = area.getBoundingClientRect();
    if (x < r.left || x > r.right) continue;
    if (under && !area.contains(under)) continue; // over another place to drop
    const edge = Math.min(EDGE, r.height / 4);
    const top = y - r.top;
    const bottom = r.bottom - y;
    if (top >= -OUTSIDE && top < edge && area.scrollTop > 0) {
      return { area, speed: -MAX_SPEED * Math.min(1, (edge - top) / edge) };
    }
    if (bottom >= -OUTSIDE && bottom < edge && area.scrollTop + area.clientHeight < area.scrollHeight - 1) {
      return { area, speed: MAX_SPEED * Math.min(1, (edge - bottom) / edge) };
    }
  }
  return null;
}

/** Where a drop at (x, y) would put a tile: a destination for board.moveTile, or null. */
export function dropTarget(x, y) {
  const hit = document.elementFromPoint(x, y);
  const zone = hit?.closest("[data-drop]");
  if (!zone) return null;
  const area = zone.dataset.drop;
  if (area === "new-set") return { dest: { area: "new-set" }, zone, mark: null };
  if (zone.classList.contains("gap")) {
    const dest = { area, index: Number(zone.dataset.index) };
    if (area === "table") dest.set = Number(zone.dataset.set);
    return { dest, zone, mark: null };
  }
  const tiles = [...zone.querySelectorAll(".tile")];
  let best = null;
  tiles.forEach((tile, index) => {
    const r = tile.getBoundingClientRect();
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    const d = Math.abs(x - cx) + 3 * Math.max(0, Math.abs(y - cy) - r.height / 2);
    if (!best || d < best.d) best = { d, index, tile, after: x > cx };
  });
  const index = best ? best.index + (best.after ? 1 : 0) : 0;
  const dest = area === "table" ? { area, set: Number(zone.dataset.set), index } : { area, index };
  return { dest, zone, mark: best ? { tile: best.tile, after: best.after } : null };
}

/**
 * Watch `root` for tile drags.
 * hooks.grab(element) -> the tile ids a drag of that tile or handle takes, in order;
 * hooks.canDrag(ids) -> bool; hooks.onDrop(ids, dest); hooks.accepts(ids, dest) -> bool;
 * hooks.onLongPress(element), a finger or pen held still on it;
 * hooks.turn() -> a key of the turn in play: a drag held past the end of its turn (the
 * clock ran out) is dropped, never carried into a later turn.
 */
export function attachDrag(root, layer, hooks) {
  let drag = null;
  let swallowClick = false;
  // The button is still down after its drag was cancelled (Esc, or the turn ended under
  // it): its click is no tap.
  let cancelledHeld = false;
  // The tile a long press chose: the click its release may send on it (late, once a
  // touch's gesture is read, or not at all) is no tap. Forgotten at the next press.
  let longPressed = null;
  let pan = null; // a touch on a table tile that may turn into scrolling the table

  /** The click the browser sends after this release is no tap. */
  function swallowNextClick() {
    swallowClick = true;
    setTimeout(() => (swallowClick = false), 0);
  }

  function clearMarks() {
    for (const n of root.querySelectorAll(".drop-zone, .insert-before, .insert-after")) {
      n.classList.remove("drop-zone", "insert-before", "insert-after");
    }
  }

  /** Marks where ``target`` (the place under the pointer, hit-tested after each move and
   *  each scroll) would take the tile, and keeps its zone for edge scrolling. */
  function mark(target) {
    drag.zone = target?.zone ?? null;
    clearMarks();
    if (!target || !hooks.accepts(drag.ids, target.dest)) return;
    target.zone.classList.add("drop-zone");
    if (target.mark) target.mark.tile.classList.add(target.mark.after ? "insert-after" : "insert-before");
  }

  function begin(event) {
    // Taken now, not at the press: a long press may have chosen the tile meanwhile.
    drag.ids = hooks.grab(drag.source);
    drag.tiles = drag.ids.map((id) => root.querySelector(`.tile[data-id="${id}"]`)).filter(Boolean);
    if (!drag.tiles.length || !hooks.canDrag(drag.ids)) return false;
    const boxes = drag.tiles.map((tile) => tile.getBoundingClientRect());
    // The pointer holds the tile pressed (a handle: the set's first tile), the others
    // beside it as they will land.
    const at = Math.max(0, drag.tiles.indexOf(drag.source));
    drag.dx = boxes.slice(0, at).reduce((x, b) => x + b.width + 3, boxes[at].width / 2);
    drag.dy = boxes[at].height + (LIFT[event.pointerType] ?? LIFT.mouse);
    const ghosts = drag.tiles.map((tile, k) => {
      const ghost = tile.cloneNode(true);
      // Not a flight's inline look (a tile picked up while it flies is unseen in its place).
      ghost.style.removeProperty("opacity");
      ghost.style.removeProperty("transition");
      ghost.classList.add("drag-ghost"); // not "ghost": that is the outlined button style
      ghost.classList.remove("selected", "chosen", "dragging");
      ghost.removeAttribute("data-key");
      ghost.style.width = `${boxes[k].width}px`;
      ghost.style.height = `${boxes[k].height}px`;
      return ghost;
    });
    const carried = ghosts.length === 1 ? ghosts[0] : document.createElement("div");
    if (ghosts.length > 1) {
      carried.className = "drag-ghost drag-group";
      carried.append(...ghosts);
    }
    layer.replaceChildren(carried);
    drag.ghost = carried;
    for (const tile of drag.tiles) tile.classList.add("dragging");
    document.body.classList.add("is-dragging");
    drag.active = true;
    return true;
  }

  function move(event) {
    drag.px = event.clientX;
    drag.py = event.clientY;
    drag.ghost.style.transform = `translate(${event.clientX - drag.dx}px, ${event.clientY - drag.dy}px)`;
    mark(dropTarget(event.clientX, event.clientY));
    const edge = edgeScroll(scrollAreas(), drag.px, drag.py, drag.zone);
    // Since when (and where) the pointer has been held at this edge (of this area, this
    // way): moving on before the dwell is over starts it again.
    const e = drag.edge;
    const t = performance.now(); // the clock of scrollStep's frames
    const moved = e && t - e.since < DWELL_MS && Math.hypot(drag.px - e.x, drag.py - e.y) > HOLD_PX;
    if (!edge) drag.edge = null;
    else if (e?.area !== edge.area || e.down !== edge.speed > 0 || moved) {
      drag.edge = { area: edge.area, down: edge.speed > 0, since: t, x: drag.px, y: drag.py };
    }
    if (!drag.scrolling && edge) drag.scrolling = requestAnimationFrame(scrollStep);
  }

  function scrollAreas() {
    return [...root.querySelectorAll(".table-view, .rack")];
  }

  // One frame of edge scrolling; the drop marks follow what slid under the pointer.
  function scrollStep(now) {
    if (!drag?.active) return;
    // The zone last hit-tested: nothing under a still pointer moves but this scrolling.
    const s = edgeScroll(scrollAreas(), drag.px, drag.py, drag.zone);
    if (!s || !drag.edge) {
      drag.scrolling = 0;
      return;
    }
    const held = Math.min(1, Math.max(0, (now - drag.edge.since - DWELL_MS) / RAMP_MS));
    if (held > 0) {
      const before = s.area.scrollTop;
      s.area.scrollTop += s.speed * held;
      if (s.area.scrollTop !== before) mark(dropTarget(drag.px, drag.py));
    }
    drag.scrolling = requestAnimationFrame(scrollStep);
  }

  function end(event, cancelled) {
    const d = drag;
    drag = null;
    if (d.scrolling) cancelAnimationFrame(d.scrolling);
    clearMarks();
    layer.replaceChildren();
    document.body.classList.remove("is-dragging");
    for (const tile of d.tiles ?? []) tile.classList.remove("dragging");
    if (!d.active) {
      if (d.longPressed) longPressed = d.source;
      return;
    }
    swallowNextClick();
    if (cancelled || !hooks.canDrag(d.ids) || d.turn !== hooks.turn?.()) return;
    const target = dropTarget(event.clientX, event.clientY);
    if (target && hooks.accepts(d.ids, target.dest)) hooks.onDrop(d.ids, target.dest);
    else if (target) hooks.onRefused?.(d.ids, target.dest);
  }

  /** Is the turn the tile was pressed in over (the clock ran out, the computers play)? */
  function turnOver() {
    return drag.turn !== hooks.turn?.() || !hooks.canDrag(drag.ids ?? hooks.grab(drag.source));
  }

  /** The tile pressed or dragged is let go of, where it was (Esc, or its turn is over);
   *  the button's release that follows is no tap. */
  function letGo() {
    clearTimeout(drag.longPress);
    if (drag.active) end(null, true);
    else drag = null;
    cancelledHeld = true;
  }

  root.addEventListener("pointerdown", (event) => {
    cancelledHeld = false;
    longPressed = null;
    if (drag || event.button > 0) return;
    const source = event.target.closest(GRIPS);
    if (!source || !root.contains(source)) return;
    const area = event.pointerType === "touch" ? source.closest(".table-view") : null;
    const scrolls = area && area.scrollHeight > area.clientHeight + 1;
    pan = scrolls ? { pointer: event.pointerId, x: event.clientX, y: event.clientY, t: event.timeStamp } : null;
    if (pan) Object.assign(pan, { area, top: area.scrollTop, active: false });
    const ids = hooks.grab(source);
    if (!ids.length || !hooks.canDrag(ids)) return;
    drag = { source, x: event.clientX, y: event.clientY, active: false, pointer: event.pointerId, turn: hooks.turn?.(), zone: null };
    if (event.pointerType !== "mouse") drag.longPress = setTimeout(longPress, LONG_PRESS_MS);
    source.setPointerCapture?.(event.pointerId);
  });

  // A finger or pen held still on a tile: chosen, and the release that follows is no
  // tap. Moved on from there, it drags what is now held.
  function longPress() {
    if (!drag || drag.active || turnOver()) return;
    hooks.onLongPress?.(drag.source);
    drag.longPressed = true;
  }

  root.addEventListener("pointermove", (event) => {
    if (pan && event.pointerId === pan.pointer && panMove(event)) return;
    if (!drag || event.pointerId !== drag.pointer) return;
    if (turnOver()) return letGo();
    if (!drag.active) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < THRESHOLD) return;
      clearTimeout(drag.longPress);
      if (!begin(event)) return letGo();
    }
    event.preventDefault();
    move(event);
  });

  // True while the touch scrolls the table rather than dragging the tile.
  function panMove(event) {
    const dx = event.clientX - pan.x;
    const dy = event.clientY - pan.y;
    if (!pan.active) {
      if (Math.hypot(dx, dy) < THRESHOLD) return true;
      const early = event.timeStamp - pan.t < HOLD_MS;
      if (drag && !(early && Math.abs(dy) > Math.abs(dx))) {
        pan = null; // a drag
        return false;
      }
      pan.active = true;
      clearTimeout(drag?.longPress);
      drag = null; // the tile keeps the capture, so the finger scrolls even off the table
    }
    event.preventDefault();
    pan.area.scrollTop = pan.top - dy;
    return true;
  }

  root.addEventListener("pointerup", (event) => {
    if (drag && event.pointerId === drag.pointer) clearTimeout(drag.longPress);
    if (pan && event.pointerId === pan.pointer) {
      const panned = pan.active;
      pan = null;
      if (panned) {
        swallowNextClick();
        return;
      }
    }
    if (drag && event.pointerId === drag.pointer) end(event, false);
    else if (cancelledHeld) {
      cancelledHeld = false;
      swallowNextClick();
    }
  });
  root.addEventListener("pointercancel", (event) => {
    if (pan && event.pointerId === pan.pointer) pan = null;
    if (!drag || event.pointerId !== drag.pointer) return;
    clearTimeout(drag.longPress);
    end(event, true);
  });
  // Capture lost before the pointer came up (the browser took the pointer, or the tile
  // left the page): a press is forgotten, a drag is cancelled. After a pointerup the drag
  // has already ended. A drag left hanging would also keep the finger's moves from the
  // browser (the touchmove listener below).
  root.addEventListener("lostpointercapture", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    clearTimeout(drag.longPress);
    if (drag.active) end(event, true);
    else drag = null;
  });
  // A drag ends in a click on the source tile; that click is not a tap.
  root.addEventListener(
    "click",
    (event) => {
      const pressedLong = longPressed?.contains(event.target);
      if (pressedLong) longPressed = null;
      if (swallowClick || pressedLong) {
        event.stopPropagation();
        event.preventDefault();
      }
    },
    true,
  );
  // Esc puts a dragged tile back where it was.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !drag?.active) return;
    event.preventDefault();
    event.stopPropagation();
    drag.source.releasePointerCapture?.(drag.pointer);
    letGo();
  }, true);
  // A finger that drags a tile (or scrolls the table for us) is the page's, not the
  // browser's: without this the browser still read the moves as a flick, and the flick
  // ending took the next tap (within about half a second, no click came).
  root.addEventListener(
    "touchmove",
    (event) => {
      if ((drag?.active || pan?.active) && event.cancelable) event.preventDefault();
    },
    { passive: false },
  );
  root.addEventListener("contextmenu", (event) => {
    if (event.target.closest(`.tile, ${GRIPS}`)) event.preventDefault();
  });
  return {
    /** Called when the turn may have changed: a tile still held when its turn ends is
     *  let go of at once. It used to float under a still pointer, its place on the rack
     *  dimmed, through the computers' turns and into the player's next, until the
     *  pointer moved. */
    settle() {
      if (drag && turnOver()) letGo();
    },
  };
}
