package puzzle

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// OnDemandBudget bounds Pick's search for a new puzzle once a user has
// seen the whole pool of a kind and difficulty.
const OnDemandBudget = 5 * time.Second

// generateShare is the part of OnDemandBudget that self-play may take;
// the rest is left for a turned image of a pool puzzle, which always
// comes in time.
const generateShare = 0.7

// Pick returns a puzzle of kind k and difficulty d that seen says the user
// has not seen. First a pool puzzle, in an order shuffled by seed; when
// the user has seen the whole pool, one generated on demand from self-play
// seeded by seed; and when self-play finds none in its share of
// OnDemandBudget (long wins are rare, classic boards have few), a pool
// puzzle turned or mirrored (an image the user has not seen), proved
// again. Pick returns within OnDemandBudget or about, with an error
// matching ErrUnknown for a kind or difficulty that does not exist, and
// ErrNoPuzzle when the user has seen everything it could find. A nil seen
// means the user has seen nothing.
func Pick(k Kind, d Difficulty, seen func(id string) bool, seed uint64) (Puzzle, error) {
	if err := checkKind(k, d); err != nil {
		return Puzzle{}, err
	}
	if seen == nil {
		seen = func(string) bool { return false }
	}
	ps := Pool(k, d)
	order := rand.New(rand.NewPCG(seed, 0x7075)).Perm(len(ps))
	for _, i := range order {
		if !seen(ps[i].ID) {
			return ps[i], nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), OnDemandBudget)
	defer cancel()
	genCtx, genCancel := context.WithTimeout(ctx, time.Duration(generateShare*float64(OnDemandBudget)))
	defer genCancel()
	unseen := func(id string) bool { return !seen(id) }
	p, err := Generate(genCtx, k, d, seed, unseen)
	if err == nil || !errors.Is(err, ErrNoPuzzle) {
		return p, err
	}
	return pickImage(ctx, ps, order, seen)
}

// pickImage returns the first image of a pool puzzle (ps, in order) that
// seen does not know, proved again: its main line can differ from the
// original's, since ties go to the first move in reading order.
func pickImage(ctx context.Context, ps []Puzzle, order []int, seen func(id string) bool) (Puzzle, error) {
	for _, i := range order {
		for _, moves := range images(ps[i]) {
			if seen(encodeID(ps[i].Kind, ps[i].Rules, moves)) {
				continue
			}
			p, err := build(ctx, ps[i].Kind, ps[i].Rules, moves)
			if err == nil {
				return p, nil
			}
			if ctx.Err() != nil {
				return Puzzle{}, fmt.Errorf("%w: %w", ErrNoPuzzle, err)
			}
		}
	}
	return Puzzle{}, fmt.Errorf("%w: every puzzle and its images seen", ErrNoPuzzle)
}
