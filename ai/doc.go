// Package ai is tttbot's computer opponent for any rules: board size, k,
// gravity and 2–10 players. It imports only the engine.
//
// Levels, weakest first: Easy plays a sensible move half the time and a
// random one otherwise; Medium takes wins, blocks, and looks two plies
// ahead; Hard searches as deep as the budget allows.
//
// Hard on two-player gravity boards that fit a 64-bit bitboard
// ((rows+1)·cols ≤ 64: standard Connect Four, 7×7, 8×7, and smaller)
// plays perfectly whenever it can prove it: it looks the position up in
// an embedded opening book, else solves it exactly (ai/internal/bitboard: Pons-style
// negamax with null windows, threat ordering, forced-move detection,
// enhanced transposition cutoffs, mirror symmetry and a lockless
// transposition table shared by every game and kept between moves, with a
// helper goroutine), first who wins and a move that keeps it, then, time
// allowing, the fastest win or the slowest loss. Only when the solver
// cannot finish within the budget does it fall back to the heuristic
// search below, restricted to the moves the solver did not prove worse.
// The book is built by the same solver: see
// ai/internal/bookgen. For Connect Four it holds who wins every position
// with up to eight stones, so Hard plays perfectly from the first stone,
// whatever the opponent opens with, and, as hints, the move that keeps
// the value of every eight-stone position Hard meets as first player
// once it has played from the book from the fourth stone on.
//
// Everywhere else Hard is alpha-beta with iterative deepening, a
// transposition table (Zobrist hashing) and move ordering by threats.
// With two players it is plain minimax. With three it is a paranoid
// search (everyone else is assumed to play against the computer), which
// keeps alpha-beta's pruning; Hard stops it after one round (4 plies),
// because deeper paranoid search measured weaker (the imagined coalition
// grows with every ply; best-reply search, max^n and flat Monte Carlo
// measured no better: see docs/ai.md), and first takes away the win of either
// opponent. With four or more players every such search measured weaker
// than Medium's, so Hard plays Medium's two-ply search and, when it can,
// a fork: two winning cells, which the one player who would block cannot
// both block; with five or more, when it has no fork to make, the move
// that leaves it the most forks (two at least) for its next turn. Under
// gravity with three or more players, once 12 cells or fewer are left
// (and the budget allows), Hard first solves the rest of the game, every
// player playing for itself (max^n), and keeps the moves best for it
// there: near a full board, who must play under whose winning cell is a
// matter of counting. Leaves are scored by open k-windows:
// every line of k cells that only one player occupies counts for that
// player, steeply more the fuller it is, which is what makes threats and
// blocks visible on boards too big to search; a player to move with a
// four (one stone from k) is scored as winning, and on two-player
// free-placement boards the forced block of a four is played out before
// a leaf is judged. On boards over 7×7 without gravity it looks only at
// cells near the stones and at the most threatening few.
//
// With two players, no gravity and k ≥ 5 (gomoku and the like), Hard
// first runs a threat-space search (threats.go, after Allis): a win by
// continuous fours is a proof and is played at once; a win by threats
// (open threes and the like) is played too; and if the opponent has
// either, only the moves that refute it are searched. It uses at most a
// third of the budget, and counts its positions against MaxNodes.
//
// A move is chosen within a time budget and, optionally, a node budget
// (Options.MaxNodes), which makes the choice the same on any machine;
// Move always returns a legal move, even when the budget is spent before
// the first iteration ends. Stats says what the search proved: Outcome
// (won, lost, drawn or unknown for the mover) and Distance (plies to the
// end under perfect play).
//
// Solve, SolveWithin and Prove value a position exactly for callers that
// need more than a move (the puzzles of package puzzle): Solve gives who
// wins and in how many plies (the fastest win, the slowest loss),
// SolveWithin the same when the game ends within a horizon and otherwise
// only who wins, and Prove only who wins, at a fraction of Solve's cost.
// They serve two-player gravity boards that fit the bitboard, through the
// same solver and shared table Hard uses, and free boards of at most 25
// cells (3×3, 4×4, 5×5) through a small negamax of their own
// (freeboard.go); any other rules get ErrNoSolver.
//
// The deep checks run with -long (go test ./ai/... -args -long): Hard
// against the exact solver on random Connect Four positions and from
// random openings, the self-play ladder of the levels on thirteen rule sets,
// the 4×4 k=4 free-placement solve, and bigger brute-force boards for the
// solver.
package ai
