package rating_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/tttbot/tttbot/rating"
)

// tolerance for comparing with the reference values, which are printed to
// full float64 precision; a faithful implementation agrees to rounding.
const tolerance = 1e-9

func near(a, b float64) bool { return math.Abs(a-b) <= tolerance }

func checkRatings(t *testing.T, got, want []rating.Rating) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d ratings, want %d", len(got), len(want))
	}
	for i := range want {
		if !near(got[i].Mu, want[i].Mu) || !near(got[i].Sigma, want[i].Sigma) {
			t.Errorf("player %d: got μ=%.15f σ=%.15f, want μ=%.15f σ=%.15f",
				i, got[i].Mu, got[i].Sigma, want[i].Mu, want[i].Sigma)
		}
	}
}

// TestReferenceVectors replays openskill.js 5.0.1's tests of rate() with the
// Plackett-Luce model (src/__tests__/rate.test.ts and
// src/models/__tests__/plackett-luce.test.ts, github.com/philihp/openskill.js
// at 0bf4361), one player a team. The first group uses the defaults, Tau
// included, which openskill.js shares with openskill.py 6.2.
func TestReferenceVectors(t *testing.T) {
	n := rating.Default().New()
	r := func(mu, sigma float64) rating.Rating { return rating.Rating{Mu: mu, Sigma: sigma} }
	a1, b1, c1 := r(29.182, 4.782), r(27.174, 4.922), r(16.672, 6.217)
	w1, x1, y1, z1 := r(15, 25.0/3), r(20, 25.0/3), r(25, 25.0/3), r(30, 25.0/3)
	def := rating.Default()
	noTau := def
	noTau.Tau = 0
	tau := func(v float64, limit bool) rating.Model {
		m := def
		m.Tau, m.LimitSigma = v, limit
		return m
	}
	tests := []struct {
		name    string
		model   rating.Model
		players []rating.Rating
		ranks   []int
		want    []rating.Rating
	}{
		{"two_new_players_first_wins", def, []rating.Rating{n, n}, []int{1, 2},
			[]rating.Rating{r(27.635389493140497, 8.06590141354368), r(22.364610506859503, 8.06590141354368)}},
		{"two_new_players_second_wins", def, []rating.Rating{n, n}, []int{2, 1},
			[]rating.Rating{r(22.364610506859503, 8.06590141354368), r(27.635389493140497, 8.06590141354368)}},
		{"two_new_players_draw", def, []rating.Rating{n, n}, []int{0, 0},
			[]rating.Rating{r(25, 8.06590141354368), r(25, 8.06590141354368)}},
		{"three_new_players_draw", def, []rating.Rating{n, n, n}, []int{0, 0, 0},
			[]rating.Rating{r(25, 8.205243377397993), r(25, 8.205243377397993), r(25, 8.205243377397993)}},
		{"four_new_players_draw", def, []rating.Rating{n, n, n, n}, []int{1, 1, 1, 1},
			[]rating.Rating{r(25, 8.263571791259416), r(25, 8.263571791259416), r(25, 8.263571791259416), r(25, 8.263571791259416)}},
		{"four_unequal_players_in_order", def, []rating.Rating{a1, b1, c1, n}, []int{1, 2, 3, 4},
			[]rating.Rating{r(30.210227447000438, 4.765617924939384), r(27.644725221915632, 4.883479590134575),
				r(17.4036218889969, 6.101259408259549), r(19.21460876538932, 7.854669920480409)}},
		{"four_new_players_ranks_out_of_order", def, []rating.Rating{n, n, n, n}, []int{2, 1, 4, 3},
			[]rating.Rating{r(26.55291815138952, 8.17961798837266), r(27.795252672501135, 8.263571791259416),
				r(20.962412806387245, 8.084127880168786), r(24.689416369722096, 8.084127880168786)}},
		{"four_unequal_means_ranks_out_of_order", def, []rating.Rating{w1, x1, y1, z1}, []int{1, 3, 4, 2},
			[]rating.Rating{r(18.131120980297805, 8.283536573151807), r(20.405169039419135, 8.107860440531121),
				r(20.65583040714804, 8.082574596348321), r(30.80787957313502, 8.155100416275928)}},
		{"three_unequal_players_tie_for_second", def, []rating.Rating{r(10, 8), r(5, 10), r(0, 12)}, []int{1, 2, 2},
			[]rating.Rating{r(11.942996666741225, 7.926888197620324), r(2.9381178546315034, 9.653804487570165),
				r(-1.4024317012198733, 11.323641575516767)}},
		{"three_unequal_players_tie_for_second_reordered", def, []rating.Rating{r(5, 10), r(0, 12), r(10, 8)}, []int{2, 2, 1},
			[]rating.Rating{r(2.9381178546315034, 9.653804487570165), r(-1.4024317012198733, 11.323641575516767),
				r(11.942996666741225, 7.926888197620324)}},
		{"four_unequal_means_tie_for_second", def, []rating.Rating{w1, x1, y1, z1}, []int{2, 4, 2, 1},
			[]rating.Rating{r(15.340043358359136, 8.213141619804967), r(18.007678675484204, 8.189033933813437),
				r(24.25801928251219, 8.166918055585525), r(32.39425868364447, 8.247687230833794)}},
		{"tau_0.01", tau(0.01, false), []rating.Rating{a1, b1, c1, n}, []int{1, 2, 3, 4},
			[]rating.Rating{r(30.20997558824299, 4.764909330988368), r(27.64461002009721, 4.882799245921361),
				r(17.403587237635527, 6.100731158882956), r(19.21478808745494, 7.854267281042293)}},
		{"tau_0.3", tau(0.3, false), []rating.Rating{r(25, 3), r(25, 3)}, []int{1, 2},
			[]rating.Rating{r(25.624880438870754, 2.9879993738476953), r(24.375119561129246, 2.9879993738476953)}},
		{"tau_0.3_limit_sigma", tau(0.3, true), []rating.Rating{r(40, 3), r(-20, 3)}, []int{1, 2},
			[]rating.Rating{r(40.00032667136128, 3), r(-20.000326671361275, 3)}},
		{"tau_0.01_limit_sigma_tiny_sigma", tau(0.01, true), []rating.Rating{r(6.672, 0.0001), a1}, []int{1, 2},
			[]rating.Rating{r(6.672012533190158, 0.0001), r(26.316243774876106, 4.7540633621019)}},
		// The model function alone, without Tau (plackett-luce.test.ts).
		{"no_tau_two_players", noTau, []rating.Rating{n, n}, []int{1, 2},
			[]rating.Rating{r(27.63523138347365, 8.065506316323548), r(22.36476861652635, 8.065506316323548)}},
		{"no_tau_three_players", noTau, []rating.Rating{n, n, n}, []int{1, 2, 3},
			[]rating.Rating{r(27.868876552746237, 8.204837030780652), r(25.717219138186557, 8.057829747583874),
				r(21.413904309067206, 8.057829747583874)}},
		{"no_tau_five_players", noTau, []rating.Rating{n, n, n, n, n}, []int{1, 2, 3, 4, 5},
			[]rating.Rating{r(27.666666666666668, 8.290556877154474), r(26.833333333333332, 8.240145629781066),
				r(25.72222222222222, 8.179996679645559), r(24.055555555555557, 8.111796013701358),
				r(20.72222222222222, 8.111796013701358)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.model.Rate(tt.players, tt.ranks)
			if err != nil {
				t.Fatal(err)
			}
			checkRatings(t, got, tt.want)
		})
	}
}

