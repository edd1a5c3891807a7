package puzzle

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// maxPoolGames bounds GeneratePool's self-play games a kind, per puzzle
// wanted: a difficulty a kind cannot fill stops it instead of looping.
const maxPoolGames = 50

// GeneratePool makes a pool file (the embedded pool.txt's format) with per
// puzzles of every kind and difficulty, from self-play games seeded by
// seed; logf (may be nil) reports progress. A game gives at most one
// puzzle a difficulty, so that no two puzzles are steps of one line.
func GeneratePool(ctx context.Context, per int, seed uint64, logf func(string, ...any)) ([]byte, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	var all []Puzzle
	for _, k := range Kinds() {
		have := map[Difficulty]int{}
		ids := map[string]bool{}
		rs := rulesOf(k)
		full := func() bool {
			for _, d := range Difficulties() {
				if have[d] < per {
					return false
				}
			}
			return true
		}
		for game := 0; !full(); game++ {
			if game >= maxPoolGames*per {
				return nil, fmt.Errorf("%s: %d games gave %v of %d puzzles a difficulty", k, game, have, per)
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			rng := rand.New(rand.NewPCG(seed, uint64(game)<<8|uint64(len(k))))
			r := rs[rng.IntN(len(rs))]
			moves, err := selfPlay(ctx, r, rng)
			if err != nil {
				return nil, err
			}
			took := map[Difficulty]bool{}
			want := func(d Difficulty, id string) bool {
				return have[d] < per && !took[d] && !ids[id]
			}
			for _, p := range findPuzzles(ctx, k, r, moves, want) {
				if !want(p.Difficulty, p.ID) {
					continue
				}
				took[p.Difficulty], ids[p.ID] = true, true
				have[p.Difficulty]++
				all = append(all, p)
			}
			logf("%s: game %d: %v", k, game+1, have)
		}
	}
	slices.SortStableFunc(all, func(a, b Puzzle) int {
		if c := strings.Compare(string(a.Kind), string(b.Kind)); c != 0 {
			return c
		}
		if c := slices.Index(Difficulties(), a.Difficulty) - slices.Index(Difficulties(), b.Difficulty); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "# The embedded puzzle pool: made by go run ./puzzle/internal/puzzlegen -per %d -seed %d\n", per, seed)
	b.WriteString("# <id> <difficulty> <win in> <main line>: see pool.go and docs/puzzles.md\n")
	for _, p := range all {
		b.WriteString(formatPoolLine(p) + "\n")
	}
	return []byte(b.String()), nil
}
