package rating

import (
	"fmt"
	"math"
)

// Model holds the parameters of the Weng-Lin Plackett-Luce model. The zero
// value is not useful; start from Default.
type Model struct {
	Mu    float64 // a new player's mean skill
	Sigma float64 // a new player's standard deviation
	Beta  float64 // standard deviation of one game's performance around skill
	Kappa float64 // floor of the factor that shrinks a variance, keeping Sigma positive
	Tau   float64 // additive dynamics: Sigma² grows by Tau² before each game; 0 turns it off
	// LimitSigma keeps an update from raising any Sigma (which Tau can do for
	// a player whose Sigma is already tiny), so a win never lowers Ordinal.
	// OpenSkill's limit_sigma / limitSigma; off by default there and here.
	LimitSigma bool
}

// Default returns OpenSkill's default model: Mu 25, Sigma 25/3, Beta 25/6,
// Kappa 0.0001, Tau 25/300, LimitSigma off.
func Default() Model {
	return Model{Mu: DefaultMu, Sigma: DefaultSigma, Beta: DefaultBeta, Kappa: DefaultKappa, Tau: DefaultTau}
}

// New returns a new player's rating under m.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// Rate returns the players' ratings after one game, in the order given.
// ranks[i] is player i's place: lower is better, equal ranks tie, and only
// their order matters (0,1,1 and 1,5,5 mean the same). Players and ranks are
// not modified. Errors match ErrPlayers, ErrRanks, ErrRating or ErrModel.
//
// A unique winner's Mu rises and a unique last player's Mu falls; two
// players who draw move towards each other; everyone's Sigma shrinks, apart
// from the Tau that is added first.
func (m Model) Rate(players []Rating, ranks []int) ([]Rating, error) {
	if len(players) < 2 {
		return nil, fmt.Errorf("%w: got %d", ErrPlayers, len(players))
	}
	if len(ranks) != len(players) {
		return nil, fmt.Errorf("%w: %d ranks for %d players", ErrRanks, len(ranks), len(players))
	}
	teams := make([][]Rating, len(players))
	for i, p := range players {
		teams[i] = []Rating{p}
	}
	rated, err := m.rateTeams(teams, ranks)
	if err != nil {
		return nil, err
	}
	out := make([]Rating, len(players))
	for i, t := range rated {
		out[i] = t[0]
	}
	return out, nil
}

// valid reports whether m's parameters are in range: a valid new rating,
// Beta in the range of a Sigma, 0 < Kappa ≤ 1 and 0 ≤ Tau < 1e100.
func (m Model) valid() bool {
	return m.New().valid() && (Rating{Sigma: m.Beta}).valid() &&
		m.Kappa > 0 && m.Kappa <= 1 && m.Tau >= 0 && m.Tau < maxValue
}

// rateTeams is Algorithm 4 of Weng & Lin (2011) for teams whose performance
// is the sum of their players': the general case OpenSkill implements, kept
// here so the tests can use OpenSkill's team test vectors. Each team needs at
// least one player.
func (m Model) rateTeams(teams [][]Rating, ranks []int) ([][]Rating, error) {
	if !m.valid() {
		return nil, fmt.Errorf("%w: %+v", ErrModel, m)
	}
	k := len(teams)
	// Additive dynamics first: every σ² grows by τ².
	in := make([][]Rating, k)
	for i, team := range teams {
		if len(team) == 0 {
			return nil, fmt.Errorf("%w: team %d has no players", ErrPlayers, i)
		}
		in[i] = make([]Rating, len(team))
		for j, p := range team {
			if !p.valid() {
				return nil, fmt.Errorf("%w: player %d: %v", ErrRating, i, p)
			}
			in[i][j] = Rating{Mu: p.Mu, Sigma: math.Sqrt(p.Sigma*p.Sigma + m.Tau*m.Tau)}
		}
	}

	// Team strength θ_i ~ N(μ_i, σ_i²), the sums over the team's players.
	mu := make([]float64, k)
	sigma2 := make([]float64, k)
	for i, team := range in {
		for _, p := range team {
			mu[i] += p.Mu
			sigma2[i] += p.Sigma * p.Sigma
		}
	}

	// c = sqrt(Σ_i (σ_i² + β²)).
	var c2 float64
	for i := range k {
		c2 += sigma2[i] + m.Beta*m.Beta
	}
	c := math.Sqrt(c2)

	// For each q, sumQ[q] = Σ_{s: r(s) ≥ r(q)} exp(μ_s/c), the teams that
	// placed with or after q, and a[q] = |{s: r(s) = r(q)}|, the size of q's
	// tie. Each sum is taken relative to its largest term, exp(top[q]/c), so
	// it lies in [1, k] and cannot overflow or vanish; the shift cancels in
	// the quotients below.
	top := make([]float64, k)
	sumQ := make([]float64, k)
	a := make([]float64, k)
	for q := range k {
		top[q] = math.Inf(-1)
		for s := range k {
			if ranks[s] >= ranks[q] {
				top[q] = max(top[q], mu[s])
			}
			if ranks[s] == ranks[q] {
				a[q]++
			}
		}
		for s := range k {
			if ranks[s] >= ranks[q] {
				sumQ[q] += math.Exp((mu[s] - top[q]) / c)
			}
		}
	}

	out := make([][]Rating, k)
	for i := range k {
		// Ω_i and Δ_i sum over the teams q that placed with or before i.
		var omega, delta float64
		for q := range k {
			if ranks[q] > ranks[i] {
				continue
			}
			// The chance that i comes first among q and those placed after q.
			p := math.Exp((mu[i]-top[q])/c) / sumQ[q]
			if q == i {
				omega += (1 - p) / a[q]
			} else {
				omega -= p / a[q]
			}
			delta += p * (1 - p) / a[q]
		}
		gamma := math.Sqrt(sigma2[i]) / c // OpenSkill's default γ_q
		omega *= sigma2[i] / c
		delta *= sigma2[i] / c2 * gamma

		out[i] = make([]Rating, len(in[i]))
		for j, p := range in[i] {
			share := p.Sigma * p.Sigma / sigma2[i]
			r := Rating{
				Mu:    p.Mu + share*omega,
				Sigma: p.Sigma * math.Sqrt(max(1-share*delta, m.Kappa)),
			}
			if m.LimitSigma {
				r.Sigma = min(r.Sigma, teams[i][j].Sigma)
			}
			out[i][j] = r
		}
	}
	return out, nil
}