func TestNewAndDisplay(t *testing.T) {
	n := rating.Default().New()
	if n != (rating.Rating{Mu: 25, Sigma: 25.0 / 3}) {
		t.Errorf("Default().New() = %v", n)
	}
	if o := n.Ordinal(); !near(o, 0) {
		t.Errorf("a new player's Ordinal is %v, want 0", o)
	}
	if d := rating.Display(n); d != 1000 {
		t.Errorf("a new player shows %d, want 1000", d)
	}
	after, err := rating.Default().Rate([]rating.Rating{n, n}, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if w, l := rating.Display(after[0]), rating.Display(after[1]); w != 1165 || l != 912 {
		t.Errorf("after one game between new players: winner %d, loser %d; want 1165, 912", w, l)
	}
	for _, r := range []rating.Rating{{Mu: -100, Sigma: 1}, {Mu: math.NaN(), Sigma: 1}} {
		if d := rating.Display(r); d != 0 {
			t.Errorf("Display(%v) = %d, want 0", r, d)
		}
	}
}

// TestThreeStraightWins is issue 13's bar: three wins in a row put the
// winner's shown rating above the loser's, and each win raises it.
func TestThreeStraightWins(t *testing.T) {
	w, l := rating.Default().New(), rating.Default().New()
	prev := rating.Display(w)
	for game := 1; game <= 3; game++ {
		got, err := rating.Default().Rate([]rating.Rating{l, w}, []int{1, 0})
		if err != nil {
			t.Fatal(err)
		}
		l, w = got[0], got[1]
		if d := rating.Display(w); d <= prev {
			t.Errorf("game %d: the winner went from %d to %d", game, prev, d)
		}
		prev = rating.Display(w)
	}
	if rating.Display(w) <= rating.Display(l) {
		t.Errorf("after three wins: winner %d, loser %d", rating.Display(w), rating.Display(l))
	}
}

func TestErrors(t *testing.T) {
	n := rating.Default().New()
	bad := rating.Default()
	bad.Beta = 0
	tests := []struct {
		name    string
		model   rating.Model
		players []rating.Rating
		ranks   []int
		want    error
	}{
		{"ErrPlayers_none", rating.Default(), nil, nil, rating.ErrPlayers},
		{"ErrPlayers_one", rating.Default(), []rating.Rating{n}, []int{0}, rating.ErrPlayers},
		{"ErrRanks_short", rating.Default(), []rating.Rating{n, n}, []int{0}, rating.ErrRanks},
		{"ErrRating_zero_sigma", rating.Default(), []rating.Rating{n, {Mu: 25}}, []int{0, 1}, rating.ErrRating},
		{"ErrRating_NaN", rating.Default(), []rating.Rating{n, {Mu: math.NaN(), Sigma: 1}}, []int{0, 1}, rating.ErrRating},
		{"ErrRating_Inf", rating.Default(), []rating.Rating{n, {Mu: 1, Sigma: math.Inf(1)}}, []int{0, 1}, rating.ErrRating},
		{"ErrModel_zero_beta", bad, []rating.Rating{n, n}, []int{0, 1}, rating.ErrModel},
		{"ErrModel_zero_value", rating.Model{}, []rating.Rating{n, n}, []int{0, 1}, rating.ErrModel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.model.Rate(tt.players, tt.ranks)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if got != nil {
				t.Errorf("got ratings %v with an error", got)
			}
		})
	}
}

