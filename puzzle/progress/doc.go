// Package progress keeps each person's puzzle record: the tries they have
// open, the puzzles they solved, their daily streak and their puzzle
// rating, and each puzzle's own rating, as documents in the session store.
//
// Which try counts: a person's first try at a puzzle is the one that counts
// (their rating and the puzzle's move, a solve is counted, a daily puzzle
// solved on its day extends the streak). Every later try at the same
// puzzle is practice and changes nothing but the board. A try that is
// left unfinished and replaced (the next day's daily puzzle takes its
// place) changes no rating, but the puzzle is spent: it is never counted
// later. So a person cannot look at a hard puzzle, drop it, and meet it
// again fresh, and a solve counts once per puzzle.
//
// Exactly once: every change is a compare-and-swap of the person's
// document (puzzle:<user>), so two presses at once, on one replica or two,
// apply one and find the other stale; a button carries its try's number and
// how many moves it was drawn after, so a press on an old message is
// stale too; and the interaction's ID is recorded with the change (in the
// document, and by the store's delivery record when the transport dedupes),
// so a replay is refused before it runs.
package progress
