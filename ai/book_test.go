package ai

import (
	"bytes"
	"context"
	"flag"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/game"
)

var resolve = flag.Int("resolve", 0, "re-solve this many of the book's deepest positions from scratch (slow: seconds to minutes each)")

// loadBook reads the embedded Connect Four book's file.
func loadBook(tb testing.TB) (*bookData, *geometry) {
	tb.Helper()
	return readBook(tb, "connect4.book")
}

// readBook reads a Connect Four book file.
func readBook(tb testing.TB, path string) (*bookData, *geometry) {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if len(data) == 0 {
		tb.Skip("no book built yet")
	}
	b, err := parseBook(data)
	if err != nil {
		tb.Fatal(err)
	}
	if b.Rules != connectFour {
		tb.Fatalf("book for %+v, want %+v", b.Rules, connectFour)
	}
	return b, newGeometry(b.Rules)
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
		j, ok := slices.BinarySearch(embedded.keys, k)
		if !ok || int(embedded.scores[j]) != v {
			t.Fatalf("base entry %x (%d) is not in the embedded book as it is here", k, v)
		}
	}
}

// checkBook walks every position a game can reach within b's plies: each
// one with at most covered stones is in b (or trivial), and each one above
// the deepest ply whose children are all known has the value negamax gives
// over them. A complete book covers all its plies.
func checkBook(t *testing.T, b *bookData, geo *geometry, covered int) {
	t.Helper()
	clamp := func(v int) int {
		if b.Weak {
			return max(-1, min(1, v))
		}
		return v
	}
	value := func(p bitPos) (int, bool) {
		if v, ok := geo.Trivial(p); ok {
			return clamp(v), true
		}
		v, ok := b.Lookup(geo, p)
		if !ok && (b.Complete || p.Moves <= covered) {
			t.Fatalf("position %x (%d stones) is not in the book", p.Key(), p.Moves)
		}
		return v, ok
	}
	seen := map[uint64]bool{}
	var walk func(p bitPos)
	walk = func(p bitPos) {
		if seen[p.Key()] {
			return
		}
		seen[p.Key()] = true
		v, known := value(p)
		if p.Moves == b.Plies {
			return
		}
		best, all := -1<<30, true
		for _, m := range geo.Moves(p) {
			if geo.Wins(p, m) {
				best = max(best, clamp(geo.maxScore(p.Moves)))
				continue
			}
			c, ok := value(p.Play(m))
			best, all = max(best, -c), all && ok
			walk(p.Play(m))
		}
		if _, trivial := geo.Trivial(p); !trivial && known && all && best != v {
			t.Fatalf("position %x: book %d, its children give %d", p.Key(), v, best)
		}
	}
	walk(bitPos{})
	t.Logf("%d positions within %d plies, %d book entries", len(seen), b.Plies, b.Len())
}

