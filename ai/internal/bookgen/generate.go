package main

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tttbot/tttbot/ai/internal/bitboard"
	"github.com/tttbot/tttbot/game"
)

// bookConfig says which opening book generateBook builds and where.
type bookConfig struct {
	Rules     game.Rules // a two-player gravity board that fits a bitboard
	Plies     int        // the book holds every reachable position with at most this many stones
	Out       string     // the book file to write
	Progress  string     // solved positions are appended here as they finish; default Out+".progress"
	TableBits int        // the solver's table: 2^TableBits slots of 16 bytes; default 23
	Strong    bool       // store how fast each side wins, not only who wins (much slower)
	Workers   int        // leaves solved at once, sharing one table; default GOMAXPROCS
	// Deeper is the progress file of a run one ply deeper, if any: a leaf
	// whose every child is known there is worked out from them instead of
	// solved (so an unfinished deeper run still shortens this one). Weak
	// books only.
	Deeper string
	// Partial writes the book from the progress file as it stands, solving
	// nothing: every position the solved leaves decide (all of its
	// children known), plus the entries of Base. For shipping what an
	// unfinished generation has, and resuming it later.
	Partial bool
	Base    string // with Partial: a complete, shallower book whose entries are kept
	Logf    func(format string, args ...any)
}

// generateBook builds an opening book with the exact solver: it solves
// every position a game can reach with exactly Plies stones (whoever
// played them; one of each mirror pair; none the solver reads off at
// once), in depth-first order so neighbours share the table, then works
// out the earlier positions by negamax over the book and writes it.
// Interrupted, it resumes from the progress file. The embedded book
// (connect4.book) is its output for standard Connect Four.
func generateBook(cfg bookConfig) error {
	if err := cfg.Rules.Validate(); err != nil {
		return err
	}
	geo := bitboard.NewGeometry(cfg.Rules)
	if geo == nil {
		return fmt.Errorf("%d×%d with %d players does not fit the bitboard solver", cfg.Rules.Cols, cfg.Rules.Rows, cfg.Rules.Players)
	}
	setDefaults(&cfg.Progress, cfg.Out+".progress", &cfg.TableBits, &cfg.Logf)
	weak := !cfg.Strong
	done, err := loadProgress(cfg.Progress)
	if err != nil {
		return err
	}
	var deeper map[uint64]int8
	if cfg.Deeper != "" {
		if !weak {
			return fmt.Errorf("a deeper run's progress can only help a weak book")
		}
		if deeper, err = loadProgress(cfg.Deeper); err != nil {
			return err
		}
	}
	leaves := bookLeaves(geo, cfg.Plies)
	var todo []bitboard.Pos // in depth-first order: workers solve neighbours and share what the table learns
	for _, p := range leaves {
		if _, ok := done[geo.Canonical(p)]; !ok {
			todo = append(todo, p)
		}
	}
	cfg.Logf("%d positions at ply %d, %d already solved, %d to go", len(leaves), cfg.Plies, len(leaves)-len(todo), len(todo))

	if cfg.Partial {
		return writePartialBook(cfg, geo, done, len(leaves))
	}

	tt := bitboard.NewTable(cfg.TableBits)
	err = solveAll(cfg.Progress, len(todo), cfg.workers(), cfg.Logf, func(i int) (uint64, int, int64) {
		p := todo[i]
		if v, ok := fromChildren(geo, p, deeper); ok {
			return geo.Canonical(p), v, 0
		}
		s := &bitboard.Solver{G: geo, TT: tt, Ctx: context.Background()}
		v, _ := s.Solve(p, weak)
		return geo.Canonical(p), v, s.Nodes
	}, func(k uint64, v int) { done[k] = int8(v) })
	if err != nil {
		return err
	}

	return writeBook(cfg, bitboard.NewBook(cfg.Rules, cfg.Plies, weak, true, deriveBook(geo, cfg.Plies, weak, done)))
}

