package game

import (
	"strings"
	"testing"
)

// engines are the two Board implementations every shared test runs against.
var engines = []Engine{Fast, Compact}

// boardFromText builds a board from rows separated by "/", top row first,
// "." empty, other characters the index of the token in tokens.
func boardFromText(tb testing.TB, e Engine, text, tokens string) Board {
	tb.Helper()
	rows := strings.Split(text, "/")
	b, err := NewBoard(e, len(rows), len(rows[0]))
	if err != nil {
		tb.Fatalf("NewBoard: %v", err)
	}
	for r, line := range rows {
		for c, ch := range line {
			if ch == '.' {
				continue
			}
			p := strings.IndexRune(tokens, ch)
			if p < 0 {
				tb.Fatalf("token %q not in %q", ch, tokens)
			}
			if err := b.Set(Coord{r, c}, p); err != nil {
				tb.Fatalf("Set(%d,%d): %v", r, c, err)
			}
		}
	}
	return b
}

// boardText writes b back as text, for comparisons and failure messages.
func boardText(b Board, tokens string) string {
	var sb strings.Builder
	for r := 0; r < b.Rows(); r++ {
		if r > 0 {
			sb.WriteByte('/')
		}
		for c := 0; c < b.Cols(); c++ {
			if p := b.At(Coord{r, c}); p == NoPlayer {
				sb.WriteByte('.')
			} else {
				sb.WriteByte(tokens[p])
			}
		}
	}
	return sb.String()
}

// scanWinner is the full-board baseline: every cell, every direction, with
// the same run counter the O(k) check uses, so the two differ only in how
// many cells they visit.
func scanWinner(b Board, k int) int {
	for r := 0; r < b.Rows(); r++ {
		for c := 0; c < b.Cols(); c++ {
			p := b.At(Coord{r, c})
			if p == NoPlayer {
				continue
			}
			for _, dir := range directions() {
				if 1+countFrom(b, Coord{r, c}, dir, p, k-1) >= k {
					return p
				}
			}
		}
	}
	return NoPlayer
}

func mustGame(tb testing.TB, r Rules, e Engine, tokens string) *Game {
	tb.Helper()
	g, err := New(r, e, []rune(tokens))
	if err != nil {
		tb.Fatalf("New(%+v): %v", r, err)
	}
	return g
}
