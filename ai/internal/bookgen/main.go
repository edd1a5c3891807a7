// Command bookgen builds the opening book of a two-player gravity board
// with tttbot's own exact solver (ai.GenerateBook): every position a game
// can reach with at most -plies stones, whoever played them, with who wins
// it (or, with -strong, the exact score).
//
// From the repository root, to continue the embedded Connect Four book
// (7 plies, unfinished: see below) from the progress committed with it:
//
//	gunzip -c ai/internal/bookgen/connect4-ply7.progress.gz > ai/connect4.book.progress
//	nice -n 15 go run ./ai/internal/bookgen -plies 7 -tt 26 -out ai/connect4.book
//
// Each solved position is appended to a progress file (-progress, default
// the output path plus ".progress") as soon as it is known, so an
// interrupted run resumes where it stopped: run the same command again.
// Delete the progress file to start over. Leaves are solved by every CPU
// at once (-workers), sharing one table (-tt 26: 2^26 slots, 1 GiB; bigger
// is faster here, unlike in the bot, where a move is short).
//
// When a run must stop before it ends, -partial writes the book it has so
// far without solving anything: every position whose children are all
// decided, over the entries of a complete shallower book (-base). The bot
// plays those positions from the book and solves the rest. The embedded
// book was made so:
//
//	go run ./ai/internal/bookgen -plies 7 -partial -base old2ply.book -out ai/connect4.book
//
// A run can also lean on a deeper, unfinished one: -deeper names its
// progress file, and a leaf whose children it all holds is worked out
// instead of solved.
//
// What it cost, on a 2-core machine shared with other engineers' builds,
// load tests and ladders (the solver at nice 19): the 2-ply book, 44
// minutes; the 7-ply run, 23,561 of its 25,316 leaves in 2 h 25 min
// (7 leaves a second at first, 2 to 4 later, where the positions are
// harder or the machine busier), which covers every position that opens
// in the centre column and most of the others; the last 1,755 leaves
// need about ten minutes more.
package main

import (
	"flag"
	"log"

	"github.com/tttbot/tttbot/ai"
	"github.com/tttbot/tttbot/game"
)

func main() {
	rows := flag.Int("rows", 6, "rows")
	cols := flag.Int("cols", 7, "columns")
	win := flag.Int("win", 4, "tokens in a row that win")
	plies := flag.Int("plies", 2, "book depth: positions with at most this many stones")
	out := flag.String("out", "ai/connect4.book", "book file to write")
	progress := flag.String("progress", "", "progress file (default: -out plus .progress)")
	ttBits := flag.Int("tt", 23, "solver table size, log2 of 16-byte slots")
	strong := flag.Bool("strong", false, "store how fast each side wins, not only who wins (much slower)")
	workers := flag.Int("workers", 0, "leaves solved at once, sharing one table (default: every CPU)")
	deeper := flag.String("deeper", "", "progress file of a run one ply deeper: leaves whose children it all holds are worked out, not solved")
	partial := flag.Bool("partial", false, "write the book from the progress so far, solving nothing (what an unfinished run has decided)")
	base := flag.String("base", "", "with -partial: a complete shallower book whose entries are kept")
	flag.Parse()
	err := ai.GenerateBook(ai.BookConfig{
		Rules:     game.Rules{Rows: *rows, Cols: *cols, Win: *win, Gravity: true, Players: 2},
		Plies:     *plies,
		Out:       *out,
		Progress:  *progress,
		TableBits: *ttBits,
		Strong:    *strong,
		Workers:   *workers,
		Deeper:    *deeper,
		Partial:   *partial,
		Base:      *base,
		Logf:      log.Printf,
	})
	if err != nil {
		log.Fatal(err)
	}
}
