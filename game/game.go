package game

import (
	"fmt"
	"slices"
)

// State is where a game stands.
type State int

const (
	// Playing means the game goes on: someone is to move.
	Playing State = iota
	// Won means one player made k in a row, or is the last one not resigned.
	Won
	// Drawn means the board filled up without a winner.
	Drawn
)

// String returns "playing", "won" or "drawn".
func (s State) String() string {
	switch s {
	case Playing:
		return "playing"
	case Won:
		return "won"
	case Drawn:
		return "drawn"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// MoveKind tells a placement from a resignation in the history.
type MoveKind int

const (
	// Place puts the player's token on a cell.
	Place MoveKind = iota
	// Resign takes the player out of the game.
	Resign
)

// Move is one entry of a game's history.
type Move struct {
	Kind   MoveKind
	Player int   // 0-based, join order
	At     Coord // the cell the token landed on (Place only)
}

// Game is one game in progress or finished: the rules, the players' tokens,
// the board, whose turn it is and the history. The zero value is not usable;
// call New. A Game is not safe for concurrent use.
type Game struct {
	rules    Rules
	engine   Engine
	board    Board
	tokens   []rune
	resigned []bool
	heights  []int // gravity only: tokens in each column
	turn     int
	moves    []Move
	state    State
	winner   int
	line     []Coord // the winning run, end to end, when won by a run
}

// New starts a game with the given rules, engine and tokens in turn order
// (len(tokens) must equal rules.Players; each token is checked with
// ParseToken's rules and must be unique).
func New(r Rules, e Engine, tokens []rune) (*Game, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if len(tokens) != r.Players {
		return nil, fmt.Errorf("%w: %d tokens for %d players", ErrBadRules, len(tokens), r.Players)
	}
	for i, t := range tokens {
		got, err := ParseToken(string(t))
		if err != nil {
			return nil, err
		}
		if got != t {
			return nil, &TokenError{Token: string(t), Reason: "must be upper case"}
		}
		if slices.Contains(tokens[:i], t) {
			return nil, fmt.Errorf("%w: %c", ErrTokenTaken, t)
		}
	}
	b, err := NewBoard(e, r.Rows, r.Cols)
	if err != nil {
		return nil, err
	}
	g := &Game{
		rules:    r,
		engine:   e,
		board:    b,
		tokens:   slices.Clone(tokens),
		resigned: make([]bool, r.Players),
		winner:   NoPlayer,
	}
	if r.Gravity {
		g.heights = make([]int, r.Cols)
	}
	return g, nil
}

// Replay rebuilds a game from its rules, engine, tokens and history, as a
// store does after a restart. It returns an error matching ErrBadMoveOrder
// when the history does not replay move by move.
func Replay(r Rules, e Engine, tokens []rune, moves []Move) (*Game, error) {
	g, err := New(r, e, tokens)
	if err != nil {
		return nil, err
	}
	for i, m := range moves {
		switch m.Kind {
		case Place:
			var at Coord
			at, err = g.Play(m.Player, m.At)
			if err == nil && at != m.At {
				err = fmt.Errorf("token landed on %v, history says %v", at, m.At)
			}
		case Resign:
			err = g.Resign(m.Player)
		default:
			err = fmt.Errorf("unknown move kind %d", m.Kind)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: move %d: %v", ErrBadMoveOrder, i+1, err)
		}
	}
	return g, nil
}

// Rules returns the game's rules.
func (g *Game) Rules() Rules { return g.rules }

// Engine returns the board implementation the game uses.
func (g *Game) Engine() Engine { return g.engine }

// Tokens returns a copy of the players' tokens in turn order.
func (g *Game) Tokens() []rune { return slices.Clone(g.tokens) }

// Token returns player's token, or 0 for a player not in the game.
func (g *Game) Token(player int) rune {
	if player < 0 || player >= len(g.tokens) {
		return 0
	}
	return g.tokens[player]
}

// At returns the player holding c, or NoPlayer.
func (g *Game) At(c Coord) int { return g.board.At(c) }

// Filled counts the tokens on the board.
func (g *Game) Filled() int { return g.board.Filled() }

// Turn returns the player to move. It is meaningful only while Playing.
func (g *Game) Turn() int { return g.turn }

// State returns whether the game goes on, was won or was drawn.
func (g *Game) State() State { return g.state }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.state != Playing }

// Winner returns the winning player, or NoPlayer.
func (g *Game) Winner() int { return g.winner }

// WinningLine returns a copy of the winning run, end to end, or nil when there
// is none (no winner yet, or a win by resignation).
func (g *Game) WinningLine() []Coord { return slices.Clone(g.line) }

// Resigned reports whether player has resigned.
func (g *Game) Resigned(player int) bool {
	return player >= 0 && player < len(g.resigned) && g.resigned[player]
}

// Moves returns a copy of the history.
func (g *Game) Moves() []Move { return slices.Clone(g.moves) }

// AppendMoves appends the history to dst and returns the extended slice; with
// a reused dst it copies without allocating.
func (g *Game) AppendMoves(dst []Move) []Move { return append(dst, g.moves...) }

// MoveCount is the number of entries in the history.
func (g *Game) MoveCount() int { return len(g.moves) }

// LastPlaced returns the most recent placement, if any.
func (g *Game) LastPlaced() (Coord, bool) {
	for i := len(g.moves) - 1; i >= 0; i-- {
		if g.moves[i].Kind == Place {
			return g.moves[i].At, true
		}
	}
	return Coord{}, false
}

// ColumnFull reports whether column col has no free cell (or is off the
// board). Under gravity that means no move can go there.
func (g *Game) ColumnFull(col int) bool {
	if col < 0 || col >= g.rules.Cols {
		return true
	}
	if !g.rules.Gravity {
		for row := 0; row < g.rules.Rows; row++ {
			if g.board.At(Coord{row, col}) == NoPlayer {
				return false
			}
		}
		return true
	}
	return g.dropRow(col) < 0
}

// dropRow returns the engine row a token dropped in col lands on, or -1 when
// the column is full.
func (g *Game) dropRow(col int) int {
	return g.rules.Rows - 1 - g.heights[col]
}

// Target returns the cell a move aimed at c would fill: c itself on a free
// board; under gravity, the lowest free cell of c.Col (c.Row is ignored).
func (g *Game) Target(c Coord) (Coord, error) {
	if !g.rules.Gravity {
		if !c.in(g.rules.Rows, g.rules.Cols) {
			return c, fmt.Errorf("%w: %v is not on the %d×%d board", ErrOutOfBounds, c, g.rules.Rows, g.rules.Cols)
		}
		if g.board.At(c) != NoPlayer {
			return c, fmt.Errorf("%w: %v", ErrCellTaken, c)
		}
		return c, nil
	}
	if c.Col < 0 || c.Col >= g.rules.Cols {
		return c, fmt.Errorf("%w: column %d is not 0–%d", ErrOutOfBounds, c.Col, g.rules.Cols-1)
	}
	row := g.dropRow(c.Col)
	if row < 0 {
		return c, fmt.Errorf("%w: column %d", ErrColumnFull, c.Col)
	}
	return Coord{row, c.Col}, nil
}

// Play makes player's move at c (under gravity only c.Col counts: the token
// drops to the lowest free row). It returns the cell the token landed on. On
// error nothing changes; errors match ErrGameOver, ErrNotPlayer,
// ErrNotYourTurn, ErrOutOfBounds, ErrCellTaken or ErrColumnFull.
func (g *Game) Play(player int, c Coord) (Coord, error) {
	if err := g.checkMover(player); err != nil {
		return c, err
	}
	at, err := g.Target(c)
	if err != nil {
		return c, err
	}
	if err := g.board.Set(at, player); err != nil {
		return c, err
	}
	if g.heights != nil {
		g.heights[at.Col]++
	}
	g.moves = append(g.moves, Move{Kind: Place, Player: player, At: at})
	switch {
	case g.findLine(at, player):
		g.state, g.winner = Won, player
	case g.board.Filled() == g.rules.Cells():
		g.state = Drawn
	default:
		g.advance()
	}
	return at, nil
}

// Resign takes player out of the game, whether or not it is their turn. With
// two players left the other one wins; with more, the game goes on without
// them and the last one standing wins.
func (g *Game) Resign(player int) error {
	if g.state != Playing {
		return ErrGameOver
	}
	if player < 0 || player >= len(g.tokens) || g.resigned[player] {
		return fmt.Errorf("%w: player %d", ErrNotPlayer, player)
	}
	g.resigned[player] = true
	g.moves = append(g.moves, Move{Kind: Resign, Player: player})
	if last, ok := g.lastStanding(); ok {
		g.state, g.winner = Won, last
		return nil
	}
	if g.turn == player {
		g.advance()
	}
	return nil
}

// checkMover returns why player may not move now, or nil.
func (g *Game) checkMover(player int) error {
	switch {
	case g.state != Playing:
		return ErrGameOver
	case player < 0 || player >= len(g.tokens) || g.resigned[player]:
		return fmt.Errorf("%w: player %d", ErrNotPlayer, player)
	case player != g.turn:
		return fmt.Errorf("%w: it is %c's turn", ErrNotYourTurn, g.tokens[g.turn])
	}
	return nil
}

// advance passes the turn to the next player still in the game.
func (g *Game) advance() {
	for i := 1; i <= len(g.tokens); i++ {
		next := (g.turn + i) % len(g.tokens)
		if !g.resigned[next] {
			g.turn = next
			return
		}
	}
}

func (g *Game) lastStanding() (int, bool) {
	last, n := NoPlayer, 0
	for p, out := range g.resigned {
		if !out {
			last, n = p, n+1
		}
	}
	return last, n == 1
}

// findLine records the winning run through at, if the move made one.
func (g *Game) findLine(at Coord, player int) bool {
	g.line = LineThrough(g.board, at, player, g.rules.Win)
	return g.line != nil
}

// LineThrough returns a run of at least k cells of player through at, end to
// end, or nil. It looks from at outward in the four directions and reads at
// most 2·(k−1) cells a direction, whatever the board size: the O(k) check a
// move needs, instead of a scan of the board.
func LineThrough(b Board, at Coord, player, k int) []Coord {
	for _, dir := range directions() {
		back := countFrom(b, at, Coord{-dir.Row, -dir.Col}, player, k-1)
		fwd := countFrom(b, at, dir, player, k-1)
		if back+fwd+1 >= k {
			start := at.add(dir, -back)
			line := make([]Coord, back+fwd+1)
			for i := range line {
				line[i] = start.add(dir, i)
			}
			return line
		}
	}
	return nil
}

// countFrom returns how many consecutive cells of player lie beyond from in
// direction dir, up to limit.
func countFrom(b Board, from, dir Coord, player, limit int) int {
	if d, ok := b.(*dense); ok {
		return d.run(from, dir, player, limit) // no interface call per cell
	}
	n := 0
	for n < limit && b.At(from.add(dir, n+1)) == player {
		n++
	}
	return n
}

// Clone returns an independent copy of g, for looking ahead.
func (g *Game) Clone() *Game {
	cp := *g
	cp.board = g.board.Clone()
	cp.tokens = slices.Clone(g.tokens)
	cp.resigned = slices.Clone(g.resigned)
	cp.heights = slices.Clone(g.heights)
	cp.moves = slices.Clone(g.moves)
	cp.line = slices.Clone(g.line)
	return &cp
}
