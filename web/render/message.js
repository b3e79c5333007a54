// The message region: what was just said (a computer's move, a refusal, a hint, the
// summary of the computers' turns), its tile codes as small tiles, scrolled in place
// and faded at its foot when it is longer than its two lines.

import { $, changed, el, setAttr } from "./dom.js";
import { richText } from "./tile-elements.js";

export function renderMessage(state) {
  const msg = $("message");
  // Routine news is read out politely; a refused move or an error interrupts.
  msg.setAttribute("aria-live", state.message?.kind === "error" ? "assertive" : "polite");
  const text = state.message?.text ?? "";
  const aside = state.message?.aside ?? "";
  // Its kind, with what markClipped last measured kept.
  const kind = ["message", state.message?.kind].filter(Boolean).join(" ");
  const measured = ["clipped", "at-end"].filter((c) => msg.classList.contains(c));
  setAttr(msg, "class", [kind, ...measured].join(" "));
  if (msg.textContent !== text + aside) {
    msg.replaceChildren(...richText(text), aside ? el("span", { class: "sr-only", text: aside }) : "");
    msg.scrollTop = 0;
  }
  // Measured when its words or its kind change (an error is bold: it may wrap more), and
  // when its box changes size (watchMessage).
  if (changed("message", `${kind}\n${text}`)) markClipped(msg);
  watchMessage(msg);
}

/** A message longer than its two lines scrolls in place: it then fades out at its foot
 *  until scrolled to the end, and takes the keyboard focus, to be scrolled with the
 *  arrow keys (a cut-off message gave no sign that there was more). */
export function markClipped(msg) {
  const clipped = msg.scrollHeight > msg.clientHeight + 1;
  msg.classList.toggle("clipped", clipped);
  msg.classList.toggle("at-end", clipped && msg.scrollTop + msg.clientHeight >= msg.scrollHeight - 1);
  if (clipped) msg.tabIndex = 0;
  else msg.removeAttribute("tabindex");
}

// The message's box changes width with the window and height with the layout: whether
// its text is cut off is measured again then (and when its text changes), not at every
// render, where the measuring forced a layout.
let messageObserver = null;
function watchMessage(msg) {
  if (messageObserver || !globalThis.ResizeObserver) return;
  messageObserver = new ResizeObserver(() => markClipped(msg));
  messageObserver.observe(msg);
}