// writeBook writes book to cfg.Out, once it has checked that every value in
// it is the one negamax gives over its children: a book that disagrees with
// itself would make Hard play a lost move with confidence.
func writeBook(cfg bookConfig, book *bitboard.Book) error {
	if _, err := book.Verify(bitboard.NewGeometry(book.Rules), -1); err != nil {
		return fmt.Errorf("%s not written: %w", cfg.Out, err)
	}
	data, err := book.MarshalBinary()
	if err != nil {
		return err
	}
	if err := os.WriteFile(cfg.Out, data, 0o644); err != nil {
		return err
	}
	cfg.Logf("wrote %s: %d positions (complete: %v), %d bytes", cfg.Out, book.Len(), book.Complete, len(data))
	return nil
}

// readBookFile reads and parses a book file.
func readBookFile(path string) (*bitboard.Book, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return bitboard.ParseBook(data)
}

// setDefaults fills in what a generation's config left unset: the
// progress file, the solver table's size and the log.
func setDefaults(progress *string, defaultProgress string, tableBits *int, logf *func(string, ...any)) {
	if *progress == "" {
		*progress = defaultProgress
	}
	if *tableBits == 0 {
		*tableBits = 23
	}
	if *logf == nil {
		*logf = func(string, ...any) {}
	}
}

