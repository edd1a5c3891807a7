package ai

import (
	"context"
	"flag"
	"maps"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/tttbot/tttbot/ai/internal/bitboard"
)

var resolve = flag.Int("resolve", 0, "re-solve this many of the book's deepest positions from scratch (slow: seconds to minutes each)")

// loadBook reads the embedded Connect Four book's file.
func loadBook(tb testing.TB) (*bitboard.Book, *bitboard.Geometry) {
	tb.Helper()
	return readBook(tb, "connect4.book")
}

// readBook reads a Connect Four book file.
func readBook(tb testing.TB, path string) (*bitboard.Book, *bitboard.Geometry) {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if len(data) == 0 {
		tb.Skip("no book built yet")
	}
	b, err := bitboard.ParseBook(data)
	if err != nil {
		tb.Fatal(err)
	}
	if b.Rules != connectFour {
		tb.Fatalf("book for %+v, want %+v", b.Rules, connectFour)
	}
	return b, bitboard.NewGeometry(b.Rules)
}

// TestBookCoversAndAgrees walks every position a game can reach within
// the book's plies: each one is in the book (or trivial), and each one
// above the deepest ply has the value negamax gives over its children.
func TestBookCoversAndAgrees(t *testing.T) {
	b, geo := loadBook(t)
	// What the README and the package doc promise: every position of up to
	// eight stones (and hints at the ninth).
	if b.Plies < 8 {
		t.Errorf("embedded book: %d plies, want at least 8", b.Plies)
	}
	checkBook(t, b, geo, 8)
}

// checkBook fails t when b.Verify finds a fault in b.
func checkBook(t *testing.T, b *bitboard.Book, geo *bitboard.Geometry, covered int) {
	t.Helper()
	walked, err := b.Verify(geo, covered)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d positions within %d plies, %d book entries", walked, b.Plies, b.Len())
}

// TestBaseBookIsComplete: the complete eight-stone book kept beside the
// generator, which the embedded one extends with hints, covers every
// position of up to eight stones, agrees with itself, and every entry is
// in the embedded book as it is here.
func TestBaseBookIsComplete(t *testing.T) {
	b, geo := readBook(t, "internal/bookgen/connect4-8.book")
	if !b.Complete || b.Plies != 8 {
		t.Fatalf("base book: %d plies, complete %v; want a complete 8-ply book", b.Plies, b.Complete)
	}
	checkBook(t, b, geo, 8)
	embedded, _ := loadBook(t)
	for i := range b.Len() {
		k, v := b.Entry(i)
		if got, ok := embedded.Get(k); !ok || got != v {
			t.Fatalf("base entry %x (%d) is not in the embedded book as it is here", k, v)
		}
	}
}

// TestBookResolve re-solves a sample of the book's deepest entries from
// scratch with -resolve N (they take seconds to minutes each, so CI
// checks the rest of the book by TestBookCoversAndAgrees only).
func TestBookResolve(t *testing.T) {
	if *resolve == 0 {
		t.Skip("needs -resolve N")
	}
	b, geo := loadBook(t)
	var leaves []bitboard.Pos
	seen := map[uint64]bool{}
	var walk func(p bitboard.Pos)
	walk = func(p bitboard.Pos) {
		if seen[geo.Canonical(p)] {
			return
		}
		seen[geo.Canonical(p)] = true
		if p.Moves == b.Plies {
			_, trivial := geo.Trivial(p)
			if _, held := b.Lookup(geo, p); held && !trivial { // a partial book holds only some
				leaves = append(leaves, p)
			}
			return
		}
		for _, m := range geo.Moves(p) {
			if !geo.Wins(p, m) {
				walk(p.Play(m))
			}
		}
	}
	walk(bitboard.Pos{})
	step := max(1, len(leaves) / *resolve)
	for i := 0; i < len(leaves); i += step {
		p := leaves[i]
		s := &bitboard.Solver{G: geo, TT: bitboard.NewTable(22), Ctx: context.Background()}
		want, _ := b.Lookup(geo, p)
		v, _ := s.Solve(p, b.Weak)
		if v != want {
			t.Errorf("position %x: solved %d, book %d", p.Key(), v, want)
		}
	}
}

