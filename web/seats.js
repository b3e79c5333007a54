// Who is who at the table, as the engine's view says: the people who share this device
// and the computers. With one person the page speaks to them ("You"); with several, the
// device is passed round the table, everyone is named, and between two people's turns
// it is handed over, the view then being nobody's (no rack). No DOM here, and no rules.

/** Do several people share the device (each sees only their own rack)? */
export const shared = (view) => (view?.people?.length ?? 0) > 1;

/** How the page names player ``i``: "You" for the one person of a game, else by name. */
export const nameOf = (view, i) => (i === view.me && !shared(view) ? "You" : view.players[i]?.name ?? "");

/** Is the device being handed over: several people, the round on, the view nobody's and
 *  the person who acts next named (``hand_over``)? Their rack waits for their tap. */
export const handingOver = (view) =>
  shared(view) && view.me === null && !view.round_over && view.hand_over !== null && view.hand_over !== undefined;

/** Is it player ``i``'s seat a person's (not a computer's)? */
export const isPerson = (view, i) => view.players[i]?.kind === "human";

/** ``request`` for the person whose view the page holds, on a shared device (the engine
 *  then answers with their view; without a seat, with the view for nobody). With one
 *  person the request goes as it is: the engine speaks to them anyway. */
export const withSeat = (view, request) => (shared(view) && view.me !== null ? { ...request, seat: view.me } : request);
