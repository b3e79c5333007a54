// The one state object of the page. The engine owns the game; this holds the last
// view it sent and the tentative arrangement of the turn in progress.

export function createState() {
  return {
    screen: "start", // "start" | "game"
    boot: { stage: "start", done: 0, total: 3, loaded: 0, bytes: 0, ready: false, failed: null, ms: null },
    view: null, // last view from the engine
    tiles: new Map(), // id -> tile JSON, every tile seen so far
    // This turn's arrangement (only meaningful on the human's turn).
    startTable: [], // [[ids]] as at the start of the turn
    startRack: [], // [ids] as at the start of the turn
    table: [], // [[ids]] tentative
    rack: [], // [ids] in the player's own order
    turnRack: [], // [ids] the rack as the turn began (sorted with it): what Reset Turn brings back
    selected: null, // id of the tile picked up by tap or keyboard
    chosen: [], // ids chosen to move together (selection.js), in the order chosen; none while one tile is picked up
    undo: [], // arrangements before each move of this turn
    hint: null, // {table, placed, next}: the engine's suggested play, shown step by step
    whoStarts: null, // {round, draws, flipped} while the who-starts draw is shown
    pending: new Set(), // tiles of a computer play not yet shown (tile-by-tile reveal)
    logHeld: null, // the log as it was before the computer play being revealed (told once it is down)
    check: null, // last engine check of `table` (or null when untouched)
    refused: null, // {message, errors} from the last refused Confirm Play
    message: null, // {text, kind: "info" | "error"}
    highlight: new Set(), // tile ids moved by the last computer turn or shown by a hint
    hintIds: new Set(),
    hinting: false, // Hint pressed and the engine still looking
    drawn: new Set(), // tiles the player drew last (marked on the rack)
    busy: false, // the engine is thinking (computer turn, confirm)
    showing: null, // {player, action: "thinking" | "play" | "draw" | "pass"}: the computer turn on show
    dialog: null, // "round" | null
    logOpen: false, // the whole game log is shown (over the table), not just its last lines
    clock: null, // {deadline, turn, key, left} on the player's clock (left: the ms it had, standing still)
    restoring: false, // a saved game is being loaded
    // A new game is being started (dealt): the view is still the old game's until the
    // engine answers, and the old game must not be resumed (nor its clock started) meanwhile.
    starting: false,
    delay: 900, // ms a computer turn stays on show (the start screen's choice)
    // Bumped by every new game (and a restore, and another tab taking the game), so a
    // loop of computer turns or a who-starts draw of the game before stops.
    epoch: 0,
    gameId: null, // the game in hand's own name (game/saving.js SETTINGS_KEY), for statistics
    gameForm: null, // the start screen's choices it was started with (SETTINGS_KEY)
    resigning: false, // the player resigned: the computer-turn loop sends it next
    unrestored: false, // a saved game failed to load (the engine failed) and is still kept
    // Another tab or window of this browser saved the game: this tab's copy is out of
    // date, it stops (no turns, no saving) until the player takes the game up here.
    stale: false,
    notice: null, // a word on the start screen (e.g. a saved game that was set aside)
    focus: null, // data-key of the element to focus after the next render
    news: "", // where the tile just moved went, read out (#move-news)
    newsHasTotal: false, // the news just told says the opening's total (the turn line is not read out)
    reveal: null, // id of a tile just moved: its whole set is scrolled into the table's view
    revealKind: "move", // what moved it: "move", "split" (its set split before it), a hint's "step", or Undo's "undo", "unsplit", "unstep"
    revealFrom: [], // the other tiles of the set it was taken from (a move's news checks that set)
    revealGroup: [], // every tile of the move, when several moved together (its news names them all)
    showSet: null, // ids of tiles whose sets the next render scrolls into view (a hint step's, See Table's)
    lastPlaced: [], // ids of the tiles the last turn put on the table (See Table shows their sets)
  };
}

export function isMyTurn(state) {
  const v = state.view;
  return !!v && !v.round_over && v.current === v.me && !state.busy && !state.stale;
}
