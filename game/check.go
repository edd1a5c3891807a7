package game

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Outcome is the kind of verdict CheckBoard reaches.
type Outcome int

const (
	// Incomplete: a valid position with no winner and free cells.
	Incomplete Outcome = iota
	// Complete: a valid full board with no winner.
	Complete
	// Winner: a valid position one player has won.
	Winner
	// Invalid: no game played by the rules reaches this position.
	Invalid
)

// Verdict is CheckBoard's judgement of a written board.
type Verdict struct {
	Outcome Outcome
	Winner  rune   // the winning token, when Outcome is Winner
	Reason  string // why the board is invalid, when Outcome is Invalid
}

// String renders the verdict in the words `tttbot verify` prints and other
// tools match exactly (docs/rules.md).
func (v Verdict) String() string {
	switch v.Outcome {
	case Winner:
		return "The Winner is " + string(v.Winner)
	case Complete:
		return "No Winner - Game Complete"
	case Incomplete:
		return "No Winner Yet - Game Incomplete"
	}
	return "Invalid Values: " + v.Reason
}

// CheckOptions are the rules a written board is judged by.
type CheckOptions struct {
	Win     int    // tokens in a row that win
	Gravity bool   // tokens must rest on the bottom or on another token
	Tokens  []rune // the players in turn order, e.g. []rune("XO")
}

// CheckBoard judges a written position: rows separated by "/", top row first,
// "." for an empty cell, e.g. "XO./.XO/..X". Letters are compared upper-cased.
//
// A board is invalid when it is ragged or out of bounds, holds a character
// that is neither "." nor a listed token, has token counts no turn order gives
// (each player has placed as many as the first player or one fewer, and never
// more than a player before them), has a token floating over an empty cell
// under gravity, has more than one winner, has a winner who did not make the
// last move, or has winning runs no single last move could have completed.
// On free-placement boards these rules are exact: a board passes if and only
// if some game reaches it.
func CheckBoard(text string, opt CheckOptions) Verdict {
	grid, err := parseGrid(text, opt)
	if err != nil {
		return Verdict{Outcome: Invalid, Reason: err.Error()}
	}
	return judge(grid, opt)
}

// grid is a written board read into player indexes (NoPlayer for empty).
type grid struct {
	rows, cols int
	cells      []int
}

func (g *grid) at(c Coord) int {
	if !c.in(g.rows, g.cols) {
		return NoPlayer
	}
	return g.cells[c.Row*g.cols+c.Col]
}

func parseGrid(text string, opt CheckOptions) (*grid, error) {
	if len(opt.Tokens) < MinPlayers || len(opt.Tokens) > MaxPlayers {
		return nil, fmt.Errorf("%d tokens listed, want %d–%d", len(opt.Tokens), MinPlayers, MaxPlayers)
	}
	for i, t := range opt.Tokens {
		if t == '.' || slices.Contains(opt.Tokens[:i], t) {
			return nil, fmt.Errorf("token %q is listed twice or is the empty mark", t)
		}
	}
	lines := strings.Split(strings.TrimSpace(text), "/")
	g := &grid{rows: len(lines)}
	for r, line := range lines {
		row := []rune(strings.TrimSpace(line))
		if r == 0 {
			g.cols = len(row)
		} else if len(row) != g.cols {
			return nil, fmt.Errorf("row %d has %d cells, row 0 has %d", r, len(row), g.cols)
		}
		for c, ch := range row {
			if ch == '.' {
				g.cells = append(g.cells, NoPlayer)
				continue
			}
			p := slices.Index(opt.Tokens, unicode.ToUpper(ch))
			if p < 0 {
				return nil, fmt.Errorf("%q at %d,%d is neither . nor one of %s", ch, r, c, string(opt.Tokens))
			}
			g.cells = append(g.cells, p)
		}
	}
	rules := Rules{Rows: g.rows, Cols: g.cols, Win: opt.Win, Gravity: opt.Gravity, Players: len(opt.Tokens)}
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}

