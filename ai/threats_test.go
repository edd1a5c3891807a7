package ai

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
)

var gomoku = game.Rules{Rows: 15, Cols: 15, Win: 5, Players: 2}

// board plays xs and os alternately (X first) on rules r: X to move when
// they are as many, O when X has one more.
func board(tb testing.TB, r game.Rules, xs, os []game.Coord) *game.Game {
	tb.Helper()
	g := newGame(tb, r)
	for i := 0; i < max(len(xs), len(os)); i++ {
		if i < len(xs) {
			play(tb, g, xs[i])
		}
		if i < len(os) {
			play(tb, g, os[i])
		}
	}
	return g
}

// corners are four O stones far from the centre of a 15×15 board, to keep
// the stone counts even without touching the fight.
var corners = []game.Coord{at(0, 0), at(0, 14), at(14, 0), at(14, 14)}

// playsOut continues g with Hard on both sides (a node budget a move) and
// reports whether winner wins within plies moves.
func playsOut(tb testing.TB, g *game.Game, winner, plies int) bool {
	tb.Helper()
	g = g.Clone()
	for i := 0; i < plies && !g.Over(); i++ {
		c, _, err := Move(context.Background(), g, Options{Level: Hard, Budget: time.Minute, MaxNodes: 20000})
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := g.Play(g.Turn(), c); err != nil {
			tb.Fatalf("illegal move %v: %v", c, err)
		}
	}
	return g.State() == game.Won && g.Winner() == winner
}

// threatSearchOf prepares a search on g as Hard with a node budget.
func threatSearchOf(g *game.Game, nodes int64) *search {
	s := newSearch(context.Background(), g, Options{Level: Hard, MaxNodes: nodes})
	s.tss.failKey = make([]uint64, 1<<failBits)
	s.tss.failDepth = make([]int8, 1<<failBits)
	s.tss.limit = nodes
	return s
}

func TestThreatSearch(t *testing.T) {
	for _, tc := range []struct {
		name   string
		xs, os []game.Coord
		vcf    bool // X wins by fours alone; otherwise by threats
		plies  int  // X wins within this many plies
	}{
		{
			// X's row and column of three, each capped by O, cross at
			// 7,7: one stone there makes two fours.
			name: "four-four",
			xs:   []game.Coord{at(7, 4), at(7, 5), at(7, 6), at(4, 7), at(5, 7), at(6, 7)},
			os:   []game.Coord{at(7, 3), at(3, 7), corners[0], corners[1], corners[2], corners[3]},
			vcf:  true, plies: 3,
		},
		{
			// 7,8 makes a four on row 7 (O must take 7,9) and an open
			// three on column 8, which then becomes an open four.
			name: "four-three",
			xs:   []game.Coord{at(7, 5), at(7, 6), at(7, 7), at(5, 8), at(6, 8)},
			os:   []game.Coord{at(7, 4), corners[0], corners[1], corners[2], corners[3]},
			vcf:  true, plies: 5,
		},
		{
			// 7,7 makes two open threes: no single stone stops both.
			name:  "three-three",
			xs:    []game.Coord{at(7, 5), at(7, 6), at(5, 7), at(6, 7)},
			os:    corners,
			plies: 7,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := board(t, gomoku, tc.xs, tc.os)
			if g.Turn() != 0 {
				t.Fatal("X is not to move")
			}
			s := threatSearchOf(g, 200000)
			if got := s.vcf(0, 1, vcfDepth, nil); got != tc.vcf {
				t.Errorf("vcf = %v, want %v", got, tc.vcf)
			}
			if !s.vct(0, 1, vctDepth) {
				t.Fatal("vct found no win")
			}
			c, st, err := Move(context.Background(), g, Options{Level: Hard, MaxNodes: 50000})
			if err != nil {
				t.Fatal(err)
			}
			if tc.vcf && st.Outcome() != Won {
				t.Errorf("a VCF is a proof, but the stats say %v (%+v)", st.Outcome(), st)
			}
			next := g.Clone()
			if _, err := next.Play(0, c); err != nil {
				t.Fatalf("illegal move %v: %v", c, err)
			}
			if !playsOut(t, next, 0, tc.plies-1) {
				t.Errorf("Hard played %v and did not win within %d plies against Hard", c, tc.plies)
			}
			// The same with colours swapped: O to move must defend.
			swapped := board(t, gomoku, tc.os, tc.xs)
			c, _, _ = Move(context.Background(), swapped, Options{Level: Hard, MaxNodes: 50000})
			if swapped.At(c) != game.NoPlayer {
				t.Fatalf("illegal move %v", c)
			}
			if tc.vcf {
				after := swapped.Clone()
				play(t, after, c)
				if s := threatSearchOf(after, 200000); s.vcf(1, 0, vcfDepth, nil) {
					t.Errorf("X played %v and O still wins by fours", c)
				}
			}
		})
	}
}

