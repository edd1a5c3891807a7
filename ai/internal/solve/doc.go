// Package solve is an exact solver for two-player gravity games (Connect
// Four and its relatives) on boards that fit a 64-bit bitboard, and the
// format of the opening book its generator (ai/internal/bookgen) writes.
//
// The method is the public one of Pascal Pons' "Solving Connect 4"
// articles and John Tromp's Fhourstones, generalised to any k: a bitboard
// of rows+1 bits a column, negamax with alpha-beta, a score that counts the
// stones the winner had left (so faster wins score higher), null-window
// probes bisecting towards the score, moves that lose at once pruned
// before the search (forced blocks, double threats, playing under an
// opponent's winning cell), ordering by the winning cells a move creates
// after the move that last refuted the position, enhanced transposition
// cutoffs, mirror-canonical keys in the opening, and a lockless
// transposition table of score bounds with two slots a bucket.
package solve
