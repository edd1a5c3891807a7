// Package render draws a game.Game for people: as text for monospaced display
// (a terminal or a Discord code block), as a PNG picture, and as an animated
// GIF replay.
//
// Free-placement boards get a column header and row labels (0,0 top-left);
// gravity boards get the column header a player types, with row 0 at the
// bottom as in Connect Four; classic 3×3 gets the classic +---+ boxed drawing with the
// cell numbers 0–8 in the empty cells. The last move is bracketed, [X], and a
// winning run is starred, *X*.
//
// Big boards do not fit a chat message: Fit picks the largest window around a
// cell that fits a character budget, and Text draws just that window.
//
// A Look says how each seat's token is drawn (a Face: a character, a Unicode
// emoji or a Discord custom emoji). With an emoji among them, Look.Text keeps
// a terminal's columns two wide; Look.EmojiGrid draws the board as emoji for
// a message outside a code block (⬛ for an empty cell, keycap labels); and
// Look.PNG and Look.ReplayGIF draw Unicode emoji from Twemoji
// (internal/twemoji) and custom emoji from the Images the caller gives (a
// client of Discord's CDN), or their names when no picture can be had.
//
// PNG draws the whole board with cells that shrink as the board
// grows (a 100×100 board is about 700 pixels a side). ReplayGIF animates a
// game one frame a move from the same drawing; each frame after the first
// carries only the pixels that changed, so a replay of a 100×100 game with
// 500 moves is a few hundred kilobytes.
//
// StandingsPNG and BracketPNG draw a tournament's standings table and
// knockout bracket from plain types the caller fills in (render knows no
// tournament package); their font is ASCII, so names are folded to it.
//
// Output is deterministic; the tests compare it with golden files under
// testdata/ (refresh them with go test ./render -update).
package render
