package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/ai/internal/bitboard"
	"github.com/tttbot/tttbot/game"
)

// TestGenerateBook builds a small board's book with several workers,
// interrupts it and resumes it: the resumed book is the same, covers every
// reachable position, agrees with negamax over its children and, at its
// deepest ply, with the solver run from scratch.
func TestGenerateBook(t *testing.T) {
	r := game.Rules{Cols: 5, Rows: 4, Win: 4, Gravity: true, Players: 2}
	dir := t.TempDir()
	cfg := bookConfig{Rules: r, Plies: 4, Out: filepath.Join(dir, "book"), TableBits: 16, Workers: 3}
	if err := generateBook(cfg); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bitboard.ParseBook(first)
	if err != nil {
		t.Fatal(err)
	}
	geo := bitboard.NewGeometry(r)
	if _, err := b.Verify(geo, -1); err != nil {
		t.Fatal(err)
	}
	leaves := bookLeaves(geo, cfg.Plies)
	for _, p := range leaves {
		s := &bitboard.Solver{G: geo, TT: bitboard.NewTable(12), Ctx: context.Background()}
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
	if err := generateBook(cfg); err != nil {
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
	base := bookConfig{Rules: r, Plies: 2, Out: filepath.Join(dir, "base"), TableBits: 16}
	if err := generateBook(base); err != nil {
		t.Fatal(err)
	}
	part := bookConfig{Rules: r, Plies: 4, Out: filepath.Join(dir, "partial"), Progress: filepath.Join(dir, "half.progress"), Partial: true, Base: base.Out}
	if err := os.WriteFile(part.Progress, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := generateBook(part); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(part.Out)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := bitboard.ParseBook(data)
	if err != nil {
		t.Fatal(err)
	}
	if pb.Complete || !b.Complete {
		t.Fatalf("complete: partial book %v, whole book %v", pb.Complete, b.Complete)
	}
	if _, err := pb.Verify(geo, -1); err != nil {
		t.Fatal(err)
	}
	baseEntries := 0
	if bb, err := os.ReadFile(base.Out); err == nil {
		if bk, err := bitboard.ParseBook(bb); err == nil {
			baseEntries = bk.Len()
		}
	}
	if pb.Len() <= baseEntries || pb.Len() >= b.Len() {
		t.Fatalf("partial book holds %d positions; the base %d, the whole book %d", pb.Len(), baseEntries, b.Len())
	}
	for i := range pb.Len() {
		k, v := pb.Entry(i)
		if got, ok := b.Get(k); !ok || got != v {
			t.Fatalf("partial book position %x: %d, not so in the whole book", k, v)
		}
	}

	// With half of a deeper run's progress, some leaves are worked out
	// from their children instead of solved, and the book is the same.
	deep := bookConfig{Rules: r, Plies: 5, Out: filepath.Join(dir, "deep"), TableBits: 16, Workers: 2}
	if err := generateBook(deep); err != nil {
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
	if err := generateBook(cfg); err != nil {
		t.Fatal(err)
	}
	if fromDeeper, err := os.ReadFile(cfg.Out); err != nil || !bytes.Equal(first, fromDeeper) {
		t.Fatalf("the book worked out from a deeper run differs (%v)", err)
	}
	t.Logf("%d of %d leaves worked out from the deeper run", derived, len(leaves))
}

// TestBookHints: hints added to a small complete book make the book serve
// every deepest-ply position Hard reaches following it, each hint keeps
// its parent's value (checked by the solver), the base's entries stay,
// and a second run finds nothing left to do.
func TestBookHints(t *testing.T) {
	r := game.Rules{Cols: 5, Rows: 4, Win: 4, Gravity: true, Players: 2}
	dir := t.TempDir()
	base := bookConfig{Rules: r, Plies: 4, Out: filepath.Join(dir, "base"), TableBits: 16}
	if err := generateBook(base); err != nil {
		t.Fatal(err)
	}
	cfg := hintConfig{Base: base.Out, Out: filepath.Join(dir, "hinted"), From: 0, TableBits: 16, Workers: 2}
	if err := addBookHints(cfg); err != nil {
		t.Fatal(err)
	}
	read := func(path string) *bitboard.Book {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := bitboard.ParseBook(data)
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
		if got, ok := hinted.Get(k); !ok || got != v {
			t.Fatalf("base entry %x (%d) is not in the hinted book as it was", k, v)
		}
	}
	if hinted.Len() <= b.Len() {
		t.Fatalf("hinted book: %d entries, the base %d", hinted.Len(), b.Len())
	}
	geo := bitboard.NewGeometry(r)
	targets := hintTargets(geo, b, cfg.From)
	if len(targets) == 0 {
		t.Fatal("no position needed a hint: the test checks nothing")
	}
	t.Logf("%d positions needed a hint", len(targets))
	oracle := &bitboard.Solver{G: geo, TT: bitboard.NewTable(16), Ctx: context.Background()}
	for _, p := range targets {
		v, _ := b.Lookup(geo, p)
		m, got, _, ok := bitboard.BookMove(hinted, geo, r, p)
		if !ok || got != v {
			t.Fatalf("position %x (worth %d): hinted book move ok %v value %d", p.Key(), v, ok, got)
		}
		if keeps, _ := oracle.Keeps(p, m, v); !keeps {
			t.Fatalf("position %x (worth %d): the hint, column %d, does not keep it", p.Key(), v, geo.Column(m))
		}
	}
	first, _ := os.ReadFile(cfg.Out)
	if err := addBookHints(cfg); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(cfg.Out); !bytes.Equal(first, again) {
		t.Error("a second run changed the book")
	}
}
