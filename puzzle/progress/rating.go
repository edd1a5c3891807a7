package progress

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tttbot/tttbot/puzzle"
	"github.com/tttbot/tttbot/rating"
)

// model rates a counted try as a game between the person and the puzzle:
// OpenSkill's defaults with LimitSigma, as games between people are rated,
// so a solve never lowers the figure the person sees.
func model() rating.Model {
	m := rating.Default()
	m.LimitSigma = true
	return m
}

// puzzleRatingKey is the store key of a puzzle's own rating.
func puzzleRatingKey(id string) string { return "puzzlerating:" + id }

// PuzzleRating is a puzzle's own rating, which every counted try moves as
// it moves the person's: a puzzle many people fail rises.
type PuzzleRating struct {
	Rating rating.Rating `json:"rating"`
	Tries  int           `json:"tries"` // counted tries that moved it
}

// initialRating is a puzzle's rating before anyone has tried it: the Mu
// its generator estimated (puzzle.Puzzle.Rating, longer wins higher), with
// a new player's uncertainty, so the first tries move it the most.
func initialRating(p puzzle.Puzzle) rating.Rating {
	r := model().New()
	if p.Rating > 0 {
		r.Mu = p.Rating
	}
	return r
}

// rate is the person's and the puzzle's ratings after a counted try:
// solving is the person's win, failing the puzzle's.
func rate(person, puz rating.Rating, solved bool) (rating.Rating, rating.Rating, error) {
	ranks := []int{1, 0}
	if solved {
		ranks = []int{0, 1}
	}
	after, err := model().Rate([]rating.Rating{person, puz}, ranks)
	if err != nil {
		return person, puz, err
	}
	return after[0], after[1], nil
}

// loadPuzzleRating reads p's own rating (its initial one when nobody has
// tried it).
func (k *Keeper) loadPuzzleRating(ctx context.Context, p puzzle.Puzzle) (PuzzleRating, error) {
	data, found, err := k.docs.LoadDocument(ctx, puzzleRatingKey(p.ID))
	if err != nil {
		return PuzzleRating{Rating: initialRating(p)}, err
	}
	return decodePuzzleRating(p, data, found)
}

// decodePuzzleRating reads p's stored rating document (its initial rating
// when none is stored).
func decodePuzzleRating(p puzzle.Puzzle, data []byte, found bool) (PuzzleRating, error) {
	pr := PuzzleRating{Rating: initialRating(p)}
	if !found {
		return pr, nil
	}
	if err := json.Unmarshal(data, &pr); err != nil {
		return pr, fmt.Errorf("decode rating of puzzle %s: %w", p.ID, err)
	}
	return pr, nil
}

// movePuzzleRating applies one counted try to p's own rating: the game
// against the person's rating before it (person). It is written after the
// person's record, which is the try's one durable account; see Keeper.Press
// for why a lost write here is acceptable.
func (k *Keeper) movePuzzleRating(ctx context.Context, p puzzle.Puzzle, person rating.Rating, solved bool) error {
	_, err := k.docs.UpdateDocument(ctx, puzzleRatingKey(p.ID), "", func(data []byte, found bool) ([]byte, error) {
		pr, err := decodePuzzleRating(p, data, found)
		if err != nil {
			return nil, err
		}
		_, after, err := rate(person, pr.Rating, solved)
		if err != nil {
			return nil, err
		}
		pr.Rating, pr.Tries = after, pr.Tries+1
		return json.Marshal(pr)
	})
	return err
}
