package rating

import (
	"math"
	"testing"
)

// TestTeamReferenceVectors checks the general team form of the update against
// the multi-player-team vectors of both OpenSkill libraries:
// openskill.py 6.2.0 tests/models/data/plackettluce.json (test_rate; the model
// there has Mu 20.35125162611535 and Sigma 8.33148112355601, the other
// parameters default) and openskill.js 5.0.1 src/__tests__/rate.test.ts.
// tttbot plays one player a side, but these are the richest published
// vectors, and one player a side is the same code.
func TestTeamReferenceVectors(t *testing.T) {
	r := func(mu, sigma float64) Rating { return Rating{Mu: mu, Sigma: sigma} }
	py := Default()
	py.Mu, py.Sigma = 20.35125162611535, 8.33148112355601
	p := py.New()
	pyLimit := py
	pyLimit.LimitSigma = true
	a1, b1, c1, d1 := r(29.182, 4.782), r(27.174, 4.922), r(16.672, 6.217), Default().New()
	tests := []struct {
		name  string
		model Model
		teams [][]Rating
		ranks []int
		want  [][]Rating
	}{
		{"py_normal", py, [][]Rating{{p}, {p, p}}, []int{0, 1}, [][]Rating{
			{r(23.855123082692877, 8.22447878583752)},
			{r(16.84738016953782, 8.179571171464575), r(16.84738016953782, 8.179571171464575)}}},
		{"py_ranks", py, [][]Rating{{p}, {p, p}, {p}, {p, p}}, []int{2, 1, 4, 3}, [][]Rating{
			{r(22.35555943890167, 8.265434830225024)},
			{r(22.373451456616035, 8.258479912445537), r(22.373451456616035, 8.258479912445537)},
			{r(18.311159777900297, 8.219170401234347)},
			{r(18.364835831043397, 8.112716571808326), r(18.364835831043397, 8.112716571808326)}}},
		{"py_scores", py, [][]Rating{{p}, {p, p}}, []int{-1, -2}, [][]Rating{ // scores 1, 2
			{r(19.4016459546452, 8.22447878583752)},
			{r(21.300857297585495, 8.179571171464575), r(21.300857297585495, 8.179571171464575)}}},
		{"py_limit_sigma", pyLimit, [][]Rating{{p}, {p, p}, {p, p, p}}, []int{2, 1, 3}, [][]Rating{
			{r(22.81664991565251, 8.28331609373364)},
			{r(22.74645120129216, 8.268148437657915), r(22.74645120129216, 8.268148437657915)},
			{r(15.49065376140138, 8.18959307104567), r(15.49065376140138, 8.18959307104567), r(15.49065376140138, 8.18959307104567)}}},
		{"py_ties", py, [][]Rating{{p}, {p, p}, {p, p, p}}, []int{1, 2, 1}, [][]Rating{
			{r(21.63766806988004, 8.310709773172306)},
			{r(19.53956360838512, 8.268148437657915), r(19.53956360838512, 8.268148437657915)},
			{r(19.87652320008089, 8.237522411103104), r(19.87652320008089, 8.237522411103104), r(19.87652320008089, 8.237522411103104)}}},
		{"js_two_teams_of_two", Default(), [][]Rating{{a1, b1}, {c1, d1}}, []int{1, 2}, [][]Rating{
			{r(29.607340941337068, 4.755311788972862), r(27.624602782532037, 4.892807828777459)},
			{r(15.953170429143093, 6.125902065139878), r(23.70858117648013, 8.111707446126035)}}},
		{"js_three_teams_of_two", Default(), [][]Rating{{a1, d1}, {b1, d1}, {c1, d1}}, []int{3, 1, 2}, [][]Rating{
			{r(27.857622571955794, 4.744504197327133), r(20.97892943330433, 8.129851804000902)},
			{r(27.990904891666695, 4.901705733959291), r(27.341233554297506, 8.2314516336455)},
			{r(17.607030910762578, 6.141282638892306), r(26.67983701239816, 8.149157818911323)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.model.rateTeams(tt.teams, tt.ranks)
			if err != nil {
				t.Fatal(err)
			}
			for i := range tt.want {
				for j, w := range tt.want[i] {
					g := got[i][j]
					if math.Abs(g.Mu-w.Mu) > 1e-9 || math.Abs(g.Sigma-w.Sigma) > 1e-9 {
						t.Errorf("team %d player %d: got %.15f/%.15f, want %.15f/%.15f", i, j, g.Mu, g.Sigma, w.Mu, w.Sigma)
					}
				}
			}
		})
	}
}
