// Package render draws a game.Game as text for monospaced display: a terminal
// or a Discord code block.
//
// Free-placement boards get a column header and row labels (0,0 top-left);
// gravity boards get the column header a player types, with row 0 at the
// bottom as in Connect Four; classic 3×3 gets seed 002's boxed drawing with the
// cell numbers 0–8 in the empty cells. The last move is bracketed, [X], and a
// winning run is starred, *X*.
//
// Big boards do not fit a chat message: Fit picks the largest window around a
// cell that fits a character budget, and Text draws just that window. Output is
// deterministic; the tests compare it with golden files under testdata/.
package render