// solveAll runs solve on items 0 to n−1 on workers goroutines, taken in
// order from one counter. Each result is appended to the progress file
// at path ("key score") as soon as it is known, so an interrupted run
// loses nothing it finished, and handed to keep; both under one lock.
// The pace is logged every ten seconds. It stops at the first write
// error.
func solveAll(path string, n, workers int, logf func(string, ...any), solve func(i int) (key uint64, score int, nodes int64), keep func(key uint64, score int)) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	var (
		mu          sync.Mutex // guards the file, keep, finished, nodes and werr
		next        atomic.Int64
		finished    int
		nodes       int64
		werr        error
		wg          sync.WaitGroup
		start, last = time.Now(), time.Now()
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				k, v, spent := solve(i)
				mu.Lock()
				keep(k, v)
				nodes += spent
				finished++
				if _, err := fmt.Fprintf(f, "%d %d\n", k, v); err != nil && werr == nil {
					werr = err
				}
				if time.Since(last) > 10*time.Second {
					last = time.Now()
					el := time.Since(start)
					logf("%d/%d done in %v (%.0f nodes/s), about %v to go", finished, n, el.Round(time.Second),
						float64(nodes)/el.Seconds(), (el / time.Duration(finished) * time.Duration(n-finished)).Round(time.Second))
				}
				stop := werr != nil
				mu.Unlock()
				if stop {
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := f.Close(); err != nil && werr == nil {
		werr = err
	}
	if werr == nil {
		logf("did %d in %v", finished, time.Since(start).Round(time.Second))
	}
	return werr
}

// writePartialBook writes what the solved leaves decide (weak books only),
// with the entries of cfg.Base.
func writePartialBook(cfg bookConfig, geo *bitboard.Geometry, done map[uint64]int8, leaves int) error {
	if cfg.Strong {
		return fmt.Errorf("a partial book is weak")
	}
	scores := deriveBook(geo, cfg.Plies, true, done)
	if cfg.Base != "" {
		base, err := readBookFile(cfg.Base)
		if err != nil {
			return err
		}
		if base.Rules != cfg.Rules || !base.Weak || !base.Complete || base.Plies > cfg.Plies {
			return fmt.Errorf("%s is not a complete weak book of these rules within %d plies", cfg.Base, cfg.Plies)
		}
		for i := range base.Len() {
			k, v := base.Entry(i)
			if old, ok := scores[k]; ok && int(old) != v {
				return fmt.Errorf("%s disagrees with the progress on position %x: %d, %d", cfg.Base, k, v, old)
			}
			scores[k] = int8(v)
		}
	}
	cfg.Logf("%d of %d leaves solved: a partial book", len(done), leaves)
	return writeBook(cfg, bitboard.NewBook(cfg.Rules, cfg.Plies, true, false, scores))
}

func (cfg bookConfig) workers() int {
	if cfg.Workers > 0 {
		return cfg.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// loadProgress reads "key score" lines from a progress file, if any.
func loadProgress(path string) (map[uint64]int8, error) {
	done := map[uint64]int8{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return done, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), " ")
		key, err1 := strconv.ParseUint(k, 10, 64)
		score, err2 := strconv.Atoi(v)
		if !ok || err1 != nil || err2 != nil {
			continue // a line cut short by an interruption: solved again
		}
		done[key] = int8(score)
	}
	return done, sc.Err()
}

// bookLeaves lists, in depth-first order, one position per mirror pair
// with exactly plies stones that a game can reach and that is not
// trivial.
func bookLeaves(geo *bitboard.Geometry, plies int) []bitboard.Pos {
	var leaves []bitboard.Pos
	seen := map[uint64]bool{}
	var walk func(p bitboard.Pos)
	walk = func(p bitboard.Pos) {
		k := geo.Canonical(p)
		if seen[k] {
			return
		}
		seen[k] = true
		if p.Moves == plies {
			if _, trivial := geo.Trivial(p); !trivial {
				leaves = append(leaves, p)
			}
			return
		}
		for _, m := range geo.Moves(p) {
			if !geo.Wins(p, m) && p.Moves+1 < geo.Cells() {
				walk(p.Play(m))
			}
		}
	}
	walk(bitboard.Pos{})
	return leaves
}

// fromChildren works out who wins p (−1, 0 or +1) from its children's
// values in known (canonical keys, as in a progress file), if every child
// is there or read off at once. p must not be won in one.
func fromChildren(geo *bitboard.Geometry, p bitboard.Pos, known map[uint64]int8) (int, bool) {
	if known == nil {
		return 0, false
	}
	best := -1
	for _, m := range geo.Moves(p) {
		child := p.Play(m)
		v, ok := 0, child.Moves == geo.Cells()
		if !ok {
			v, ok = geo.Trivial(child)
		}
		if !ok {
			var k int8
			k, ok = known[geo.Canonical(child)]
			v = int(k)
		}
		if !ok {
			return 0, false
		}
		best = max(best, -bitboard.Sign(v))
	}
	return best, true
}

// belowTrivial returns a walk over the children of a trivial position
// (once each) within plies: a player may pass up a win, and the positions
// after that are in the book too, though no value above needs them.
func belowTrivial(geo *bitboard.Geometry, plies int) func(p bitboard.Pos, visit func(bitboard.Pos)) {
	walked := map[uint64]bool{}
	return func(p bitboard.Pos, visit func(bitboard.Pos)) {
		k := geo.Canonical(p)
		if p.Moves >= plies || walked[k] {
			return
		}
		walked[k] = true
		for _, m := range geo.Moves(p) {
			if !geo.Wins(p, m) && p.Moves+1 < geo.Cells() {
				visit(p.Play(m))
			}
		}
	}
}

// deriveBook scores the non-trivial positions with at most plies stones
// whose value the solved leaves decide (every leaf below them known: all of
// them once a generation has finished): the best over the moves of minus
// the child's. A weak book keeps only the sign.
func deriveBook(geo *bitboard.Geometry, plies int, weak bool, leaves map[uint64]int8) map[uint64]int8 {
	const unknown = math.MaxInt8 // no score comes near it
	clamp := func(v int) int8 {
		if weak {
			return int8(max(-1, min(1, v)))
		}
		return int8(v)
	}
	memo := map[uint64]int8{}
	below := belowTrivial(geo, plies)
	var value func(p bitboard.Pos) int8
	value = func(p bitboard.Pos) int8 {
		if v, ok := geo.Trivial(p); ok {
			below(p, func(c bitboard.Pos) { value(c) })
			return clamp(v)
		}
		k := geo.Canonical(p)
		if v, ok := memo[k]; ok {
			return v
		}
		v := int8(unknown)
		if p.Moves == plies {
			if l, ok := leaves[k]; ok {
				v = clamp(int(l))
			}
		} else {
			best, all := -1<<30, true
			for _, m := range geo.Moves(p) {
				// Every child, known or not: what is below it may be.
				c := value(p.Play(m)) // no move wins at once: p is not trivial
				if c == unknown {
					all = false
				} else {
					best = max(best, -int(c))
				}
			}
			if all {
				v = clamp(best)
			}
		}
		memo[k] = v
		return v
	}
	value(bitboard.Pos{})
	for k, v := range memo {
		if v == unknown {
			delete(memo, k)
		}
	}
	return memo
}
