// Package puzzle makes and judges puzzles: positions from real games where
// the side to move wins by force in exactly N of its own moves, and
// exactly one first move wins. Connect Four puzzles (7×6, gravity) and
// classic ones (3×3 and 4×4 with three in a row) come in three
// difficulties by N.
//
// Every puzzle is proved by the exact solvers of package ai: the mover's
// win in exactly N, every other first move a draw or a loss, and the main
// line of best play. A pool is embedded (pool.txt, made by
// puzzle/internal/puzzlegen and proved again by the tests); Pick serves
// unseen pool puzzles and generates new ones on demand; Daily chooses one
// puzzle a kind for each UTC date; Judge answers a try move by move with
// the slowest defence, and ends it when a move lets the win slip.
//
// It knows nothing of Discord or of stores: the bot keeps who saw and
// solved what. docs/puzzles.md tells how puzzles are made and proved.
package puzzle
