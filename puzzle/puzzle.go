package puzzle

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tttbot/tttbot/game"
)

// Kind is a family of puzzles: which boards they are played on.
type Kind string

const (
	// ConnectFour puzzles are on the standard board: 7 columns, 6 rows,
	// four in a row, gravity.
	ConnectFour Kind = "connect4"
	// Classic puzzles are on small free boards where a forced win exists:
	// 3×3 tic-tac-toe and 4×4 with three in a row.
	Classic Kind = "classic"
)

// Kinds lists every kind, in the order the bot offers them.
func Kinds() []Kind { return []Kind{ConnectFour, Classic} }

// Difficulty says how long the forced win is (see docs/puzzles.md).
type Difficulty string

const (
	Easy   Difficulty = "easy"   // Connect Four: win in 2–3; classic: 3×3, win in 2
	Medium Difficulty = "medium" // Connect Four: win in 4–6; classic: 3×3 win in 3, 4×4 k=3 win in 2–3
	Hard   Difficulty = "hard"   // Connect Four: win in 7–10; classic: 4×4 k=3, win in 4 or more
)

// Difficulties lists every difficulty, easiest first.
func Difficulties() []Difficulty { return []Difficulty{Easy, Medium, Hard} }

// ErrUnknown means a kind, difficulty or puzzle ID that does not exist.
var ErrUnknown = errors.New("unknown puzzle")

// checkKind refuses, with ErrUnknown, a kind or difficulty that does not
// exist.
func checkKind(k Kind, d Difficulty) error {
	if rulesOf(k) == nil || !slices.Contains(Difficulties(), d) {
		return fmt.Errorf("%w: kind %q, difficulty %q", ErrUnknown, k, d)
	}
	return nil
}

// Puzzle is a position from a real game where the side to move wins by
// force, and exactly one first move does: every other first move draws or
// loses against perfect play (proved by the exact solver when the puzzle
// was made; TestPoolProofs proves the embedded pool again). In Connect
// Four that move is never a forced block: the other side threatens no
// win at once.
type Puzzle struct {
	// ID names the puzzle and encodes it whole (kind, board and moves):
	// Parse rebuilds any puzzle from it, even one generated on demand.
	// It is at most 50 ASCII characters, safe in a custom_id.
	ID         string
	Kind       Kind
	Difficulty Difficulty
	Rules      game.Rules
	// Moves lead from the empty board to the position, X first; each is
	// the cell the stone landed on. On a free board they are in one order
	// a position (each side's cells row by row), not the game's.
	Moves []game.Coord
	// WinIn is how many moves of its own the side to move needs to win
	// against the best defence: exactly that many, never fewer.
	WinIn int
	// Line is the main line: the winning move, the best defence, the
	// next winning move and so on to the winning stone (2·WinIn−1 moves).
	// The winner takes the fastest win and the defender the slowest loss,
	// blocking an immediate win when its losses are equally slow; among
	// equal moves, the first in reading order (the leftmost column under
	// gravity, else row by row from the top).
	Line []game.Coord
	// Rating is the puzzle's starting rating, as a Weng-Lin Mu on the
	// scale of package rating (a new player's is 25): longer wins start
	// higher. The bot moves it as people solve or fail the puzzle.
	Rating float64
}

// tokens are the puzzles' tokens: X moves first.
var tokens = []rune{'X', 'O'}

// Position returns the position to solve: a game with tokens X and O
// where the side to move is the one that wins.
func (p Puzzle) Position() (*game.Game, error) {
	return replay(p.Rules, p.Moves)
}

// Mover returns the token of the side to move: X or O.
func (p Puzzle) Mover() rune { return tokens[len(p.Moves)%2] }

// replay plays moves from the empty board, alternately X and O.
func replay(r game.Rules, moves []game.Coord) (*game.Game, error) {
	g, err := game.New(r, game.Fast, tokens)
	if err != nil {
		return nil, err
	}
	for i, m := range moves {
		at, err := g.Play(g.Turn(), m)
		if err != nil {
			return nil, fmt.Errorf("puzzle move %d (%v): %w", i+1, m, err)
		}
		if at != m {
			return nil, fmt.Errorf("puzzle move %d landed on %v, not %v", i+1, at, m)
		}
	}
	if g.Over() {
		return nil, fmt.Errorf("%w: the game is over after the puzzle's moves", ErrUnknown)
	}
	return g, nil
}

// connectFourRules are the rules of every Connect Four puzzle.
var connectFourRules = game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}

// rulesOf returns the rules a kind's puzzles may be played on.
func rulesOf(k Kind) []game.Rules {
	switch k {
	case ConnectFour:
		return []game.Rules{connectFourRules}
	case Classic:
		return []game.Rules{game.Classic(), {Rows: 4, Cols: 4, Win: 3, Players: 2}}
	}
	return nil
}

// difficultyOf places a win in n on a board of kind k into its difficulty.
func difficultyOf(k Kind, r game.Rules, n int) (Difficulty, bool) {
	switch k {
	case ConnectFour:
		switch {
		case n >= 2 && n <= 3:
			return Easy, true
		case n >= 4 && n <= 6:
			return Medium, true
		case n >= 7 && n <= 10:
			return Hard, true
		}
	case Classic:
		switch {
		case r == game.Classic() && n == 2:
			return Easy, true
		case r == game.Classic() && n == 3, r != game.Classic() && n >= 2 && n <= 3:
			return Medium, true
		case r != game.Classic() && n >= 4:
			return Hard, true
		}
	}
	return "", false
}

