// Package bitboard is the exact Connect-X solver that Hard plays with on
// two-player gravity boards that fit a 64-bit bitboard, and the opening
// book it reads: the board geometry and positions (bitboard.go), the
// negamax solver and its lockless transposition table (solver.go), and the
// book's format, lookup and move choice (book.go).
//
// It is internal to ai: package ai plays from it at run time, and
// ai/internal/bookgen builds the book with it offline. Neither the bot nor
// any other package sees it.
package bitboard
