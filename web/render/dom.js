// The DOM writes every region of the screen shares: making an element, writing an
// attribute or a text or a list of children only where it differs, and remembering
// what a region was last drawn from so that a render that changes nothing leaves it be.

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k in node && typeof v !== "string") node[k] = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of [].concat(children)) if (c) node.append(c);
  return node;
}

/** Write an attribute only when it changes (null removes it). */
export function setAttr(node, name, value) {
  if (value === null) node.removeAttribute(name);
  else if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/** Show or hide a node, writing only when that changes. */
export function setHidden(node, hidden) {
  if (node.hidden !== hidden) node.hidden = hidden;
}

export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** `parent`'s children become `nodes`, in order, touching the DOM only where they differ:
 *  what is no longer wanted is taken out, what is new or out of place is put in, and a
 *  node already where it belongs stays. A tile moved in and out of the page starts its
 *  glow and its transitions over and loses the focus; re-inserting every tile at each
 *  render made the browser restyle and lay out the whole board (35-90 ms a render at 4x
 *  CPU), and re-inserting a whole row when gaps came or a set was added restarted every
 *  computer's glow and skipped the picked-up tile's lift (QA pass 18). */
export function setChildren(parent, nodes) {
  const now = parent.childNodes;
  if (now.length === nodes.length && nodes.every((n, i) => now[i] === n)) return;
  const wanted = new Set(nodes);
  for (const child of [...now]) if (!wanted.has(child)) child.remove();
  nodes.forEach((node, i) => {
    if (now[i] !== node) parent.insertBefore(node, now[i] ?? null);
  });
}

// What each region (the table's rows, the players' cards, the log, the message) was
// last drawn from, as a string: a render that would draw the same leaves it be.
const drawnFrom = new Map();
/** Is `signature` new for `region`? (It is kept as what the region is now drawn from.) */
export function changed(region, signature) {
  if (drawnFrom.get(region) === signature) return false;
  drawnFrom.set(region, signature);
  return true;
}
