// The variants offered on the start screen, each with the line that explains it there
// and in How To Play, and its short name beside the turn line. Words only: the engine
// is what applies them.

export const VARIANTS = [
  { flag: "wrap_runs", name: "Runs may wrap from 13 to 1", short: "runs wrap 13 to 1", about: "A run may go on from 13 to 1: 12 13 1 2 is a run." },
  {
    flag: "locked_jokers",
    name: "Sets with a joker are locked",
    short: "joker sets locked",
    about: "A set holding a joker can't be changed, except to swap the joker out for the tile it stands for.",
  },
  {
    flag: "easing_opening",
    name: "Opening gets easier while you wait",
    short: "opening eases",
    about: "The opening total drops by 5 after every 2 of your turns without opening, never below 10.",
  },
  {
    flag: "last_call",
    name: "Last call when the pool runs dry",
    short: "last call",
    about: "Once the pool is empty, every player has one last turn; then the round ends as if nobody could play.",
  },
  {
    flag: "no_winner_when_blocked",
    name: "No winner when blocked",
    short: "no winner when blocked",
    about: "If the pool runs dry and nobody can play, nobody wins: everyone loses the value of their own rack.",
  },
];