// startRating is a puzzle's starting rating: 25 (a new player's) for a
// medium puzzle of its kind, 2.5 a move more or less.
func startRating(k Kind, n int) float64 {
	if k == ConnectFour {
		return 25 + 2.5*float64(n-5)
	}
	return 25 + 2.5*float64(n-3)
}

// ID encoding: a Connect Four puzzle is "c4-" and its columns as digits
// 0–6; a classic one is "t", the rows, columns and k as digits, "-", and
// its cells as base-36 digits (row·columns+column, from the top-left), in
// canonicalOrder. "c4-33231" and "t333-40" name positions, not only
// puzzles: the rest of a puzzle follows from the position by the solver.
func encodeID(k Kind, r game.Rules, moves []game.Coord) string {
	if !r.Gravity {
		moves = canonicalOrder(moves)
	}
	if k == ConnectFour {
		return "c4-" + writeMoves(r, moves)
	}
	return fmt.Sprintf("t%d%d%d-", r.Rows, r.Cols, r.Win) + writeMoves(r, moves)
}

// writeMoves writes moves as playEncoded reads them: a column digit each
// under gravity, else a cell in base 36 (row·columns+column).
func writeMoves(r game.Rules, moves []game.Coord) string {
	var b strings.Builder
	for _, m := range moves {
		if r.Gravity {
			b.WriteByte(byte('0' + m.Col))
		} else {
			b.WriteString(strconv.FormatInt(int64(m.Row*r.Cols+m.Col), 36))
		}
	}
	return b.String()
}

// decodeID reads an ID back into its kind, rules and moves, replaying them
// to find the cells gravity drops stones on.
func decodeID(id string) (Kind, game.Rules, []game.Coord, error) {
	head, body, ok := strings.Cut(id, "-")
	bad := fmt.Errorf("%w: %q", ErrUnknown, id)
	if !ok {
		return "", game.Rules{}, nil, bad
	}
	var k Kind
	var r game.Rules
	switch {
	case head == "c4":
		k, r = ConnectFour, connectFourRules
	case len(head) == 4 && head[0] == 't':
		k = Classic
		r = game.Rules{Rows: int(head[1] - '0'), Cols: int(head[2] - '0'), Win: int(head[3] - '0'), Players: 2}
		if !slices.Contains(rulesOf(Classic), r) {
			return "", game.Rules{}, nil, bad
		}
	default:
		return "", game.Rules{}, nil, bad
	}
	g, err := game.New(r, game.Fast, tokens)
	if err != nil {
		return "", game.Rules{}, nil, bad
	}
	moves, err := playEncoded(g, body)
	if err != nil {
		return "", game.Rules{}, nil, fmt.Errorf("%w: %v", bad, err)
	}
	if encodeID(k, r, moves) != id {
		return "", game.Rules{}, nil, bad // one position, one spelling: no upper-case cells
	}
	return k, r, moves, nil
}

// canonicalOrder orders the moves of a free board by cell: X's stones
// from the top-left, O's likewise, taking turns. On a free board the
// position is all that matters, and the order of the moves that reached it
// is any; with one order, one position has one ID, so a person who has
// seen it is never shown it again under another. Any order replays, since
// a position that is not over holds no k in a row, nor any part of it.
func canonicalOrder(moves []game.Coord) []game.Coord {
	var sides [2][]game.Coord
	for i, m := range moves {
		sides[i%2] = append(sides[i%2], m)
	}
	for _, side := range sides {
		slices.SortFunc(side, func(a, b game.Coord) int {
			if a.Row != b.Row {
				return a.Row - b.Row
			}
			return a.Col - b.Col
		})
	}
	out := make([]game.Coord, 0, len(moves))
	for i := range moves {
		out = append(out, sides[i%2][i/2])
	}
	return out
}

// playEncoded plays moves written as in an ID (columns, or base-36 cells)
// on g, alternately for each side, and returns the cells they landed on.
func playEncoded(g *game.Game, text string) ([]game.Coord, error) {
	r := g.Rules()
	moves := make([]game.Coord, 0, len(text))
	for _, ch := range text {
		var aim game.Coord
		if r.Gravity {
			if ch < '0' || ch > '9' {
				return nil, fmt.Errorf("%q is not a column", ch)
			}
			aim = game.Coord{Col: int(ch - '0')}
		} else {
			c, err := strconv.ParseInt(string(ch), 36, 8)
			if err != nil || int(c) >= r.Cells() {
				return nil, fmt.Errorf("%q is not a cell", ch)
			}
			aim = game.Coord{Row: int(c) / r.Cols, Col: int(c) % r.Cols}
		}
		if g.Over() {
			return nil, errors.New("moves after the end of the game")
		}
		at, err := g.Play(g.Turn(), aim)
		if err != nil {
			return nil, err
		}
		moves = append(moves, at)
	}
	return moves, nil
}
