package puzzle

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// pool.txt is the embedded pool, made by puzzle/internal/puzzlegen and
// proved again by TestPoolProofs. One puzzle a line:
//
//	<id> <difficulty> <win in> <main line>
//
// The ID holds the kind, the board and the moves (see encodeID); the main
// line is written as the moves in the ID are. Lines starting with # are
// comments.
//
//go:embed pool.txt
var poolText []byte

var (
	poolOnce sync.Once
	pool     map[Kind]map[Difficulty][]Puzzle
	poolByID map[string]Puzzle
)

// loadPool parses the embedded pool once.
func loadPool() {
	poolOnce.Do(func() {
		ps, err := parsePool(poolText)
		if err != nil {
			panic("puzzle: embedded pool: " + err.Error()) // a build defect, caught by the tests
		}
		pool = map[Kind]map[Difficulty][]Puzzle{}
		poolByID = map[string]Puzzle{}
		for _, p := range ps {
			if pool[p.Kind] == nil {
				pool[p.Kind] = map[Difficulty][]Puzzle{}
			}
			pool[p.Kind][p.Difficulty] = append(pool[p.Kind][p.Difficulty], p)
			poolByID[p.ID] = p
		}
	})
}

// Pool returns the embedded puzzles of kind k and difficulty d, in the
// pool file's order: copies the caller may keep and change.
func Pool(k Kind, d Difficulty) []Puzzle {
	loadPool()
	out := make([]Puzzle, len(pool[k][d]))
	for i, p := range pool[k][d] {
		out[i] = p.clone()
	}
	return out
}

// clone returns p with its own moves and line.
func (p Puzzle) clone() Puzzle {
	p.Moves, p.Line = slices.Clone(p.Moves), slices.Clone(p.Line)
	return p
}

// parsePool reads a pool file.
func parsePool(text []byte) ([]Puzzle, error) {
	var out []Puzzle
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := parsePoolLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if seen[p.ID] {
			return nil, fmt.Errorf("line %d: %s twice", n, p.ID)
		}
		seen[p.ID] = true
		out = append(out, p)
	}
	return out, sc.Err()
}

func parsePoolLine(line string) (Puzzle, error) {
	f := strings.Fields(line)
	if len(f) != 4 {
		return Puzzle{}, fmt.Errorf("%d fields, want 4: id difficulty win-in line", len(f))
	}
	k, r, moves, err := decodeID(f[0])
	if err != nil {
		return Puzzle{}, err
	}
	d := Difficulty(f[1])
	n, err := strconv.Atoi(f[2])
	if err != nil {
		return Puzzle{}, fmt.Errorf("win in %q: %w", f[2], err)
	}
	if got, ok := difficultyOf(k, r, n); !ok || got != d {
		return Puzzle{}, fmt.Errorf("a win in %d on %s is not %q", n, f[0], d)
	}
	g, err := replay(r, moves)
	if err != nil {
		return Puzzle{}, err
	}
	line2, err := playEncoded(g, f[3])
	if err != nil {
		return Puzzle{}, fmt.Errorf("main line: %w", err)
	}
	if len(line2) != 2*n-1 {
		return Puzzle{}, fmt.Errorf("main line of %d moves for a win in %d", len(line2), n)
	}
	return Puzzle{ID: f[0], Kind: k, Difficulty: d, Rules: r, Moves: moves, WinIn: n, Line: line2, Rating: startRating(k, n)}, nil
}

// formatPoolLine writes p as parsePoolLine reads it.
func formatPoolLine(p Puzzle) string {
	return fmt.Sprintf("%s %s %d %s", p.ID, p.Difficulty, p.WinIn, writeMoves(p.Rules, p.Line))
}

// lookup returns the pool's puzzle with this ID.
func lookup(id string) (Puzzle, bool) {
	loadPool()
	p, ok := poolByID[id]
	return p.clone(), ok
}
