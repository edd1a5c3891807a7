package puzzle

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot/ai"
)

// TestPoolProofs proves every puzzle of the embedded pool again with the
// exact solver: the mover wins, in exactly WinIn moves, with exactly one
// winning first move (not forced, in Connect Four: the defender threatens
// no win at once), the difficulty fits WinIn, and the main line is the one
// best play gives. The puzzles are proved in parallel, one a CPU.
func TestPoolProofs(t *testing.T) {
	loadPool()
	var all []Puzzle
	for _, k := range Kinds() {
		for _, d := range Difficulties() {
			ps := Pool(k, d)
			if len(ps) == 0 {
				t.Errorf("no %s %s puzzles in the pool", d, k)
			}
			all = append(all, ps...)
		}
	}
	start := time.Now()
	work := make(chan Puzzle)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				checkProof(t, p)
			}
		}()
	}
	for _, p := range all {
		work <- p
	}
	close(work)
	wg.Wait()
	t.Logf("proved %d puzzles in %v", len(all), time.Since(start).Round(time.Millisecond))
}

func checkProof(t *testing.T, p Puzzle) {
	ctx := context.Background()
	g, err := p.Position()
	if err != nil {
		t.Errorf("%s: %v", p.ID, err)
		return
	}
	v, err := ai.Solve(ctx, g)
	if err != nil {
		t.Errorf("%s: %v", p.ID, err)
		return
	}
	if len(p.Moves) < minStones(p.Rules) {
		t.Errorf("%s: %d stones, fewer than %d", p.ID, len(p.Moves), minStones(p.Rules))
	}
	if p.Rules.Gravity && threatened(g) {
		t.Errorf("%s: the first move is forced: the defender threatens to win at once", p.ID)
	}
	if v.Outcome != ai.Won || v.Plies != 2*p.WinIn-1 {
		t.Errorf("%s: %v, want a win in %d moves (%d plies)", p.ID, v, p.WinIn, 2*p.WinIn-1)
	}
	var winners []int
	for i, m := range legalMoves(g) {
		mv, _, err := moveValue(ctx, g, m, 0)
		if err != nil {
			t.Errorf("%s: %v", p.ID, err)
			return
		}
		if mv.Outcome == ai.Won {
			winners = append(winners, i)
		}
		if m == p.Line[0] && mv.Outcome != ai.Won {
			t.Errorf("%s: the main line's first move %v does not win", p.ID, m)
		}
	}
	if len(winners) != 1 {
		t.Errorf("%s: %d winning first moves, want exactly 1", p.ID, len(winners))
	}
	if d, ok := difficultyOf(p.Kind, p.Rules, p.WinIn); !ok || d != p.Difficulty {
		t.Errorf("%s: a win in %d is %q, the pool says %q", p.ID, p.WinIn, d, p.Difficulty)
	}
	line, err := playOut(ctx, g, len(p.Line)+1)
	if err != nil {
		t.Errorf("%s: %v", p.ID, err)
	} else if !slices.Equal(line, p.Line) {
		t.Errorf("%s: main line %v, best play gives %v", p.ID, p.Line, line)
	}
}

// TestPoolFormatRoundTrips reads the pool, writes every puzzle back and
// reads it again; no position comes twice, not even turned or mirrored.
func TestPoolFormatRoundTrips(t *testing.T) {
	ps, err := parsePool(poolText)
	if err != nil {
		t.Fatal(err)
	}
	positions := map[string]string{}
	for _, p := range ps {
		key := positionKey(p.Rules, p.Moves)
		if other, ok := positions[key]; ok {
			t.Errorf("%s and %s are one position, turned or mirrored", other, p.ID)
		}
		positions[key] = p.ID
		q, err := parsePoolLine(formatPoolLine(p))
		if err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
		if q.ID != p.ID || !slices.Equal(q.Moves, p.Moves) || !slices.Equal(q.Line, p.Line) || q.WinIn != p.WinIn {
			t.Errorf("%s: round trip gave %+v", p.ID, q)
		}
		if len(p.ID) > 50 {
			t.Errorf("%s: ID of %d characters, over 50", p.ID, len(p.ID))
		}
	}
}

func TestParsePoolRefuses(t *testing.T) {
	for _, line := range []string{
		"c4-33 easy 2",               // a field short
		"c4-3x easy 2 1",             // not a column
		"c4-325564224131 hard 2 302", // a win in 2 is easy
		"c4-325564224131 easy 2 30",  // line too short
		"t993-0 easy 2 123",          // no such board
		"c4-0000000 easy 2 123",      // a full column
		"t333-0284 easy two 613",     // not a number
	} {
		if _, err := parsePool([]byte(line)); err == nil {
			t.Errorf("%q: parsed", line)
		}
	}
}

func TestPoolHandsOutCopies(t *testing.T) {
	p := Pool(ConnectFour, Easy)[0]
	p.Moves[0].Col, p.Line[0].Col = 9, 9
	if q := Pool(ConnectFour, Easy)[0]; q.Moves[0].Col == 9 || q.Line[0].Col == 9 {
		t.Error("a change to a puzzle Pool returned changed the pool")
	}
}
