package ai

import (
	"context"
	_ "embed"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tttbot/tttbot/ai/internal/bitboard"
	"github.com/tttbot/tttbot/game"
)

// Hard on two-player gravity boards that fit a 64-bit bitboard (standard
// Connect Four among them) plays from an opening book, else solves the
// position exactly (ai/internal/bitboard), and only when the budget runs out
// before the solver finishes falls back to the heuristic search.

// connectFourBook is the opening book of standard Connect Four, made by
// ai/internal/bookgen: who wins every position a game can reach with at
// most eight stones, whoever played them (112,912 positions up to mirror
// symmetry), and hints at the ninth (7,499: see ai/internal/bookgen); 59 KB.
//
//go:embed connect4.book
var connectFourBook []byte

var (
	bookOnce     sync.Once
	embeddedBook *bitboard.Book
)

// openingBook returns the embedded book, parsed on first use, or nil.
func openingBook() *bitboard.Book {
	bookOnce.Do(func() {
		if len(connectFourBook) == 0 {
			return // a build without a book plays from the solver alone
		}
		b, err := bitboard.ParseBook(connectFourBook)
		if err != nil {
			panic("ai: embedded opening book: " + err.Error()) // a build defect, caught by the tests
		}
		embeddedBook = b
	})
	return embeddedBook
}

// solverShare is the part of the budget the exact solver may use; the
// rest is left to the heuristic search should the solver not finish. With
// more than openingEmpty cells free the solver rarely finishes in time
// (a 7×6 position with 8 stones takes it half a second on average, one
// with 6 several), so there it gets only openingShare and the heuristic
// search, which then chooses the move, gets a fair part.
const (
	solverShare  = 0.95
	openingShare = 0.5
	openingEmpty = 34
)

// exactMove tries to choose g's move by book or solver. ok is false when
// neither finished within its share of the budget; nodes is what the
// attempt spent either way.
//
// When the solver does not finish, *columns is set to the columns the
// heuristic search may still choose from: what the solver and its helper
// left in the table may prove some moves worse than another (a move that
// loses against one that draws, typically), and those are left out.
func exactMove(ctx context.Context, geo *bitboard.Geometry, g *game.Game, opt Options, deadline time.Time, columns *[]bool) (c game.Coord, st Stats, ok bool) {
	p := geo.FromGame(g)
	coord := func(m uint64) game.Coord {
		at, _ := g.Target(game.Coord{Col: geo.Column(m)})
		return at
	}
	if m := geo.WinningMove(p); m != 0 {
		v, _ := geo.Trivial(p)
		return coord(m), scoreStats(geo, p, v, false), true
	}
	if m, v, weak, found := bitboard.BookMove(openingBook(), geo, g.Rules(), p); found {
		st := scoreStats(geo, p, v, weak)
		return coord(m), st, true
	}

	s := &bitboard.Solver{G: geo, Ctx: ctx}
	share := solverShare
	if geo.Cells()-p.Moves > openingEmpty {
		share = openingShare
	}
	if opt.MaxNodes > 0 {
		// Reproducible: a private, empty table, and a node budget.
		s.MaxNodes = int64(float64(opt.MaxNodes) * share)
		tbits := min(max(bits.Len64(uint64(s.MaxNodes)), 10), bitboard.SharedBits)
		s.TT = bitboard.PrivateTable(tbits)
		defer bitboard.ReleaseTable(tbits, s.TT)
	} else {
		s.TT = bitboard.SharedTable()
		s.Deadline = time.Now().Add(time.Duration(float64(time.Until(deadline)) * share))
	}
	// Who wins first, and a move that keeps it so; then, time allowing,
	// the fastest win or the slowest loss. At the book's deepest ply the
	// book already says who wins, and only the move is searched for.
	var helpers sync.WaitGroup
	var helperNodes atomic.Int64
	helpCtx, stopHelpers := context.WithCancel(ctx)
	defer helpers.Wait()
	defer stopHelpers()
	v, done := bookValue(geo, g.Rules(), p)
	var found atomic.Uint64 // a move a helper proved to keep the book's value
	keepHelpers := opt.MaxNodes == 0 && done && v >= 0
	if opt.MaxNodes == 0 {
		if keepHelpers {
			// The helper looks for the move too, and stops the main
			// search when it finds one: the main search can spend the
			// whole budget on one child that is slow to prove while
			// the helper proves another in milliseconds.
			mainCtx, stopMain := context.WithCancel(ctx)
			defer stopMain()
			s.Ctx = mainCtx
			helpKeep(helpCtx, &helpers, &helperNodes, geo, p, s.TT, s.Deadline, bitboard.Sign(v), func(m uint64) {
				if found.CompareAndSwap(0, m) {
					stopMain()
				}
			})
		} else {
			helpSolve(helpCtx, &helpers, &helperNodes, geo, p, s.TT, s.Deadline)
		}
	}
	if !done {
		v, done = s.Solve(p, true)
	}
	var m uint64
	known := done // who wins p, from the book or the solver
	if done && v < 0 {
		// Lost against perfect play: the slowest loss if the solver
		// finds it in half the time left, else the heuristic's choice
		// among the moves that do not lose at once, which makes the
		// win hardest for an opponent who can err.
		if s.MaxNodes > 0 {
			s.MaxNodes = s.Nodes + (s.MaxNodes-s.Nodes)/2
		} else {
			s.Deadline = time.Now().Add(time.Until(s.Deadline) / 2)
		}
		if exact, ok := s.Solve(p, false); ok {
			if m, ok := s.Best(p, exact, false); ok {
				st := scoreStats(geo, p, exact, false)
				st.Nodes = s.Nodes + helperNodes.Load()
				return coord(m), st, true
			}
		}
		done = false
	} else if done {
		m, done = s.Best(p, v, true)
		if hm := found.Load(); !done && hm != 0 {
			m, done = hm, true
		}
		s.Ctx, s.Stopped = ctx, s.Stopped && !done
		if keepHelpers {
			// Their search is over, whoever won it; what they would
			// test next does not help the exact score below.
			stopHelpers()
			helpers.Wait()
		}
	}
	if !done {
		stopHelpers()
		helpers.Wait()
		nodes := s.Nodes + helperNodes.Load()
		floor := -1 // nothing is known of p: no child is worse than a loss
		if known {
			floor = bitboard.Sign(v)
		}
		if m, win := bitboard.PruneProved(geo, p, s.TT, floor, columns); win {
			return coord(m), Stats{Nodes: nodes, Complete: true, Score: Win - int64(geo.Cells()-p.Moves), Depth: 1}, true
		}
		return game.Coord{}, Stats{Nodes: nodes}, false
	}
	st = scoreStats(geo, p, v, true)
	if exact, ok := s.Solve(p, false); ok {
		if em, ok := s.Best(p, exact, false); ok {
			m, st = em, scoreStats(geo, p, exact, false)
		}
	}
	st.Nodes = s.Nodes + helperNodes.Load()
	return coord(m), st, true
}

