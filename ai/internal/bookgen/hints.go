package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/tttbot/tttbot/ai/internal/bitboard"
)

// Book hints: at the book's deepest ply the book says who wins, but Hard
// still has to find a move that keeps it, and on some positions no
// search finds one within a second (a drawn eight-stone Connect Four
// position can need 1.4 s for its quickest drawing move). A hint is one
// child of such a position that keeps its value, stored in the book one
// ply deeper like any other entry: bitboard.BookMove then plays it, as it plays
// any child a partial book holds that keeps the parent's value.
//
// Hints cover the positions Hard itself reaches: those at the deepest ply
// where it is to move, when it has followed the book from ply From on and
// the opponent (and, before From, both sides) played anything. From 0
// they are every position Hard meets as the first player of a game it
// began.

// hintConfig says which hints addBookHints adds and where.
type hintConfig struct {
	Base      string // a complete weak book (bookgen's output) to extend
	Out       string // the book file to write: Base's entries and the hints
	From      int    // Hard follows the book from this ply on; the plies before are any move
	Progress  string // hints found are appended here as they finish; default Out+".hints"
	TableBits int    // the solver's table: 2^TableBits slots of 16 bytes; default 23
	Workers   int    // positions searched at once, sharing one table; default GOMAXPROCS
	Logf      func(format string, args ...any)
}

// addBookHints finds a hint for every position at Base's deepest ply
// that Hard reaches following the book from cfg.From (see above), is not
// lost, and that the book does not already serve, and writes Base with the
// hints as a book one ply deeper (not complete). Interrupted, it resumes
// from the progress file.
func addBookHints(cfg hintConfig) error {
	base, err := readBookFile(cfg.Base)
	if err != nil {
		return err
	}
	if !base.Weak || !base.Complete {
		return fmt.Errorf("%s: hints extend a complete weak book", cfg.Base)
	}
	geo := bitboard.NewGeometry(base.Rules)
	setDefaults(&cfg.Progress, cfg.Out+".hints", &cfg.TableBits, &cfg.Logf)
	found, err := loadProgress(cfg.Progress)
	if err != nil {
		return err
	}
	targets := hintTargets(geo, base, cfg.From)
	var todo []bitboard.Pos
	for _, p := range targets {
		if v, _ := base.Lookup(geo, p); !hinted(geo, p, v, found) {
			todo = append(todo, p)
		}
	}
	cfg.Logf("%d positions need a hint, %d found before, %d to go", len(targets), len(targets)-len(todo), len(todo))

	tt := bitboard.NewTable(cfg.TableBits)
	err = solveAll(cfg.Progress, len(todo), (bookConfig{Workers: cfg.Workers}).workers(), cfg.Logf, func(i int) (uint64, int, int64) {
		p := todo[i]
		v, _ := base.Lookup(geo, p)
		s := &bitboard.Solver{G: geo, TT: tt, Ctx: context.Background()}
		m, _ := s.Best(p, v, true) // no limit: always finishes
		return geo.Canonical(p.Play(m)), -v, s.Nodes
	}, func(k uint64, v int) { found[k] = int8(v) })
	if err != nil {
		return err
	}

	scores := make(map[uint64]int8, base.Len()+len(found))
	for i := range base.Len() {
		k, v := base.Entry(i)
		scores[k] = int8(v)
	}
	for k, v := range found {
		scores[k] = v
	}
	return writeBook(bookConfig{Out: cfg.Out, Logf: cfg.Logf}, bitboard.NewBook(base.Rules, base.Plies+1, true, false, scores))
}

// hintTargets lists, in depth-first order, one position per mirror pair
// at b's deepest ply that Hard reaches following b from ply from on, with
// Hard to move there, that is not lost and that bitboard.BookMove does not serve.
func hintTargets(geo *bitboard.Geometry, b *bitboard.Book, from int) []bitboard.Pos {
	var out []bitboard.Pos
	seen := map[uint64]bool{}
	var walk func(p bitboard.Pos)
	walk = func(p bitboard.Pos) {
		k := geo.Canonical(p)
		if seen[k] || geo.WinningMove(p) != 0 || geo.NonLosing(p) == 0 {
			return // seen, or decided at once
		}
		seen[k] = true
		if p.Moves == b.Plies {
			if v, ok := b.Lookup(geo, p); ok && v >= 0 {
				if _, _, _, served := bitboard.BookMove(b, geo, b.Rules, p); !served {
					out = append(out, p)
				}
			}
			return
		}
		if p.Moves >= from && (b.Plies-p.Moves)%2 == 0 {
			// Hard's move: the book's, unless the book leaves it to the
			// search (a lost position), where no hint can help.
			if m, _, _, ok := bitboard.BookMove(b, geo, b.Rules, p); ok {
				walk(p.Play(m))
			}
			return
		}
		for _, m := range geo.Moves(p) {
			walk(p.Play(m))
		}
	}
	walk(bitboard.Pos{})
	return out
}

// hinted reports whether a child of p among the hints found keeps v, p's
// value.
func hinted(geo *bitboard.Geometry, p bitboard.Pos, v int, found map[uint64]int8) bool {
	return slices.ContainsFunc(geo.Moves(p), func(m uint64) bool {
		cv, ok := found[geo.Canonical(p.Play(m))]
		return ok && -int(cv) >= v
	})
}
