// How the page writes numbers and tiles in words: counts with their nouns, a true
// minus sign, a tile code as its colour and number. No DOM here.

export const COLOUR_WORD = { R: "red", B: "blue", Y: "yellow", K: "black" };

/** A number as typeset, with a true minus sign (a hyphen is shorter than the plus and
 *  sits lower): "−45". */
export const minus = (n) => (n < 0 ? `\u2212${-n}` : String(n));

/** "1 tile", "2 tiles", "−1 pt": a count and its noun, singular for one (or minus one). */
export function count(n, word, plural = `${word}s`) {
  return `${minus(n)} ${Math.abs(n) === 1 ? word : plural}`;
}

/** A sentence that starts with a tile's name ("yellow 1 was…") starts with a capital. */
export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** "R11" -> "red 11"; a joker in a 3-tile group may stand for either missing colour:
 *  "B10/Y10" -> "blue 10 or yellow 10". */
export function codeLabel(code) {
  if (!code) return "";
  if (code.includes("/")) return code.split("/").map(codeLabel).join(" or ");
  if (code === "J") return "joker";
  return `${COLOUR_WORD[code[0]] ?? code[0]} ${code.slice(1)}`;
}
