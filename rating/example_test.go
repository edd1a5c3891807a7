package rating_test

import (
	"fmt"

	"github.com/tttbot/tttbot/rating"
)

// Three new players finish a game: X first, O and # tie for second.
func Example() {
	players := []rating.Rating{rating.New(), rating.New(), rating.New()}
	after, err := rating.Rate(players, []int{0, 1, 1})
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
	fmt.Println(rating.Display(rating.New()))
	// Output: 1000
}
