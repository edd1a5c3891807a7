// Package rating rates players from game results with the Weng-Lin Bayesian
// approximation (Plackett-Luce model), as OpenSkill does.
//
// A Rating is a belief about a player's skill: a normal distribution with
// mean Mu and standard deviation Sigma. Model.Rate takes the ratings of the players
// of one finished game and their places (lower is better, equal places are a
// tie) and returns everyone's updated rating. Any number of players from two
// up may take part; tttbot has 2–10, one player a side.
//
// The formulas are Algorithm 4 (Plackett-Luce) of R. C. Weng and C.-J. Lin,
// "A Bayesian Approximation Method for Online Ranking", JMLR 12 (2011),
// with OpenSkill's choices on top: the additive dynamics factor tau, which
// widens every Sigma a little before each game so a rating never freezes, and
// the floor kappa on the variance shrink factor. The defaults are those of
// openskill.py 6.2 and openskill.js 5: Mu 25, Sigma 25/3, Beta 25/6,
// Kappa 0.0001 and Tau 25/300 (≈ 0.0833), applied on every update. The tests
// check the results against both libraries' published test vectors.
//
// For people, a rating is shown as one conservative number: Ordinal is
// Mu − 3·Sigma (the skill the player has with about 99.9% confidence), and
// Display scales it to read like a chess rating: every new player starts at
// 1000, and 200 points between two settled players mean the stronger one is
// expected to score about 76%, as in Elo.
//
// The package uses the standard library only, keeps no state and does no I/O.
package rating
