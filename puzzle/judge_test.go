package puzzle

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tttbot/tttbot/ai"
	"github.com/tttbot/tttbot/game"
)

// solveAlong plays a try along the main line, checking every verdict.
func solveAlong(t *testing.T, p Puzzle) []Verdict {
	t.Helper()
	ctx := context.Background()
	var played []game.Coord
	var out []Verdict
	for i := 0; i < len(p.Line); i += 2 {
		played = append(played, p.Line[i])
		v, err := Judge(ctx, p, played)
		if err != nil {
			t.Fatalf("%s after %v: %v", p.ID, played, err)
		}
		out = append(out, v)
		if i == len(p.Line)-1 {
			if v.Outcome != Solved || !slices.Equal(v.Line, p.Line) {
				t.Fatalf("%s: last move gave %+v, want solved with the main line", p.ID, v)
			}
			break
		}
		if v.Outcome != Continue || v.Reply != p.Line[i+1] {
			t.Fatalf("%s after %v: %+v, want continue with %v", p.ID, played, v, p.Line[i+1])
		}
		played = append(played, v.Reply)
	}
	return out
}

func TestJudgeSolvesAlongTheMainLine(t *testing.T) {
	for _, k := range Kinds() {
		for _, d := range Difficulties() {
			ps := Pool(k, d)
			if len(ps) == 0 {
				t.Fatalf("no %s %s puzzles", d, k)
			}
			solveAlong(t, ps[0])
		}
	}
}

// TestJudgeFailsWithRefutation plays every other first move of a puzzle:
// each must fail, with a refutation that starts with the defender's best
// reply and after which the solver has not won.
func TestJudgeFailsWithRefutation(t *testing.T) {
	ctx := context.Background()
	for _, k := range Kinds() {
		p := Pool(k, Medium)[0]
		g, err := p.Position()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range legalMoves(g) {
			if m == p.Line[0] {
				continue
			}
			v, err := Judge(ctx, p, []game.Coord{m})
			if err != nil {
				t.Fatalf("%s %v: %v", p.ID, m, err)
			}
			if v.Outcome != Failed || len(v.Line) == 0 {
				t.Fatalf("%s %v: %+v, want failed with a refutation", p.ID, m, v)
			}
			after, _ := after(g, m)
			want, err := bestMove(ctx, after, max(1, 2*(p.WinIn-1)))
			if err != nil {
				t.Fatal(err)
			}
			if v.Line[0] != want {
				t.Errorf("%s %v: refutation starts %v, the best reply is %v", p.ID, m, v.Line[0], want)
			}
			for i, c := range v.Line {
				if _, err := after.Play(after.Turn(), c); err != nil {
					t.Fatalf("%s %v: refutation move %d: %v", p.ID, m, i, err)
				}
			}
			if after.State() == game.Won && after.Winner() == g.Turn() {
				t.Errorf("%s %v: the solver wins along its own refutation %v", p.ID, m, v.Line)
			}
		}
	}
}

// TestJudgeFailsASlowerWin: after the first move, a move that still wins
// but needs more moves than are left fails.
func TestJudgeFailsASlowerWin(t *testing.T) {
	ctx := context.Background()
	found := false
	for _, p := range append(Pool(ConnectFour, Medium), Pool(ConnectFour, Hard)...) {
		g, _ := p.Position()
		g.Play(g.Turn(), p.Line[0])
		g.Play(g.Turn(), p.Line[1])
		for _, m := range legalMoves(g) {
			mv, _, err := moveValue(ctx, g, m, g.Rules().Cells())
			if err != nil {
				t.Fatal(err)
			}
			if mv.Outcome != ai.Won || mv.Plies <= 2*(p.WinIn-1)-1 {
				continue
			}
			found = true
			v, err := Judge(ctx, p, []game.Coord{p.Line[0], p.Line[1], m})
			if err != nil {
				t.Fatal(err)
			}
			if v.Outcome != Failed {
				t.Errorf("%s: %v wins in %d plies, %d left: %+v, want failed", p.ID, m, mv.Plies, 2*(p.WinIn-1)-1, v)
			}
			break
		}
		if found {
			return
		}
	}
	t.Skip("no pool puzzle has a slower win after its first move")
}