// TestVCFIsSound checks every VCF found on random crowded boards against
// the full rules: after the proof's first move, whatever the defender
// plays (every empty cell), the attacker wins at once or still has a VCF.
func TestVCFIsSound(t *testing.T) {
	r := game.Rules{Rows: 11, Cols: 11, Win: 5, Players: 2}
	rng := rand.New(rand.NewPCG(5, 5))
	found := 0
	for i := 0; i < 400 && found < 25; i++ {
		g := randomFree(t, r, 20+rng.IntN(30), rng)
		if g.Over() {
			continue
		}
		att := g.Turn()
		s := threatSearchOf(g, 1<<40)
		if s.pos.fours[att] > 0 || !s.vcf(att, 1-att, vcfDepth, nil) {
			continue
		}
		found++
		x := s.tss.move
		p := s.pos
		if p.cell[x] >= 0 {
			t.Fatalf("VCF move %d is taken", x)
		}
		p.set(x, att)
		if p.wins(x) {
			p.unset(x)
			continue
		}
		for y := range p.cell {
			if p.cell[y] >= 0 {
				continue
			}
			p.set(y, 1-att)
			if p.wins(y) {
				t.Fatalf("%v: after the VCF move %d the defender wins at %d", g.Moves(), x, y)
			}
			if !s.vcf(att, 1-att, vcfDepth, nil) {
				t.Fatalf("%v: after %d and the reply %d the attacker has no VCF", g.Moves(), x, y)
			}
			p.unset(y)
		}
		p.unset(x)
	}
	t.Logf("%d VCFs checked", found)
	if found < 5 {
		t.Errorf("only %d VCFs found: the test checks too little", found)
	}
}

// TestThreatSearchBudget: with MaxNodes the threat search stays within the
// budget, and the same position gives the same move.
func TestThreatSearchBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 10; i++ {
		g := randomFree(t, gomoku, 10+rng.IntN(40), rng)
		if g.Over() {
			continue
		}
		opt := Options{Level: Hard, Budget: time.Minute, MaxNodes: 3000}
		c1, st1, _ := Move(context.Background(), g, opt)
		c2, st2, _ := Move(context.Background(), g, opt)
		if c1 != c2 || st1 != st2 {
			t.Fatalf("same position, different moves: %v %+v, %v %+v", c1, st1, c2, st2)
		}
		if st1.Nodes > opt.MaxNodes+2*checkEvery {
			t.Errorf("%d nodes for a budget of %d", st1.Nodes, opt.MaxNodes)
		}
		if g.At(c1) != game.NoPlayer {
			t.Fatalf("illegal move %v", c1)
		}
	}
}

// randomFree is a free-placement game of n random stones, crowded into the
// middle of the board so that threats arise, that does not end the game
// (fewer stones if no such move is left).
func randomFree(tb testing.TB, r game.Rules, n int, rng *rand.Rand) *game.Game {
	tb.Helper()
	g := newGame(tb, r)
	span := min(r.Rows, r.Cols, 9)
	r0, c0 := (r.Rows-span)/2, (r.Cols-span)/2
	for tries := 0; len(g.Moves()) < n && tries < 50*n; tries++ {
		c := at(r0+rng.IntN(span), c0+rng.IntN(span))
		if g.At(c) != game.NoPlayer {
			continue
		}
		probe := g.Clone()
		probe.Play(probe.Turn(), c)
		if !probe.Over() {
			play(tb, g, c)
		}
	}
	return g
}
