// Package ai is tttbot's computer opponent for any rules: board size, k,
// gravity and 2–10 players. It imports only the engine.
//
// The search is alpha-beta with iterative deepening, a transposition table
// (Zobrist hashing) and move ordering by threats. With two players it is
// plain minimax; with more it is a paranoid search (everyone else is
// assumed to play against the computer), which keeps alpha-beta's pruning.
// Leaves are scored by open k-windows: every line of k cells that only one
// player occupies counts for that player, steeply more the fuller it is,
// which is what makes threats and blocks visible on boards too big to search.
//
// A move is chosen within a time budget (and an optional node budget, for
// reproducible tests); Move always returns a legal move, even when the budget
// is spent before the first iteration ends.
package ai