// TestGenerateBook builds a small board's book with several workers,
// interrupts it and resumes it: the resumed book is the same, covers every
// reachable position, agrees with negamax over its children and, at its
// deepest ply, with the solver run from scratch.
func TestGenerateBook(t *testing.T) {
	r := game.Rules{Cols: 5, Rows: 4, Win: 4, Gravity: true, Players: 2}
	dir := t.TempDir()
	cfg := BookConfig{Rules: r, Plies: 4, Out: filepath.Join(dir, "book"), TableBits: 16, Workers: 3}
	if err := GenerateBook(cfg); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseBook(first)
	if err != nil {
		t.Fatal(err)
	}
	geo := newGeometry(r)
	checkBook(t, b, geo, -1)
	leaves := bookLeaves(geo, cfg.Plies)
	for _, p := range leaves {
		s := &solver{G: geo, TT: newSolveTable(12), Ctx: context.Background()}
		want, _ := s.Solve(p, true)
		if got, _ := b.Lookup(geo, p); got != want {
			t.Fatalf("leaf %x: book %d, solver %d", p.Key(), got, want)
		}
	}

	// Interrupted: half the progress survives, and the last line is cut short.
	progress, err := os.ReadFile(cfg.Out + ".progress")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(progress), "\n")
	if len(lines) < 10 {
		t.Fatalf("only %d progress lines for %d leaves", len(lines), len(leaves))
	}
	kept := strings.Join(lines[:len(lines)/2], "") + "12345"
	if err := os.WriteFile(cfg.Out+".progress", []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(cfg.Out); err != nil {
		t.Fatal(err)
	}
	if err := GenerateBook(cfg); err != nil {
		t.Fatal(err)
	}
	again, err := os.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, again) {
		t.Fatalf("the resumed book differs: %d bytes, first %d", len(again), len(first))
	}

	// A partial book from half the progress, over a complete 2-ply book:
	// what it holds agrees with the complete book, and it holds more than
	// the base.
	base := BookConfig{Rules: r, Plies: 2, Out: filepath.Join(dir, "base"), TableBits: 16}
	if err := GenerateBook(base); err != nil {
		t.Fatal(err)
	}
	part := BookConfig{Rules: r, Plies: 4, Out: filepath.Join(dir, "partial"), Progress: filepath.Join(dir, "half.progress"), Partial: true, Base: base.Out}
	if err := os.WriteFile(part.Progress, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := GenerateBook(part); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(part.Out)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := parseBook(data)
	if err != nil {
		t.Fatal(err)
	}
	if pb.Complete || !b.Complete {
		t.Fatalf("complete: partial book %v, whole book %v", pb.Complete, b.Complete)
	}
	checkBook(t, pb, geo, -1)
	baseEntries := 0
	if bb, err := os.ReadFile(base.Out); err == nil {
		if bk, err := parseBook(bb); err == nil {
			baseEntries = bk.Len()
		}
	}
	if pb.Len() <= baseEntries || pb.Len() >= b.Len() {
		t.Fatalf("partial book holds %d positions; the base %d, the whole book %d", pb.Len(), baseEntries, b.Len())
	}
	for i := range pb.Len() {
		k, v := pb.Entry(i)
		j, ok := slices.BinarySearch(b.keys, k)
		if !ok || int(b.scores[j]) != v {
			t.Fatalf("partial book position %x: %d, not so in the whole book", k, v)
		}
	}

	// With half of a deeper run's progress, some leaves are worked out
	// from their children instead of solved, and the book is the same.
	deep := BookConfig{Rules: r, Plies: 5, Out: filepath.Join(dir, "deep"), TableBits: 16, Workers: 2}
	if err := GenerateBook(deep); err != nil {
		t.Fatal(err)
	}
	progress, err = os.ReadFile(deep.Out + ".progress")
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.SplitAfter(string(progress), "\n")
	if err := os.WriteFile(deep.Out+".progress", []byte(strings.Join(lines[:len(lines)/2], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	known, err := loadProgress(deep.Out + ".progress")
	if err != nil {
		t.Fatal(err)
	}
	derived := 0
	for _, p := range leaves {
		if _, ok := fromChildren(geo, p, known); ok {
			derived++
		}
	}
	if derived == 0 {
		t.Fatal("no leaf can be worked out from half the deeper run")
	}
	cfg.Deeper, cfg.Out = deep.Out+".progress", filepath.Join(dir, "from-deeper")
	if err := GenerateBook(cfg); err != nil {
		t.Fatal(err)
	}
	if fromDeeper, err := os.ReadFile(cfg.Out); err != nil || !bytes.Equal(first, fromDeeper) {
		t.Fatalf("the book worked out from a deeper run differs (%v)", err)
	}
	t.Logf("%d of %d leaves worked out from the deeper run", derived, len(leaves))
}

// TestBookResolve re-solves a sample of the book's deepest entries from
// scratch with -resolve N (they take seconds to minutes each, so CI
// checks the rest of the book by TestBookCoversAndAgrees only).
func TestBookResolve(t *testing.T) {
	if *resolve == 0 {
		t.Skip("needs -resolve N")
	}
	b, geo := loadBook(t)
	var leaves []bitPos
	seen := map[uint64]bool{}
	var walk func(p bitPos)
	walk = func(p bitPos) {
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
	walk(bitPos{})
	step := max(1, len(leaves) / *resolve)
	for i := 0; i < len(leaves); i += step {
		p := leaves[i]
		s := &solver{G: geo, TT: newSolveTable(22), Ctx: context.Background()}
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
	if v, ok := b.Lookup(geo, bitPos{}); !ok || sign(v) != 1 {
		t.Fatalf("empty board: %d (in book %v), want a first-player win", v, ok)
	}
	want := []int{1, 1, 0, -1, 0, 1, 1} // for the second player, to move after the first stone
	for col, w := range want {
		p := bitPos{}.Play(geo.MoveIn(bitPos{}, col))
		if v, ok := b.Lookup(geo, p); !ok || sign(v) != w {
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
		b := newBookData(connectFour, full.Plies, full.Weak, false, partial)
		m, got, _, ok := bookMove(b, geo, connectFour, p)
		if !ok || got != v || geo.Canonical(p.Play(m)) != geo.Canonical(p.Play(keep[0])) {
			t.Fatalf("partial book: move %d value %d ok %v; want column %d value %d", geo.Column(m), got, ok, geo.Column(keep[0]), v)
		}
		// Without any child that keeps v, the book must not answer.
		delete(partial, geo.Canonical(p.Play(keep[0])))
		b = newBookData(connectFour, full.Plies, full.Weak, false, partial)
		if m, got, _, ok := bookMove(b, geo, connectFour, p); ok {
			t.Fatalf("book without a child keeping %d answered column %d value %d", v, geo.Column(m), got)
		}
		return
	}
}

// TestBookHints: hints added to a small complete book make the book serve
// every deepest-ply position Hard reaches following it, each hint keeps
// its parent's value (checked by the solver), the base's entries stay,
// and a second run finds nothing left to do.
func TestBookHints(t *testing.T) {
	r := game.Rules{Cols: 5, Rows: 4, Win: 4, Gravity: true, Players: 2}
	dir := t.TempDir()
	base := BookConfig{Rules: r, Plies: 4, Out: filepath.Join(dir, "base"), TableBits: 16}
	if err := GenerateBook(base); err != nil {
		t.Fatal(err)
	}
	cfg := HintConfig{Base: base.Out, Out: filepath.Join(dir, "hinted"), From: 0, TableBits: 16, Workers: 2}
	if err := AddBookHints(cfg); err != nil {
		t.Fatal(err)
	}
	read := func(path string) *bookData {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := parseBook(data)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b, hinted := read(base.Out), read(cfg.Out)
	if hinted.Plies != b.Plies+1 || hinted.Complete || !hinted.Weak {
		t.Fatalf("hinted book: %d plies, complete %v, weak %v; want %d, false, true", hinted.Plies, hinted.Complete, hinted.Weak, b.Plies+1)
	}
	for i := range b.Len() {
		k, v := b.Entry(i)
		j, ok := slices.BinarySearch(hinted.keys, k)
		if !ok || int(hinted.scores[j]) != v {
			t.Fatalf("base entry %x (%d) is not in the hinted book as it was", k, v)
		}
	}
	if hinted.Len() <= b.Len() {
		t.Fatalf("hinted book: %d entries, the base %d", hinted.Len(), b.Len())
	}
	geo := newGeometry(r)
	targets := hintTargets(geo, b, cfg.From)
	if len(targets) == 0 {
		t.Fatal("no position needed a hint: the test checks nothing")
	}
	t.Logf("%d positions needed a hint", len(targets))
	oracle := &solver{G: geo, TT: newSolveTable(16), Ctx: context.Background()}
	for _, p := range targets {
		v, _ := b.Lookup(geo, p)
		m, got, _, ok := bookMove(hinted, geo, r, p)
		if !ok || got != v {
			t.Fatalf("position %x (worth %d): hinted book move ok %v value %d", p.Key(), v, ok, got)
		}
		if keeps, _ := oracle.Keeps(p, m, v); !keeps {
			t.Fatalf("position %x (worth %d): the hint, column %d, does not keep it", p.Key(), v, geo.Column(m))
		}
	}
	first, _ := os.ReadFile(cfg.Out)
	if err := AddBookHints(cfg); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(cfg.Out); !bytes.Equal(first, again) {
		t.Error("a second run changed the book")
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
	var walk func(p bitPos)
	walk = func(p bitPos) {
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
			m, got, _, ok := bookMove(b, geo, connectFour, p)
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
	walk(bitPos{})
	t.Logf("%d positions of the first player served", served)
}
