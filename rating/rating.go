package rating

import (
	"fmt"
	"math"
)

// Default model parameters, as in openskill.py 6.2 and openskill.js 5.
const (
	DefaultMu    = 25.0              // a new player's mean skill
	DefaultSigma = DefaultMu / 3     // a new player's uncertainty, so Ordinal starts at 0
	DefaultBeta  = DefaultSigma / 2  // the spread of one game's performance around skill
	DefaultKappa = 0.0001            // floor of the variance shrink factor
	DefaultTau   = DefaultMu / 300   // added to Sigma (in quadrature) before every game
	ordinalZ     = 3.0               // standard deviations Ordinal stays below Mu
	displayBase  = 1000.0            // Display of a new player (Ordinal 0)
	displayScale = 200 / DefaultBeta // Display points a unit of Mu: Beta reads as 200 Elo points
)

// Rating is a belief about one player's skill: normally distributed with mean
// Mu and standard deviation Sigma. The zero value is not a rating (its Sigma
// is 0); start from Model.New.
type Rating struct {
	Mu    float64
	Sigma float64
}

// Ordinal is the conservative skill estimate Mu − 3·Sigma. A new player's is 0.
func (r Rating) Ordinal() float64 { return r.Mu - ordinalZ*r.Sigma }

// String formats r as "μ=25.000 σ=8.333".
func (r Rating) String() string { return fmt.Sprintf("μ=%.3f σ=%.3f", r.Mu, r.Sigma) }

// Display is r's Ordinal scaled to read like a chess rating, rounded and never
// below 0: 1000 + 48·Ordinal. A new player shows 1000; a new player who beats
// another new player shows 1165, the loser 912. The scale 48 is 200/Beta:
// when two settled players (small Sigma) are 200 points apart, the stronger is
// expected to win about 76% of the time, as 200 Elo points mean.
//
// A win raises the figure, with one exception under the default Tau: a
// settled player who beats a far weaker one gains almost no Mu, while Tau
// widens Sigma a little, so the figure can stay level or drop by a point.
// Model.LimitSigma rules that out.
func Display(r Rating) int {
	v := displayBase + displayScale*r.Ordinal()
	if !(v > 0) { // also NaN
		return 0
	}
	return int(math.Round(v))
}

// valid reports whether r can be rated: |Mu| < 1e100 and 1e-100 < Sigma <
// 1e100, far beyond any real rating, where no step of the update can
// overflow or underflow.
func (r Rating) valid() bool {
	return math.Abs(r.Mu) < maxValue && r.Sigma > 1/maxValue && r.Sigma < maxValue
}

// maxValue bounds the ratings Rate accepts.
const maxValue = 1e100