func TestJudgeIsDeterministic(t *testing.T) {
	ctx := context.Background()
	p := Pool(ConnectFour, Hard)[0]
	first := solveAlong(t, p)
	for range 2 {
		again := solveAlong(t, p)
		if !slices.EqualFunc(first, again, func(a, b Verdict) bool {
			return a.Outcome == b.Outcome && a.Reply == b.Reply && slices.Equal(a.Line, b.Line)
		}) {
			t.Fatalf("%s: %+v then %+v", p.ID, first, again)
		}
	}
	g, _ := p.Position()
	for _, m := range legalMoves(g) {
		a, err1 := Judge(ctx, p, []game.Coord{m})
		b, err2 := Judge(ctx, p, []game.Coord{m})
		if err1 != nil || err2 != nil || a.Outcome != b.Outcome || a.Reply != b.Reply || !slices.Equal(a.Line, b.Line) {
			t.Fatalf("%s %v: %+v %v then %+v %v", p.ID, m, a, err1, b, err2)
		}
	}
}

func TestJudgeRefusesBadTries(t *testing.T) {
	ctx := context.Background()
	p := Pool(ConnectFour, Medium)[0]
	wrongReply := p.Line[1]
	wrongReply.Col = (wrongReply.Col + 1) % 7
	for name, played := range map[string][]game.Coord{
		"none":          nil,
		"defender last": p.Line[:2],
		"off the board": {{Col: 9}},
		"wrong defence": {p.Line[0], wrongReply, p.Line[2]},
	} {
		if _, err := Judge(ctx, p, played); !errors.Is(err, ErrBadTry) {
			t.Errorf("%s: %v, want ErrBadTry", name, err)
		}
	}
	q := Pool(Classic, Easy)[0]
	taken := q.Moves[0]
	if _, err := Judge(ctx, q, []game.Coord{taken}); !errors.Is(err, ErrBadTry) {
		t.Errorf("a taken cell: %v, want ErrBadTry", err)
	}
}

// TestJudgeEveryFirstMove judges every legal first move of a sample of
// the pool (every eighth puzzle of each kind and difficulty): the main
// line's first move continues with the main line's reply, every other
// move fails with a refutation. It logs the slowest judgement, which is
// what the bot waits for.
func TestJudgeEveryFirstMove(t *testing.T) {
	ctx := context.Background()
	var worst time.Duration
	worstAt := ""
	n := 0
	for _, k := range Kinds() {
		for _, d := range Difficulties() {
			for i, p := range Pool(k, d) {
				if i%8 != 0 {
					continue
				}
				g, _ := p.Position()
				for _, m := range legalMoves(g) {
					start := time.Now()
					v, err := Judge(ctx, p, []game.Coord{m})
					if el := time.Since(start); el > worst {
						worst, worstAt = el, fmt.Sprintf("%s %v", p.ID, m)
					}
					n++
					switch {
					case err != nil:
						t.Fatalf("%s %v: %v", p.ID, m, err)
					case m == p.Line[0] && (v.Outcome != Continue || v.Reply != p.Line[1]):
						t.Errorf("%s %v: %+v, want continue with %v", p.ID, m, v, p.Line[1])
					case m != p.Line[0] && (v.Outcome != Failed || len(v.Line) == 0):
						t.Errorf("%s %v: %+v, want failed with a refutation", p.ID, m, v)
					}
				}
			}
		}
	}
	t.Logf("%d first moves judged, the slowest in %v (%s)", n, worst.Round(time.Millisecond), worstAt)
}

// TestJudgeAcceptsAnotherWin: after the first move (the only winning one),
// any move that still wins in time continues, and a try that keeps
// winning in time is solved, its Line the moves as played.
func TestJudgeAcceptsAnotherWin(t *testing.T) {
	ctx := context.Background()
	for _, p := range Pool(ConnectFour, Medium) {
		g, _ := p.Position()
		g.Play(g.Turn(), p.Line[0])
		g.Play(g.Turn(), p.Line[1])
		left := p.WinIn - 1
		for _, m := range legalMoves(g) {
			if m == p.Line[2] {
				continue
			}
			v, exact, err := moveValue(ctx, g, m, 2*left-1)
			if err != nil {
				t.Fatal(err)
			}
			if v.Outcome != ai.Won || !exact {
				continue
			}
			played := []game.Coord{p.Line[0], p.Line[1], m}
			for {
				verdict, err := Judge(ctx, p, played)
				if err != nil {
					t.Fatalf("%s %v: %v", p.ID, played, err)
				}
				if verdict.Outcome == Solved {
					if !slices.Equal(verdict.Line, played) || len(played) > 2*p.WinIn-1 {
						t.Fatalf("%s: solved with %v after %v", p.ID, verdict.Line, played)
					}
					return
				}
				if verdict.Outcome != Continue {
					t.Fatalf("%s %v: %+v", p.ID, played, verdict)
				}
				played = append(played, verdict.Reply)
				pos, _ := p.Position()
				for _, c := range played {
					pos.Play(pos.Turn(), c)
				}
				next, err := bestMove(ctx, pos, 2*p.WinIn)
				if err != nil {
					t.Fatal(err)
				}
				played = append(played, next)
			}
		}
	}
	t.Fatal("no medium Connect Four puzzle has a second winning move after its first")
}

