// Command bookgen builds the opening book of a two-player gravity board
// with tttbot's own exact solver (generate.go): every position a game
// can reach with at most -plies stones, whoever played them, with who wins
// it (or, with -strong, the exact score).
//
// From the repository root, the complete Connect Four book (every
// position of up to eight stones, kept here as connect4-8.book) was made
// with:
//
//	nice -n 10 go run ./ai/internal/bookgen -plies 8 -tt 26 -out ai/internal/bookgen/connect4-8.book
//
// and the embedded book (ai/connect4.book) is that book with hints (see
// hints.go): for each eight-stone position where Hard is to move
// after following the book from the fourth stone on, one move that keeps
// its value, so that Hard does not have to find it by search within its
// second:
//
//	nice -n 10 go run ./ai/internal/bookgen -hints -from 4 -base ai/internal/bookgen/connect4-8.book \
//		-progress ai/internal/bookgen/connect4.hints -tt 25 -out ai/connect4.book
//
// Each solved position is appended to a progress file (-progress, default
// the output path plus ".progress") as soon as it is known, so an
// interrupted run resumes where it stopped: run the same command again.
// Delete the progress file to start over. Leaves are solved by every CPU
// at once (-workers), sharing one table (-tt 26: 2^26 slots, 1 GiB; bigger
// is faster here, unlike in the bot, where a move is short). A run that
// spans sessions on machines that do not last should keep its progress
// file where it survives (the 8-ply run's lived in the repository,
// gzipped, between sessions).
//
// When a run must stop before it ends, -partial writes the book it has so
// far without solving anything: every position whose children are all
// decided, over the entries of a complete shallower book (-base). The bot
// plays those positions from the book and solves the rest; a deeper run
// would use the complete 8-ply book as its base:
//
//	go run ./ai/internal/bookgen -plies 9 -partial -base ai/internal/bookgen/connect4-8.book -out ai/connect4.book
//
// A run can also lean on a deeper, unfinished one: -deeper names its
// progress file, and a leaf whose children it all holds is worked out
// instead of solved.
//
// What it cost, on a 2-core machine shared with other engineers' builds,
// load tests and ladders (the solver at nice 10–19): the 2-ply book, 44
// minutes; the 7-ply book (35,758 positions, 16,267 bytes), 25,316
// leaves in about 2 h 40 min over two sessions, at 2 to 7 leaves a
// second. The 8-ply book: 77,154 leaves in 3 h 10 min over two sessions
// (2 h 28 min for the first 65,465 at 4 to 12 leaves a second, 1.4 to 2.4
// at the end; 42 minutes for the last 11,689 on a quieter machine,
// 11–13.5 million nodes a second on two workers); it holds 112,912
// positions in 42,691 bytes. A 9-ply book would have about three times
// as many leaves (Connect Four has 558,186 positions of nine stones and
// 184,275 of eight), each a little faster to solve: most of a day here.
// The hints from the fourth stone: 8,025 positions, 7,528 searched (the
// rest share a hint) in 8 min 13 s on two workers; from the first stone
// there are only 417, 25 s. The embedded book holds 120,411 positions in
// 58,966 bytes.
package main

import (
	"flag"
	"log"

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
	base := flag.String("base", "", "with -partial: a complete shallower book whose entries are kept; with -hints: the complete book to extend")
	hints := flag.Bool("hints", false, "add hints to -base: a move that keeps the value of each deepest-ply position Hard reaches (see -from)")
	from := flag.Int("from", 0, "with -hints: Hard follows the book from this ply on; before it, both sides play anything")
	flag.Parse()
	if *hints {
		err := addBookHints(hintConfig{Base: *base, Out: *out, From: *from, Progress: *progress, TableBits: *ttBits, Workers: *workers, Logf: log.Printf})
		if err != nil {
			log.Fatal(err)
		}
		return
	}
	err := generateBook(bookConfig{
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
