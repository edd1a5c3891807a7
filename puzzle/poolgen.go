package puzzle

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/tttbot/tttbot/game"
)

// maxPoolGames bounds GeneratePool's self-play games, per puzzle wanted:
// a difficulty that cannot be filled stops it instead of looping.
const maxPoolGames = 50

// maxClassicStones bounds the classic positions GeneratePool walks: a
// forced win of two moves or more needs room, and beyond ten stones a 4×4
// board has none of the long ones.
const maxClassicStones = 10

// GeneratePool makes a pool file (the embedded pool.txt's format) with per
// puzzles of every kind and difficulty (or all there are, if fewer),
// seeded by seed; logf (may be nil) reports progress. No position comes
// twice, not even rotated, mirrored or reached by another move order
// (positionKey).
//
// Connect Four puzzles come from self-play games (selfPlay), at most one
// a game, so that no two puzzles are steps of one game's line. Classic
// boards are small enough to walk every position a game can reach (up to
// maxClassicStones stones), which self-play would take thousands of games
// to cover: their long wins are rare. Each difficulty then keeps per of its
// puzzles, the smaller board's first, the rest chosen by seed.
func GeneratePool(ctx context.Context, per int, seed uint64, logf func(string, ...any)) ([]byte, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	c4, err := connectFourPool(ctx, per, seed, logf)
	if err != nil {
		return nil, err
	}
	classic, err := classicPool(ctx, per, seed, logf)
	if err != nil {
		return nil, err
	}
	all := append(c4, classic...)
	slices.SortStableFunc(all, func(a, b Puzzle) int {
		if c := slices.Index(Kinds(), a.Kind) - slices.Index(Kinds(), b.Kind); c != 0 {
			return c
		}
		if c := slices.Index(Difficulties(), a.Difficulty) - slices.Index(Difficulties(), b.Difficulty); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "# The embedded puzzle pool, made by: go run ./puzzle/internal/puzzlegen -per %d -seed %d\n", per, seed)
	b.WriteString("# <id> <difficulty> <win in> <main line>: see pool.go and docs/puzzles.md\n")
	for _, p := range all {
		b.WriteString(formatPoolLine(p) + "\n")
	}
	return []byte(b.String()), nil
}

// connectFourPool plays self-play games until every difficulty has per
// Connect Four puzzles.
func connectFourPool(ctx context.Context, per int, seed uint64, logf func(string, ...any)) ([]Puzzle, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	var out []Puzzle
	have := map[Difficulty]int{}
	positions := map[string]bool{}
	r := connectFourRules
	for games := 0; have[Easy] < per || have[Medium] < per || have[Hard] < per; games++ {
		if games >= maxPoolGames*per {
			return nil, fmt.Errorf("connect4: %d games gave %v of %d puzzles a difficulty", games, have, per)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rng := rand.New(rand.NewPCG(seed, uint64(games)))
		moves, err := selfPlay(ctx, r, rng)
		if err != nil {
			return nil, err
		}
		want := func(d Difficulty, moves []game.Coord) bool {
			return have[d] < per && !positions[positionKey(r, moves)]
		}
		if found := findPuzzles(ctx, ConnectFour, r, moves, want, 1, maxWinIn(ConnectFour, Hard)+2); len(found) > 0 {
			p := found[0]
			positions[positionKey(r, p.Moves)] = true
			have[p.Difficulty]++
			out = append(out, p)
		}
		logf("connect4: game %d: %v", games+1, have)
	}
	return out, nil
}

// classicPool walks every classic position a game can reach and keeps per
// puzzles a difficulty.
func classicPool(ctx context.Context, per int, seed uint64, logf func(string, ...any)) ([]Puzzle, error) {
	found := map[Difficulty][]Puzzle{}
	for _, r := range rulesOf(Classic) {
		visited := map[string]bool{}
		var walk func(g *game.Game, moves []game.Coord) error
		walk = func(g *game.Game, moves []game.Coord) error {
			key := positionKey(r, moves)
			if visited[key] {
				return nil
			}
			visited[key] = true
			if err := ctx.Err(); err != nil {
				return err
			}
			if p, err := build(ctx, Classic, r, moves); err == nil {
				found[p.Difficulty] = append(found[p.Difficulty], p)
			}
			if len(moves) >= maxClassicStones {
				return nil
			}
			for _, m := range legalMoves(g) {
				child, err := after(g, m)
				if err != nil {
					return err
				}
				if child.Over() {
					continue
				}
				if err := walk(child, append(moves[:len(moves):len(moves)], m)); err != nil {
					return err
				}
			}
			return nil
		}
		g, err := game.New(r, game.Fast, tokens)
		if err != nil {
			return nil, err
		}
		if err := walk(g, nil); err != nil {
			return nil, err
		}
		logf("classic %d×%d k=%d: %d positions", r.Rows, r.Cols, r.Win, len(visited))
	}
	var out []Puzzle
	for _, d := range Difficulties() {
		ps := found[d]
		logf("classic %s: %d puzzles, keeping %d", d, len(ps), min(per, len(ps)))
		rng := rand.New(rand.NewPCG(seed, uint64(len(d))))
		rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		// The smaller board's puzzles first: they are the fewer, and a
		// medium pool of 4×4 alone would leave out 3×3's wins in 3.
		slices.SortStableFunc(ps, func(a, b Puzzle) int { return a.Rules.Cells() - b.Rules.Cells() })
		out = append(out, ps[:min(per, len(ps))]...)
	}
	return out, nil
}
