// Package tournament runs a tournament's bookkeeping: who joined, how each
// round is paired, which results are in and how the players stand. It knows
// no Discord and no store: the bot keeps a Tournament as one JSON document
// (it round-trips exactly) and saves it compare-and-swap, so every method is
// a plain state change that the caller commits or throws away.
//
// Three formats:
//
//   - round-robin: everyone meets everyone once, paired by the circle method
//     (a bye each round when the number of players is odd), first moves
//     balanced; the tie-break is Sonneborn-Berger.
//   - swiss: a set number of rounds (chosen, or ⌈log2 n⌉), each paired within
//     score groups with no pairing repeated and the first move alternating
//     where possible; the tie-break is Buchholz.
//   - knockout: a bracket seeded by rating (1 against n), byes to the top
//     seeds up to the next power of two; a drawn game sends the player who
//     moved second through (the lower seed always moves first).
//
// A bye scores as a win. A player who leaves after the start forfeits every
// game of theirs not yet played. Everything is deterministic: the same calls
// in the same order give the same pairings on every replica, with no map
// order and no randomness involved. docs/tournaments.md explains the rules
// in full.
package tournament
