package rating_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tttbot/tttbot/rating"
)

// randomGame returns 2–10 players with plausible ratings and random ranks
// (with ties), from a fixed seed so a failure replays.
func randomGame(rng *rand.Rand) ([]rating.Rating, []int) {
	n := 2 + rng.IntN(9)
	players := make([]rating.Rating, n)
	ranks := make([]int, n)
	for i := range players {
		players[i] = rating.Rating{Mu: 10 + 30*rng.Float64(), Sigma: 0.5 + 8*rng.Float64()}
		ranks[i] = rng.IntN(n)
	}
	return players, ranks
}

func rate(t *testing.T, m rating.Model, players []rating.Rating, ranks []int) []rating.Rating {
	t.Helper()
	got, err := m.Rate(players, ranks)
	if err != nil {
		t.Fatalf("%v %v: %v", players, ranks, err)
	}
	return got
}

func TestProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2026))
	noTau := rating.Default()
	noTau.Tau = 0
	limited := rating.Default()
	limited.LimitSigma = true
	for range 2000 {
		players, ranks := randomGame(rng)
		best, worst := ranks[0], ranks[0]
		for _, r := range ranks {
			best, worst = min(best, r), max(worst, r)
		}
		count := func(rank int) int {
			n := 0
			for _, r := range ranks {
				if r == rank {
					n++
				}
			}
			return n
		}
		got := rate(t, rating.Default(), players, ranks)
		for i, r := range got {
			switch {
			case ranks[i] == best && count(best) == 1 && r.Mu <= players[i].Mu:
				t.Errorf("%v %v: the winner's μ went from %v to %v", players, ranks, players[i].Mu, r.Mu)
			case ranks[i] == worst && count(worst) == 1 && r.Mu >= players[i].Mu:
				t.Errorf("%v %v: the last player's μ went from %v to %v", players, ranks, players[i].Mu, r.Mu)
			}
		}
		// The Bayesian update itself only ever shrinks σ; only Tau widens it.
		for i, r := range rate(t, noTau, players, ranks) {
			if r.Sigma >= players[i].Sigma {
				t.Errorf("%v %v: without Tau σ went from %v to %v", players, ranks, players[i].Sigma, r.Sigma)
			}
		}
		// With LimitSigma no σ grows, so a unique winner's Ordinal rises.
		for i, r := range rate(t, limited, players, ranks) {
			if r.Sigma > players[i].Sigma {
				t.Errorf("%v %v: with LimitSigma σ went from %v to %v", players, ranks, players[i].Sigma, r.Sigma)
			}
			if ranks[i] == best && count(best) == 1 && r.Ordinal() <= players[i].Ordinal() {
				t.Errorf("%v %v: with LimitSigma the winner's Ordinal fell", players, ranks)
			}
		}
		// Reordering the players reorders the results and changes nothing else.
		perm := rng.Perm(len(players))
		pp, pr := make([]rating.Rating, len(players)), make([]int, len(players))
		for to, from := range perm {
			pp[to], pr[to] = players[from], ranks[from]
		}
		for to, r := range rate(t, rating.Default(), pp, pr) {
			want := got[perm[to]]
			if math.Abs(r.Mu-want.Mu) > 1e-9 || math.Abs(r.Sigma-want.Sigma) > 1e-9 {
				t.Errorf("%v %v reordered by %v: got %v, want %v", players, ranks, perm, r, want)
			}
		}
		// Only the order of the ranks matters.
		shifted := make([]int, len(ranks))
		for i, r := range ranks {
			shifted[i] = 3*r + 7
		}
		for i, r := range rate(t, rating.Default(), players, shifted) {
			if r != got[i] {
				t.Errorf("%v: ranks %v and %v rate differently", players, ranks, shifted)
			}
		}
	}
}

// TestNewPlayersSigmaShrinks: with the default Tau, a new player's σ still
// shrinks after any game, whatever the other players' ratings.
func TestNewPlayersSigmaShrinks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 6))
	for range 500 {
		players, ranks := randomGame(rng)
		players[0] = rating.Default().New()
		if r := rate(t, rating.Default(), players, ranks)[0]; r.Sigma >= players[0].Sigma {
			t.Errorf("%v %v: a new player's σ went to %v", players, ranks, r.Sigma)
		}
	}
}

// TestDrawBetweenEquals: when everyone has the same rating and all tie, no μ
// moves and every σ shrinks by the same amount.
func TestDrawBetweenEquals(t *testing.T) {
	for n := 2; n <= 10; n++ {
		for _, r := range []rating.Rating{rating.Default().New(), {Mu: 31, Sigma: 2}, {Mu: -4, Sigma: 0.7}} {
			players, ranks := make([]rating.Rating, n), make([]int, n)
			for i := range players {
				players[i] = r
			}
			got := rate(t, rating.Default(), players, ranks)
			for i, g := range got {
				if math.Abs(g.Mu-r.Mu) > 1e-12 || g.Sigma != got[0].Sigma {
					t.Errorf("%d players at %v draw: player %d ends at %v", n, r, i, g)
				}
			}
		}
	}
}

// TestInputsUnchanged: Rate does not write to its arguments.
func TestInputsUnchanged(t *testing.T) {
	players := []rating.Rating{rating.Default().New(), {Mu: 30, Sigma: 3}}
	ranks := []int{1, 0}
	rate(t, rating.Default(), players, ranks)
	if players[0] != rating.Default().New() || players[1] != (rating.Rating{Mu: 30, Sigma: 3}) || ranks[0] != 1 || ranks[1] != 0 {
		t.Errorf("arguments changed: %v %v", players, ranks)
	}
}