func judge(g *grid, opt CheckOptions) Verdict {
	invalid := func(format string, args ...any) Verdict {
		return Verdict{Outcome: Invalid, Reason: fmt.Sprintf(format, args...)}
	}
	tokens := opt.Tokens
	counts := make([]int, len(tokens))
	filled := 0
	for _, p := range g.cells {
		if p != NoPlayer {
			counts[p]++
			filled++
		}
	}
	for p := 1; p < len(counts); p++ {
		if counts[p] > counts[p-1] {
			return invalid("%c has %d tokens, more than %c's %d before it in turn order", tokens[p], counts[p], tokens[p-1], counts[p-1])
		}
		if counts[p] < counts[0]-1 {
			return invalid("%c has %d tokens, %c has %d: turns alternate, so they differ by at most one", tokens[p], counts[p], tokens[0], counts[0])
		}
	}
	if opt.Gravity {
		for r := 0; r < g.rows-1; r++ {
			for c := 0; c < g.cols; c++ {
				if g.at(Coord{r, c}) != NoPlayer && g.at(Coord{r + 1, c}) == NoPlayer {
					return invalid("%c at %d,%d floats over an empty cell", tokens[g.at(Coord{r, c})], r, c)
				}
			}
		}
	}
	runs := winningRuns(g, opt.Win)
	winner := NoPlayer
	for _, run := range runs {
		if winner != NoPlayer && run.player != winner {
			return invalid("both %c and %c have %d in a row", tokens[winner], tokens[run.player], opt.Win)
		}
		winner = run.player
	}
	if winner == NoPlayer {
		if filled == len(g.cells) {
			return Verdict{Outcome: Complete}
		}
		return Verdict{Outcome: Incomplete}
	}
	if last := (filled - 1) % len(tokens); last != winner {
		return invalid("%c has %d in a row but %c moved last", tokens[winner], opt.Win, tokens[last])
	}
	if _, ok := lastMove(g, runs, opt.Win, opt.Gravity); !ok {
		return invalid("%c's winning runs cannot all have been completed by one last move", tokens[winner])
	}
	return Verdict{Outcome: Winner, Winner: tokens[winner]}
}

// run is a window of exactly k cells all held by one player.
type run struct {
	player int
	start  Coord
	dir    Coord
}

func (r run) contains(c Coord, k int) bool {
	for i := 0; i < k; i++ {
		if r.start.add(r.dir, i) == c {
			return true
		}
	}
	return false
}

// winningRuns lists every k-cell window held by a single player: the
// full-board scan that the O(k) check in Game.Play avoids.
func winningRuns(g *grid, k int) []run {
	var runs []run
	for r := 0; r < g.rows; r++ {
		for c := 0; c < g.cols; c++ {
			p := g.at(Coord{r, c})
			if p == NoPlayer {
				continue
			}
			for _, dir := range directions() {
				n := 1
				for n < k && g.at(Coord{r, c}.add(dir, n)) == p {
					n++
				}
				if n == k {
					runs = append(runs, run{player: p, start: Coord{r, c}, dir: dir})
				}
			}
		}
	}
	return runs
}

// lastMove finds a cell that lies in every winning run (so removing it leaves
// no run: the position before it was still in play) and, under gravity, is the
// top token of its column.
func lastMove(g *grid, runs []run, k int, gravity bool) (Coord, bool) {
	for i := 0; i < k; i++ {
		cand := runs[0].start.add(runs[0].dir, i)
		if gravity && g.at(Coord{cand.Row - 1, cand.Col}) != NoPlayer {
			continue
		}
		inAll := true
		for _, r := range runs[1:] {
			if !r.contains(cand, k) {
				inAll = false
				break
			}
		}
		if inAll {
			return cand, true
		}
	}
	return Coord{}, false
}
