// The table region's layout, part of it (called from table.js only): the tiles sized so
// the sets fit the view, the room kept above the rows holding a joker, and each joker's
// label placed over its joker. Layout only, measured: no state is read here.

import { $ } from "./dom.js";

/** Each table joker's label ("= Y10/K10") is centred over its joker, then slid sideways
 *  as little as it takes to stay inside its set's box, right of the set's number and
 *  clear of the set's other labels (two jokers side by side). Layout only: measured
 *  when the table's rows change (render) and whenever the table changes size. Measured
 *  in layout boxes (offsets within the set), which no transform moves: a tile still
 *  being revealed (moved up and scaled down) or lifted as it is picked up is measured
 *  where it comes to rest, not where its transition has got to. */
export function placeJokerLabels() {
  const table = $("table-view");
  if (!table) return;
  for (const set of table.querySelectorAll(".set")) {
    const labels = [...set.querySelectorAll(".stands:not([hidden])")];
    if (!labels.length || !set.clientWidth) continue;
    for (const label of labels) label.style.marginLeft = "";
    placeLabels(set, labels);
  }
}

/** The labels of one set placed, left to right, each as near its joker as it may. */
function placeLabels(set, labels) {
  const badge = set.querySelector(".set-number");
  const badgeBottom = badge ? badge.offsetTop + badge.offsetHeight : -Infinity;
  const spans = labels.map((label) => {
    const tile = label.parentElement; // positioned: the label's offsets are within it
    const width = label.offsetWidth;
    const left = tile.offsetLeft + label.offsetLeft - width / 2; // its translateX(-50%)
    const top = tile.offsetTop + label.offsetTop;
    // At the badge's height a label starts right of it.
    const besideBadge = badge && top < badgeBottom && top + label.offsetHeight > badge.offsetTop;
    const min = Math.max(2, besideBadge ? badge.offsetLeft + badge.offsetWidth + 2 : -Infinity);
    return { label, from: left, x: left, width, min, max: set.clientWidth - 2 - width };
  });
  spans.sort((a, b) => a.from - b.from);
  let edge = -Infinity;
  for (const s of spans) {
    s.x = Math.max(s.x, s.min, edge);
    edge = s.x + s.width + 2;
  }
  edge = Infinity;
  for (const s of spans.slice().reverse()) {
    s.x = Math.min(s.x, s.max, edge - s.width);
    edge = s.x - 2;
  }
  for (const s of spans) if (Math.abs(s.x - s.from) > 0.1) s.label.style.marginLeft = `${s.x - s.from}px`;
}

// The sets' view changes size (the window, a row of buttons appearing under the table):
// ``onResize(shrank)`` lays it out again (table.js). One observer, made at the first
// render.
let tableObserver = null;
let tableHeight = 0;
export function watchTable(onResize) {
  const table = $("table-view");
  if (tableObserver || !globalThis.ResizeObserver) return;
  tableObserver = new ResizeObserver(([entry]) => {
    const shrank = entry.contentRect.height < tableHeight - 0.5;
    tableHeight = entry.contentRect.height;
    // Its scrollbar's width (one that always shows, on a desktop): "+ New Set" pinned
    // over the view's corner stands clear of it (style.css).
    $("table").style.setProperty("--bar", `${table.offsetWidth - table.clientWidth}px`);
    onResize(shrank);
  });
  tableObserver.observe(table);
}

/** The sets in a row holding a joker keep room above their tiles for what it stands for
 *  ("= R5", style.css), the rows without one none: given to every set while any joker
 *  was on the table, the room took 13 px more of every row. A row's sets have it alike,
 *  so their tiles stay in line, joker or not, label shown or not (a label coming and
 *  going as its set turns valid or not moves nothing). Rows are where the sets wrap,
 *  and the room changes no set's width, so marking a row never wraps the sets again.
 *  Marked when the rows change: the table's sets, the tiles' width, the view's width,
 *  the gaps of a tile picked up (table.js keeps the mark as it sets a set's class). */
export function markJokerRows() {
  const boxes = [...document.querySelectorAll("#sets > .set")];
  const tops = boxes.map((box) => Math.round(box.offsetTop));
  const withJoker = new Set(tops.filter((top, i) => boxes[i].querySelector(":scope > .set-tiles > .tile.joker")));
  boxes.forEach((box, i) => box.classList.toggle("joker-row", withJoker.has(tops[i])));
}

/** The table's tiles as big as lets every set show without scrolling, down to
 *  FIT_FLOOR px wide (the layout's own width, from style.css, where the sets fit or
 *  where that is no wider). At 1366x768 a late game's 18 sets took three rows of 49 px
 *  tiles in a view 285 px tall, 15% of them out of sight, and 23 sets 36%; on a phone
 *  the table's tiles are already 28-36 px and the sets scroll. Worked out again when
 *  the sets (``shape``: what their size depends on, null while a set's note waits for
 *  the engine's check) or the view's size change, never for the gaps of a tile picked
 *  up (the tiles would shrink and grow as it is picked up and put down), in the middle
 *  of a drag (nothing moves under the pointer) or while the engine checks the sets. The
 *  largest width that fits is searched halving the range, each try two layouts of the
 *  sets (the rows holding a joker marked, then measured). True when it measured. */
const FIT_FLOOR = 36;
let fitFor = "";
export function fitTable(shape) {
  const table = $("table");
  const view = $("table-view");
  if (shape === null || !view.offsetWidth) return false;
  if (document.body.classList.contains("is-dragging")) return false;
  const key = `${view.offsetWidth}x${view.offsetHeight} ${shape}`;
  if (key === fitFor) return false;
  fitFor = key;
  const fits = () => {
    markJokerRows();
    return view.scrollHeight <= view.clientHeight + 1;
  };
  table.style.removeProperty("--tile-w");
  const widest = view.querySelector(".tile")?.offsetWidth ?? 0;
  if (widest <= FIT_FLOOR) {
    markJokerRows();
    return true;
  }
  if (fits()) return true;
  let best = FIT_FLOOR;
  let [lo, hi] = [FIT_FLOOR, widest - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    table.style.setProperty("--tile-w", `${mid}px`);
    if (fits()) [best, lo] = [mid, mid + 1];
    else hi = mid - 1;
  }
  table.style.setProperty("--tile-w", `${best}px`);
  markJokerRows();
  return true;
}
