// Package game is the engine of generalized tic-tac-toe: any board from 3×3 to
// 100×100, k in a row to win (3–25), 2–10 players with one-character tokens,
// and free placement or gravity (Connect-X, where a token drops to the lowest
// free row of its column).
//
// The package is a plain library: standard library only, no I/O, no clock, no
// globals, and no panics on input. Everything a caller can get wrong comes back
// as an error that matches one of the sentinels in errors.go with errors.Is.
//
// Coordinates are Coord{Row, Col} with 0,0 the top-left cell, everywhere inside
// the engine. On gravity boards people count rows from the bottom, so the
// conversion (UserRow) is offered for display; a gravity move names a column
// only.
//
// A Game owns a Board, of which there are two kinds chosen per game (the
// original game's choice of a fast or a memory-efficient board): a dense grid of half a byte a cell,
// and a sparse board whose empty state holds no cells at all. Both satisfy the
// same Board interface and pass the same test suite.
//
// A move is checked for a win from the placed cell outward in the four
// directions, which is O(k) work whatever the board size.
//
// CheckBoard judges a written position ("XO./.XO/..X"): a winner, a draw,
// still in play, or invalid with a reason. docs/rules.md states the rules
// and the verdicts' exact words.
package game
