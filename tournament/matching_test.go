package tournament

import (
	"math/rand/v2"
	"testing"
)

// bruteForcePerfect tries every way of pairing the vertices left in free.
func bruteForcePerfect(free []int, edge func(a, b int) bool) bool {
	if len(free) == 0 {
		return true
	}
	for i := 1; i < len(free); i++ {
		if !edge(free[0], free[i]) {
			continue
		}
		rest := append(append([]int{}, free[1:i]...), free[i+1:]...)
		if bruteForcePerfect(rest, edge) {
			return true
		}
	}
	return false
}

// TestPerfectMatchingAgreesWithBruteForce compares the blossom algorithm
// with trying every pairing, on random graphs of up to 12 vertices at
// densities where both answers are common, and on odd cycles (blossoms).
func TestPerfectMatchingAgreesWithBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 3000; trial++ {
		n := 2 + rng.IntN(11)
		p := 0.1 + 0.5*rng.Float64()
		adj := make([][]bool, n)
		for i := range adj {
			adj[i] = make([]bool, n)
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if rng.Float64() < p {
					adj[i][j], adj[j][i] = true, true
				}
			}
		}
		edge := func(a, b int) bool { return adj[a][b] }
		free := make([]int, n)
		for i := range free {
			free[i] = i
		}
		want := n%2 == 0 && bruteForcePerfect(free, edge)
		if got := perfectMatching(n, edge); got != want {
			t.Fatalf("n=%d %v: blossom says %v, brute force %v", n, adj, got, want)
		}
	}
	// Two triangles joined by an edge: perfect only through the bridge,
	// which a search without blossoms can miss.
	bridge := [][2]int{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {2, 3}}
	edge := func(a, b int) bool {
		for _, e := range bridge {
			if e == [2]int{a, b} || e == [2]int{b, a} {
				return true
			}
		}
		return false
	}
	if !perfectMatching(6, edge) {
		t.Error("two triangles joined by a bridge have a perfect matching")
	}
}
