// Command bookgen builds the opening book of a two-player gravity board
// with tttbot's own exact solver (ai.GenerateBook): every position a game
// can reach with at most -plies stones, whoever played them, with who wins
// it (or, with -strong, the exact score).
//
// From the repository root, to rebuild the embedded Connect Four book:
//
//	nice -n 15 go run ./ai/internal/bookgen -plies 2 -out ai/connect4.book
//
// Each solved position is appended to a progress file (-progress, default
// the output path plus ".progress") as soon as it is known, so an
// interrupted run resumes where it stopped: run the same command again.
// Delete the progress file to start over.
//
// The embedded book (2 plies: 30 positions, 81 bytes) took 44 minutes of
// wall time, 25 leaves solved from scratch, at nice 15 on a 2-core machine
// shared with other builds (load average 5 to 18). Each ply deeper costs
// several times more: a 4-ply run solved 24 of its 568 leaves in 6
// minutes before it was stopped.
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
		Logf:      log.Printf,
	})
	if err != nil {
		log.Fatal(err)
	}
}