// TestBookKnownOpening checks the book against the published solution of
// Connect Four (Allis 1988, Tromp): the first player wins, but only by
// starting in the centre column; the two next to it draw, the outer four
// lose.
func TestBookKnownOpening(t *testing.T) {
	b, geo := loadBook(t)
	if v, ok := b.Lookup(geo, bitboard.Pos{}); !ok || bitboard.Sign(v) != 1 {
		t.Fatalf("empty board: %d (in book %v), want a first-player win", v, ok)
	}
	want := []int{1, 1, 0, -1, 0, 1, 1} // for the second player, to move after the first stone
	for col, w := range want {
		p := bitboard.Pos{}.Play(geo.MoveIn(bitboard.Pos{}, col))
		if v, ok := b.Lookup(geo, p); !ok || bitboard.Sign(v) != w {
			t.Errorf("first stone in column %d: %d (in book %v), want %d", col+1, v, ok, w)
		}
	}
}

// TestBookMovePartial: a partial book that lacks some children of a
// position still serves it when a child it holds keeps the position's
// value, and only then.
func TestBookMovePartial(t *testing.T) {
	full, geo := loadBook(t)
	scores := map[uint64]int8{}
	for i := range full.Len() {
		k, v := full.Entry(i)
		scores[k] = int8(v)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for tries := 0; ; tries++ {
		if tries == 1000 {
			t.Fatal("no six-stone position with a move that loses its value")
		}
		p := geo.FromGame(randomGame(t, connectFour, 6, rng))
		v, ok := full.Lookup(geo, p)
		if !ok || geo.WinningMove(p) != 0 {
			continue
		}
		var keep, lose []uint64 // children in the book that keep v, and that lose it
		for _, m := range geo.Moves(p) {
			child := p.Play(m)
			if _, trivial := geo.Trivial(child); trivial {
				continue
			}
			if cv, _ := full.Lookup(geo, child); -cv == v {
				keep = append(keep, m)
			} else {
				lose = append(lose, m)
			}
		}
		if len(keep) == 0 || len(lose) == 0 || geo.Canonical(p.Play(keep[0])) == geo.Canonical(p.Play(lose[0])) {
			continue
		}
		// Drop every child that keeps v but one, and one that loses it.
		partial := maps.Clone(scores)
		for _, m := range keep[1:] {
			if k := geo.Canonical(p.Play(m)); k != geo.Canonical(p.Play(keep[0])) {
				delete(partial, k)
			}
		}
		delete(partial, geo.Canonical(p.Play(lose[0])))
		b := bitboard.NewBook(connectFour, full.Plies, full.Weak, false, partial)
		m, got, _, ok := bitboard.BookMove(b, geo, connectFour, p)
		if !ok || got != v || geo.Canonical(p.Play(m)) != geo.Canonical(p.Play(keep[0])) {
			t.Fatalf("partial book: move %d value %d ok %v; want column %d value %d", geo.Column(m), got, ok, geo.Column(keep[0]), v)
		}
		// Without any child that keeps v, the book must not answer.
		delete(partial, geo.Canonical(p.Play(keep[0])))
		b = bitboard.NewBook(connectFour, full.Plies, full.Weak, false, partial)
		if m, got, _, ok := bitboard.BookMove(b, geo, connectFour, p); ok {
			t.Fatalf("book without a child keeping %d answered column %d value %d", v, geo.Column(m), got)
		}
		return
	}
}

// hintsFrom is the -from of the embedded book's hints (bookgen -hints):
// Hard as first player plays from the book through its fifth stone in
// any game whose first four stones were any, unless its position is lost.
const hintsFrom = 4

// TestBookServesHardsLines walks every game in which the first player
// follows the book from hintsFrom stones on, whatever the other moves:
// at each of its moves up to the book's eighth stone the book answers,
// with a move that keeps the position's value.
func TestBookServesHardsLines(t *testing.T) {
	b, geo := loadBook(t)
	const deepest = 8
	seen := map[uint64]bool{}
	served := 0
	var walk func(p bitboard.Pos)
	walk = func(p bitboard.Pos) {
		k := geo.Canonical(p)
		if seen[k] || geo.WinningMove(p) != 0 || geo.NonLosing(p) == 0 {
			return
		}
		seen[k] = true
		if p.Moves >= hintsFrom && p.Moves%2 == 0 {
			v, ok := b.Lookup(geo, p)
			if !ok {
				t.Fatalf("position %x of %d stones is not in the book", p.Key(), p.Moves)
			}
			if v < 0 {
				return // lost: the search chooses how to lose slowest
			}
			m, got, _, ok := bitboard.BookMove(b, geo, connectFour, p)
			if !ok || got != v {
				t.Fatalf("position %x of %d stones, worth %d: book move ok %v worth %d", p.Key(), p.Moves, v, ok, got)
			}
			served++
			if p.Moves < deepest {
				walk(p.Play(m))
			}
			return
		}
		for _, m := range geo.Moves(p) {
			walk(p.Play(m))
		}
	}
	walk(bitboard.Pos{})
	t.Logf("%d positions of the first player served", served)
}