func TestClassicIDsAreCanonical(t *testing.T) {
	r := game.Classic()
	a := []game.Coord{{Row: 0, Col: 0}, {Row: 1, Col: 1}, {Row: 2, Col: 2}, {Row: 0, Col: 1}}
	b := []game.Coord{{Row: 2, Col: 2}, {Row: 0, Col: 1}, {Row: 0, Col: 0}, {Row: 1, Col: 1}}
	if encodeID(Classic, r, a) != encodeID(Classic, r, b) {
		t.Errorf("one position, two IDs: %s and %s", encodeID(Classic, r, a), encodeID(Classic, r, b))
	}
	if _, err := Parse(context.Background(), "t333-8140"); !errors.Is(err, ErrUnknown) {
		t.Errorf("a classic ID out of order: %v, want ErrUnknown", err)
	}
	for _, p := range append(Pool(Classic, Easy), Pool(Classic, Hard)...) {
		if id := encodeID(Classic, p.Rules, p.Moves); id != p.ID {
			t.Errorf("%s: its moves encode as %s", p.ID, id)
		}
	}
}

// TestJudgeStopsWithItsContext: an ended context either stops Judge with
// its error or (when the searches were too short to notice) leaves the
// verdict as it is; it never makes a stopped search's guess a verdict.
func TestJudgeStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped := 0
	for _, p := range Pool(ConnectFour, Hard)[:30] {
		g, _ := p.Position()
		for _, m := range legalMoves(g) {
			got, err := Judge(ctx, p, []game.Coord{m})
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					t.Errorf("%s %v: %v, want context.Canceled", p.ID, m, err)
				}
				stopped++
				continue
			}
			want, err := Judge(context.Background(), p, []game.Coord{m})
			if err != nil {
				t.Fatal(err)
			}
			if got.Outcome != want.Outcome || got.Reply != want.Reply || !slices.Equal(got.Line, want.Line) {
				t.Errorf("%s %v: %+v with an ended context, %+v without", p.ID, m, got, want)
			}
		}
	}
	if stopped == 0 {
		t.Error("an ended context stopped no judgement")
	}
}

// TestDefenceBlocks: along every main line of the pool, a defender facing
// a win at once blocks it, even when it has two to block and loses
// whatever it does.
func TestDefenceBlocks(t *testing.T) {
	doubles := 0
	for _, k := range Kinds() {
		for _, d := range Difficulties() {
			for _, p := range Pool(k, d) {
				g, _ := p.Position()
				for i, m := range p.Line {
					if i%2 == 1 {
						threats := winningCells(g, 1-g.Turn())
						if len(threats) > 0 && !slices.Contains(threats, m) {
							t.Errorf("%s: defence %v misses the threats %v", p.ID, m, threats)
						}
						if len(threats) > 1 {
							doubles++
						}
					}
					if _, err := g.Play(g.Turn(), m); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	if doubles == 0 {
		t.Error("no main line has a defender facing two threats")
	}
}

// TestJudgeConcurrently judges the same tries from several goroutines at
// once, as replicas' requests do in one process: the solvers share their
// table, and every verdict is the same.
func TestJudgeConcurrently(t *testing.T) {
	ctx := context.Background()
	p := Pool(ConnectFour, Hard)[1]
	g, _ := p.Position()
	moves := legalMoves(g)
	want := make([]Verdict, len(moves))
	for i, m := range moves {
		v, err := Judge(ctx, p, []game.Coord{m})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = v
	}
	errs := make(chan error, 4*len(moves))
	for range 4 {
		go func() {
			for i, m := range moves {
				v, err := Judge(ctx, p, []game.Coord{m})
				if err == nil && (v.Outcome != want[i].Outcome || v.Reply != want[i].Reply || !slices.Equal(v.Line, want[i].Line)) {
					err = fmt.Errorf("%v: %+v, alone %+v", m, v, want[i])
				}
				errs <- err
			}
		}()
	}
	for range 4 * len(moves) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