// TestExtremeRatings checks that far-apart ratings stay finite (exp(μ/c)
// would overflow without the shift).
func TestExtremeRatings(t *testing.T) {
	got, err := rating.Default().Rate([]rating.Rating{{Mu: 1e6, Sigma: 0.01}, {Mu: -1e6, Sigma: 0.01}, {Mu: 0, Sigma: 1e3}}, []int{2, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || !(r.Sigma > 0) || math.IsInf(r.Sigma, 0) {
			t.Errorf("player %d: %v", i, r)
		}
	}
}

func BenchmarkRate(b *testing.B) {
	for _, n := range []int{2, 10} {
		players := make([]rating.Rating, n)
		ranks := make([]int, n)
		for i := range players {
			players[i] = rating.Rating{Mu: 20 + float64(i), Sigma: 3 + float64(i%3)}
			ranks[i] = (i * 7) % n
		}
		b.Run(fmt.Sprintf("%d_players", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := rating.Default().Rate(players, ranks); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzRate: whatever the input, Rate does not panic, and what it accepts it
// rates to finite numbers with positive Sigma.
func FuzzRate(f *testing.F) {
	f.Add(25.0, 25.0/3, 25.0, 25.0/3, 25.0, 25.0/3, 0, 1, 1, 0.0)
	f.Add(0.0, 1e-99, 0.0, 1e-99, 0.0, 1e-99, 0, 1, 1, 9e99)
	f.Add(9e99, 2e-100, -9e99, 9e99, 0.0, 1.0, 2, 0, 16, 0.3)
	f.Fuzz(func(t *testing.T, m1, s1, m2, s2, m3, s3 float64, r1, r2, r3 int, tau float64) {
		model := rating.Default()
		model.Tau = tau
		players := []rating.Rating{{Mu: m1, Sigma: s1}, {Mu: m2, Sigma: s2}, {Mu: m3, Sigma: s3}}
		got, err := model.Rate(players, []int{r1, r2, r3})
		if err != nil {
			return
		}
		for i, r := range got {
			if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || !(r.Sigma > 0) || math.IsInf(r.Sigma, 0) {
				t.Errorf("%v, tau %v: player %d rated %v", players, tau, i, r)
			}
		}
	})
}
