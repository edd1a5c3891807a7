package ai

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/tttbot/tttbot/game"
)

// bruteValue is the definition Solve must meet, by plain minimax over the
// engine: the mover's best outcome, the fastest win and the slowest loss.
func bruteValue(g *game.Game) Value {
	best := Value{Outcome: Lost, Plies: -1}
	better := func(a, b Value) bool { // a better than b for the mover
		rank := map[Outcome]int{Lost: 0, Drawn: 1, Won: 2}
		if rank[a.Outcome] != rank[b.Outcome] {
			return rank[a.Outcome] > rank[b.Outcome]
		}
		switch a.Outcome {
		case Won:
			return a.Plies < b.Plies
		case Lost:
			return a.Plies > b.Plies
		}
		return false
	}
	r := g.Rules()
	for c := range r.Cells() {
		at := game.Coord{Row: c / r.Cols, Col: c % r.Cols}
		if r.Gravity {
			if at.Row > 0 || g.ColumnFull(at.Col) {
				continue
			}
		} else if g.At(at) != game.NoPlayer {
			continue
		}
		child := g.Clone()
		if _, err := child.Play(child.Turn(), at); err != nil {
			panic(err)
		}
		var v Value
		switch child.State() {
		case game.Won:
			v = Value{Outcome: Won, Plies: 1}
		case game.Drawn:
			v = Value{Outcome: Drawn, Plies: 1}
		default:
			cv := bruteValue(child)
			v = Value{Outcome: map[Outcome]Outcome{Won: Lost, Lost: Won, Drawn: Drawn}[cv.Outcome], Plies: cv.Plies + 1}
		}
		if best.Plies < 0 || better(v, best) {
			best = v
		}
	}
	return best
}

// randomPlay plays n random moves of r that do not end the game.
func randomPlay(t *testing.T, r game.Rules, n int, rng *rand.Rand) *game.Game {
	t.Helper()
	for {
		g, err := game.New(r, game.Fast, []rune{'X', 'O'})
		if err != nil {
			t.Fatal(err)
		}
		for g.MoveCount() < n && !g.Over() {
			at := game.Coord{Row: rng.IntN(r.Rows), Col: rng.IntN(r.Cols)}
			if _, err := g.Target(at); err != nil {
				continue
			}
			if _, err := g.Play(g.Turn(), at); err != nil {
				t.Fatal(err)
			}
		}
		if !g.Over() {
			return g
		}
	}
}

// TestSolveMatchesMinimax checks both exact solvers (Solve, SolveWithin at
// every horizon, Prove) against plain minimax
// on random positions: free 3×3 and 4×4 k=3 (the small free solver), and
// gravity 4×4 k=3 and 5×4 k=4 (the bitboard solver).
func TestSolveMatchesMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 1))
	cases := []struct {
		rules game.Rules
		from  int // stones before the position
		n     int // positions
	}{
		{game.Classic(), 0, 1},
		{game.Classic(), 3, 20},
		{game.Rules{Rows: 4, Cols: 4, Win: 3, Players: 2}, 8, 10},
		{game.Rules{Rows: 4, Cols: 4, Win: 3, Players: 2}, 10, 20},
		{game.Rules{Rows: 4, Cols: 4, Win: 3, Gravity: true, Players: 2}, 7, 10},
		{game.Rules{Rows: 4, Cols: 5, Win: 4, Gravity: true, Players: 2}, 10, 10},
	}
	for _, tc := range cases {
		for range tc.n {
			g := randomPlay(t, tc.rules, tc.from, rng)
			want := bruteValue(g)
			got, err := Solve(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%+v after %v: Solve %v, minimax %v", tc.rules, g.Moves(), got, want)
			}
			for h := 1; h <= tc.rules.Cells()-tc.from+1; h++ {
				v, exact, err := SolveWithin(context.Background(), g, h)
				if err != nil {
					t.Fatal(err)
				}
				wantExact := want.Outcome == Drawn || want.Plies <= h
				if exact != wantExact || v.Outcome != want.Outcome || exact && v != want {
					t.Fatalf("%+v after %v: SolveWithin %d: %v exact %v, minimax %v", tc.rules, g.Moves(), h, v, exact, want)
				}
			}
			o, err := Prove(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			if o != want.Outcome {
				t.Fatalf("%+v after %v: Prove %v, minimax %v", tc.rules, g.Moves(), o, want.Outcome)
			}
		}
	}
}

func TestSolveKnownValues(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		rules game.Rules
		want  Outcome
	}{
		{game.Classic(), Drawn},
		{game.Rules{Rows: 4, Cols: 4, Win: 3, Players: 2}, Won}, // the first player wins 4×4 k=3
		{game.Rules{Rows: 4, Cols: 4, Win: 4, Gravity: true, Players: 2}, Drawn},
	} {
		g, err := game.New(tc.rules, game.Fast, []rune{'X', 'O'})
		if err != nil {
			t.Fatal(err)
		}
		v, err := Solve(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if v.Outcome != tc.want {
			t.Errorf("%+v: %v, want %v", tc.rules, v, tc.want)
		}
	}
}

func TestSolveRefuses(t *testing.T) {
	ctx := context.Background()
	big, _ := game.New(game.Rules{Rows: 6, Cols: 6, Win: 4, Players: 2}, game.Fast, []rune{'X', 'O'})
	if _, err := Solve(ctx, big); !errors.Is(err, ErrNoSolver) {
		t.Errorf("6×6 free: %v, want ErrNoSolver", err)
	}
	three, _ := game.New(game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 3}, game.Fast, []rune{'X', 'O', 'A'})
	if _, err := Solve(ctx, three); !errors.Is(err, ErrNoSolver) {
		t.Errorf("three players: %v, want ErrNoSolver", err)
	}
	c4, _ := game.New(game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}, game.Fast, []rune{'X', 'O'})
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Solve(cancelled, c4); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled empty Connect Four: %v, want context.Canceled", err)
	}
}

// TestSolveWithinConnectFour checks SolveWithin against Solve on random
// Connect Four positions of 22 stones, at horizons around the exact
// distance, where the window's edges are.
func TestSolveWithinConnectFour(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(33, 4))
	r := game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}
	decided := 0
	for range 12 {
		g := randomPlay(t, r, 22, rng)
		want, err := Solve(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if want.Outcome != Drawn {
			decided++
		}
		for _, h := range []int{1, want.Plies - 2, want.Plies - 1, want.Plies, want.Plies + 1, 20} {
			v, exact, err := SolveWithin(ctx, g, h)
			if err != nil {
				t.Fatal(err)
			}
			wantExact := want.Outcome == Drawn || want.Plies <= h
			if exact != wantExact || v.Outcome != want.Outcome || exact && v != want {
				t.Fatalf("after %v: SolveWithin %d: %v exact %v, Solve %v", g.Moves(), h, v, exact, want)
			}
		}
	}
	if decided == 0 {
		t.Error("no won or lost position among the random ones")
	}
}
