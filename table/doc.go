// Package table is a channel's game session with no Discord in it: seats and
// the lobby, turns, resignations and ending, rematches, results for the
// standings, and the durable storage behind them.
//
// A Table is one channel's game from lobby to result; Tables runs actions on
// tables one channel at a time (a lock per channel), reading each from the
// Store before the action and writing it back, compare-and-swap, before the
// caller replies. Errors a user can cause are in errors.go and carry what a
// sentence about them needs.
package table
