package puzzle

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// OnDemandBudget bounds Pick's generation of a new puzzle once a user has
// seen the whole pool of a kind and difficulty.
const OnDemandBudget = 5 * time.Second

// Pick returns a puzzle of kind k and difficulty d that seen says the
// user has not seen: a pool puzzle, in an order shuffled by seed, or when
// the user has seen the whole pool one generated on demand from self-play
// seeded by seed (at most OnDemandBudget). It returns an error matching
// ErrUnknown for a kind or difficulty that does not exist, and ErrNoPuzzle
// when generation found nothing unseen in time.
func Pick(k Kind, d Difficulty, seen func(id string) bool, seed uint64) (Puzzle, error) {
	if rulesOf(k) == nil || !slices.Contains(Difficulties(), d) {
		return Puzzle{}, fmt.Errorf("%w: kind %q, difficulty %q", ErrUnknown, k, d)
	}
	ps := Pool(k, d)
	for _, i := range rand.New(rand.NewPCG(seed, 0x7075)).Perm(len(ps)) {
		if !seen(ps[i].ID) {
			return ps[i], nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), OnDemandBudget)
	defer cancel()
	unseen := func(id string) bool { return !seen(id) }
	return Generate(ctx, k, d, seed, unseen)
}
