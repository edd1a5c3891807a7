// Command bookgen builds the opening book of a two-player gravity board
// with tttbot's own exact solver (package solve): every position a game
// can reach with at most -plies stones, whoever played them, with its exact
// score. It solves the positions at exactly -plies stones and works out the
// earlier ones from them by negamax over the book.
//
// From the repository root:
//
//	nice -n 15 go run ./ai/internal/bookgen -plies 6 -out ai/internal/solve/connect4.book
//
// Each solved position is appended to a progress file (-progress, default
// the output path plus ".progress") as soon as it is known, so an
// interrupted run resumes where it stopped: run the same command again.
// Delete the progress file to start over.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tttbot/tttbot/ai/internal/solve"
	"github.com/tttbot/tttbot/game"
)

func main() {
	rows := flag.Int("rows", 6, "rows")
	cols := flag.Int("cols", 7, "columns")
	win := flag.Int("win", 4, "tokens in a row that win")
	plies := flag.Int("plies", 6, "book depth: positions with at most this many stones")
	out := flag.String("out", "ai/internal/solve/connect4.book", "book file to write")
	progress := flag.String("progress", "", "progress file (default: -out plus .progress)")
	ttBits := flag.Int("tt", 23, "transposition table size, log2 of 16-byte slots")
	weak := flag.Bool("weak", true, "solve for win, draw or loss only, not the distance (much faster)")
	flag.Parse()
	if *progress == "" {
		*progress = *out + ".progress"
	}
	r := game.Rules{Rows: *rows, Cols: *cols, Win: *win, Gravity: true, Players: 2}
	if err := r.Validate(); err != nil {
		log.Fatal(err)
	}
	geo := solve.NewGeometry(r)
	if geo == nil {
		log.Fatalf("%dx%d does not fit a bitboard", *cols, *rows)
	}

	done, err := load(*progress)
	if err != nil {
		log.Fatal(err)
	}
	leaves := enumerate(geo, *plies)
	todo := 0
	for _, p := range leaves {
		if _, ok := done[geo.Canonical(p)]; !ok {
			todo++
		}
	}
	log.Printf("%d positions at ply %d, %d already solved, %d to go", len(leaves), *plies, len(leaves)-todo, todo)

	f, err := os.OpenFile(*progress, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		log.Fatal(err)
	}
	tt := solve.NewTable(*ttBits)
	start, last, solved := time.Now(), time.Now(), 0
	var nodes int64
	for _, p := range leaves {
		k := geo.Canonical(p)
		if _, ok := done[k]; ok {
			continue
		}
		s := &solve.Solver{G: geo, TT: tt, Ctx: context.Background()}
		v, _ := s.Solve(p, *weak)
		nodes += s.Nodes
		done[k] = int8(v)
		if _, err := fmt.Fprintf(f, "%d %d\n", k, v); err != nil {
			log.Fatal(err)
		}
		solved++
		if time.Since(last) > 10*time.Second {
			last = time.Now()
			el := time.Since(start)
			log.Printf("%d/%d solved in %v (%.0f nodes/s), about %v to go", solved, todo, el.Round(time.Second),
				float64(nodes)/el.Seconds(), (el / time.Duration(solved) * time.Duration(todo-solved)).Round(time.Second))
		}
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	log.Printf("solved %d positions in %v", solved, time.Since(start).Round(time.Second))

	book := solve.NewBook(r, *plies, *weak, derive(geo, *plies, *weak, done))
	data, err := book.MarshalBinary()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %s: %d positions, %d bytes", *out, book.Len(), len(data))
}

// load reads "key score" lines from a progress file, if there is one.
func load(path string) (map[uint64]int8, error) {
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
			continue // a line cut short by an interruption: solve it again
		}
		done[key] = int8(score)
	}
	return done, sc.Err()
}

// enumerate lists, in depth-first order (so neighbours share the table),
// one position per mirror pair at exactly plies stones that a game can
// reach and the solver cannot read off at once.
func enumerate(geo *solve.Geometry, plies int) []solve.Pos {
	var leaves []solve.Pos
	seen := map[uint64]bool{}
	var walk func(p solve.Pos)
	walk = func(p solve.Pos) {
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
	walk(solve.Pos{})
	return leaves
}

// derive scores every non-trivial position with at most plies stones from
// the solved leaves: the best over the moves of minus the child's score.
func derive(geo *solve.Geometry, plies int, weak bool, leaves map[uint64]int8) map[uint64]int8 {
	book := map[uint64]int8{}
	var value func(p solve.Pos) int
	value = func(p solve.Pos) int {
		if v, ok := geo.Trivial(p); ok {
			if weak {
				v = max(-1, min(1, v))
			}
			return v
		}
		k := geo.Canonical(p)
		if p.Moves == plies {
			v, ok := leaves[k]
			if !ok {
				log.Fatalf("leaf %d unsolved", k)
			}
			book[k] = v
			return int(v)
		}
		if v, ok := book[k]; ok {
			return int(v)
		}
		best := -1 << 30
		for _, m := range geo.Moves(p) {
			best = max(best, -value(p.Play(m))) // no move wins: p is not trivial
		}
		if weak {
			best = max(-1, min(1, best))
		}
		book[k] = int8(best)
		return best
	}
	value(solve.Pos{})
	return book
}