// helpSolve starts helpers on the other CPUs for a timed solve (Lazy SMP,
// as chess engines do it): each solves p's children one by one, from the
// other end of the usual order, into the shared table, where the main
// search finds their bounds instead of searching them itself. They stop
// when ctx ends; their nodes are added to nodes.
func helpSolve(ctx context.Context, wg *sync.WaitGroup, nodes *atomic.Int64, geo *bitboard.Geometry, p bitboard.Pos, tt *bitboard.Table, deadline time.Time) {
	moves := geo.Moves(p)
	for w := 1; w < min(runtime.GOMAXPROCS(0), maxHelpers+1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := &bitboard.Solver{G: geo, TT: tt, Ctx: ctx, Deadline: deadline}
			for i := range moves {
				m := moves[(len(moves)-w*(i+1)%len(moves)+len(moves))%len(moves)]
				if geo.Wins(p, m) {
					continue
				}
				if child := p.Play(m); child.Moves < geo.Cells() {
					h.Solve(child, true)
				}
				if h.Stopped {
					break
				}
			}
			nodes.Add(h.Nodes)
		}()
	}
}

// helpKeep starts helpers on the other CPUs for a timed search of a move
// that keeps want, p's value (0 or +1) for its mover: each tests p's
// children that do not lose at once, from the other end of the usual
// order, and calls keep with the first it proves to keep the value. They
// stop when ctx ends; their nodes are added to nodes.
func helpKeep(ctx context.Context, wg *sync.WaitGroup, nodes *atomic.Int64, geo *bitboard.Geometry, p bitboard.Pos, tt *bitboard.Table, deadline time.Time, want int, keep func(uint64)) {
	var moves []uint64
	for _, m := range geo.Moves(p) {
		if m&geo.NonLosing(p) != 0 {
			moves = append(moves, m)
		}
	}
	for w := 1; w < min(runtime.GOMAXPROCS(0), maxHelpers+1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := &bitboard.Solver{G: geo, TT: tt, Ctx: ctx, Deadline: deadline}
			defer func() { nodes.Add(h.Nodes) }()
			for i := range moves {
				m := moves[len(moves)-1-(i+w-1)%len(moves)]
				keeps, ok := h.Keeps(p, m, want)
				if !ok {
					return
				}
				if keeps {
					keep(m)
					return
				}
			}
		}()
	}
}

// maxHelpers bounds the helper goroutines of one timed solve.
const maxHelpers = 1

// bookValue returns who wins p (weakly: −1, 0 or +1) if the opening book
// holds it.
func bookValue(geo *bitboard.Geometry, r game.Rules, p bitboard.Pos) (int, bool) {
	b := openingBook()
	if b == nil || b.Rules != r || p.Moves > b.Plies {
		return 0, false
	}
	v, ok := b.Lookup(geo, p)
	return max(-1, min(1, v)), ok
}

// scoreStats reports a solver score of p in Stats' terms: ±(Win − plies)
// for a proved win or loss, 0 for a proved draw. A weak score knows the
// winner but not when: its Score counts the plies left on the board, the
// latest the game can end, and Distance is 0.
func scoreStats(geo *bitboard.Geometry, p bitboard.Pos, v int, weak bool) Stats {
	st := Stats{Complete: true, Depth: geo.Cells() - p.Moves}
	if v == 0 {
		st.Distance = geo.Cells() - p.Moves
		return st
	}
	plies := geo.Cells() - p.Moves
	if !weak {
		plies = geo.Plies(p, v)
		st.Distance = plies
	}
	st.Score = Win - int64(plies)
	if v < 0 {
		st.Score = -st.Score
	}
	return st
}
