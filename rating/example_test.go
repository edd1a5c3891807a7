package rating_test

import (
	"fmt"

	"github.com/tttbot/tttbot/rating"
)

// Three new players finish a game: X first, O and # tie for second.
func Example() {
	m := rating.Default()
	players := []rating.Rating{m.New(), m.New(), m.New()}
	after, err := m.Rate(players, []int{0, 1, 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, token := range []string{"X", "O", "#"} {
		fmt.Printf("%s: %v, rating %d\n", token, after[i], rating.Display(after[i]))
	}
	// Output:
	// X: μ=27.869 σ=8.205, rating 1156
	// O: μ=23.565 σ=8.058, rating 971
	// #: μ=23.565 σ=8.058, rating 971
}

func ExampleDisplay() {
	fmt.Println(rating.Display(rating.Default().New()))
	// Output: 1000
}

// A bot that wants a win never to lower anyone's shown rating turns on
// LimitSigma: here a settled player beats a far weaker one.
func ExampleModel_limitSigma() {
	strong, weak := rating.Rating{Mu: 40, Sigma: 1}, rating.Rating{Mu: 10, Sigma: 1}
	for _, limit := range []bool{false, true} {
		m := rating.Default()
		m.LimitSigma = limit
		after, err := m.Rate([]rating.Rating{strong, weak}, []int{0, 1})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("LimitSigma %v: ordinal %.4f -> %.4f\n", limit, strong.Ordinal(), after[0].Ordinal())
	}
	// Output:
	// LimitSigma false: ordinal 37.0000 -> 36.9908
	// LimitSigma true: ordinal 37.0000 -> 37.0012
}
