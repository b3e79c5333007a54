// Roving tab stops: the rack, the table and each bar of buttons is one Tab stop, and the
// arrow keys move the focus inside it (every tile and gap being a Tab stop made crossing
// the rack take dozens of Tabs). Left and Right go to the item before or after, Up and
// Down to the nearest item in the row above or below, Home and End to the first and last.
// Up from the rack's top row goes on to the table's nearest gap or tile in its lowest row,
// and Down from the table's lowest row to the rack: a tile picked up on the rack reaches
// the table in one key, not six Shift+Tabs across the buttons. A key another handler has
// taken (Left and Right move a picked-up tile along its row) is left alone.

const REGIONS = "#rack, #sets, .buttons";
// The board's regions from top to bottom, which Up and Down cross.
const BOARD = ["#sets", "#rack"];

const keyOf = (item) => item.dataset.key || item.id;

/** The items of a region that can take the focus, in order: not a set's handle (a tile
 *  of its set takes it whole with Shift+Space), one more stop per set in the arrows' way. */
function items(region) {
  return [...region.querySelectorAll("button:not(.set-handle)")].filter((b) => !b.disabled && b.checkVisibility?.() !== false);
}

/** One Tab stop per region: its focused item, else its lit action (Confirm Play, in
 *  yellow: the stop stayed on Draw, where the player had last been), else the one focused
 *  last, else a picked-up tile, else its first item. Called after every render (gaps come
 *  and go, buttons are enabled and disabled, the lit action changes). */
export function updateTabStops(root = document) {
  const active = document.activeElement;
  for (const region of root.querySelectorAll(REGIONS)) {
    // The one focused last is forgotten once it is gone from the page: a tile of a rack
    // put away as the device is handed on stayed named on the rack ("tile-57": an id is
    // a face) while the next person's turn went on.
    const last = region.dataset.stop;
    if (last && !document.querySelector(`[data-key="${last}"]`) && !document.getElementById(last)) delete region.dataset.stop;
    const list = items(region);
    const stop =
      list.find((b) => b === active) ??
      list.find((b) => b.classList.contains("primary")) ??
      list.find((b) => keyOf(b) === region.dataset.stop) ??
      list.find((b) => b.getAttribute("aria-pressed") === "true") ??
      list[0];
    for (const b of region.querySelectorAll("button")) {
      const index = b === stop ? "0" : "-1";
      if (b.getAttribute("tabindex") !== index) b.setAttribute("tabindex", index); // changes only
    }
  }
}

/** The item nearest to `item` in the next row up (dir -1) or down (dir 1), if any. */
function nextRow(list, item, dir) {
  const r = item.getBoundingClientRect();
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  const rows = list
    .filter((b) => b !== item)
    .map((b) => {
      const s = b.getBoundingClientRect();
      return { b, dy: (s.top + s.height / 2 - cy) * dir, dx: Math.abs(s.left + s.width / 2 - cx) };
    })
    .filter((c) => c.dy > r.height / 2);
  if (!rows.length) return null;
  const row = Math.min(...rows.map((c) => c.dy));
  const inRow = rows.filter((c) => c.dy <= row + r.height / 2);
  return inRow.reduce((a, c) => (c.dx < a.dx ? c : a)).b;
}

/** Past the first or last row of the table or the rack: the nearest item of the other
 *  one's nearest row (the rack is below the table), if any. */
function acrossBoard(region, item, dir) {
  const at = BOARD.findIndex((sel) => region.matches(sel));
  const other = at < 0 ? null : document.querySelector(BOARD[at + dir] ?? ":not(*)");
  return other ? nextRow(items(other), item, dir) : null;
}

export function attachRoving(root) {
  root.addEventListener("focusin", (event) => {
    const region = event.target.closest?.(REGIONS);
    if (!region || event.target.tagName !== "BUTTON") return;
    region.dataset.stop = keyOf(event.target);
    updateTabStops();
  });
  root.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const item = event.target.closest?.("button");
    const region = item?.closest(REGIONS);
    if (!region) return;
    const list = items(region);
    const i = list.indexOf(item);
    if (i < 0) return;
    const moves = {
      ArrowLeft: () => list[i - 1],
      ArrowRight: () => list[i + 1],
      ArrowUp: () => nextRow(list, item, -1) ?? acrossBoard(region, item, -1),
      ArrowDown: () => nextRow(list, item, 1) ?? acrossBoard(region, item, 1),
      Home: () => list[0],
      End: () => list.at(-1),
    };
    if (!(event.key in moves)) return;
    event.preventDefault(); // at either end too: the arrows never scroll the page
    moves[event.key]()?.focus();
  });
}
