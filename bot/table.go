package bot

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/tttbot/tttbot/game"
)

// Phase is where a channel's table stands.
type Phase string

const (
	// Lobby: seats are being filled with /ttt join.
	Lobby Phase = "lobby"
	// Playing: every seat is taken and moves are being made.
	Playing Phase = "playing"
	// Over: won or drawn; the channel is free and a rematch can start.
	Over Phase = "over"
	// Ended: closed by /ttt end or by idle expiry before it finished.
	Ended Phase = "ended"
)

// Open reports whether the phase holds the channel (lobby or playing).
func (p Phase) Open() bool { return p == Lobby || p == Playing }

// Seat is a player at the table: a Discord user, or the computer at a
// level, and their token.
type Seat struct {
	User  string `json:"user,omitempty"`
	AI    string `json:"ai,omitempty"` // "easy", "medium" or "hard" for a computer seat
	Token string `json:"token"`
}

// player is the seat's ID in results: the user, or "ai:<level>".
func (s Seat) player() string {
	if s.AI != "" {
		return "ai:" + s.AI
	}
	return s.User
}

// Table is one channel's game from lobby to result: everything the store
// keeps, so a restarted bot (or another replica) picks up exactly here. The
// game itself is kept as its history and rebuilt with game.Replay.
type Table struct {
	Guild     string      `json:"guild"`
	Channel   string      `json:"channel"`
	Creator   string      `json:"creator"`
	Rules     game.Rules  `json:"rules"`
	Engine    game.Engine `json:"engine"`
	Seats     []Seat      `json:"seats"` // join order, which is turn order
	Phase     Phase       `json:"phase"`
	Moves     history     `json:"moves,omitempty"`
	EndReason string      `json:"end_reason,omitempty"` // "ended" or "expired"
	Number    int         `json:"number"`               // games played in this channel, for rematch rotation
	Created   time.Time   `json:"created"`
	Updated   time.Time   `json:"updated"`
	version   int64       // the store's version this table was read at
	game      *game.Game  // rebuilt from Moves; nil in the lobby
}

// decodeTable reads a stored table and rebuilds its game.
func decodeTable(data []byte, version int64) (*Table, error) {
	t := &Table{}
	if err := json.Unmarshal(data, t); err != nil {
		return nil, fmt.Errorf("decode table: %w", err)
	}
	t.version = version
	if len(t.Seats) == t.Rules.Players { // every seat taken: the game started

		g, err := game.Replay(t.Rules, t.Engine, t.tokens(), t.Moves)
		if err != nil {
			return nil, fmt.Errorf("replay table of channel %s: %w", t.Channel, err)
		}
		t.game = g
	}
	return t, nil
}

// encode writes the table for the store, with the game's history.
func (t *Table) encode() ([]byte, error) {
	if t.game != nil {
		t.Moves = t.game.AppendMoves(t.Moves[:0])
	}
	return json.Marshal(t)
}

func (t *Table) tokens() []rune {
	out := make([]rune, len(t.Seats))
	for i, s := range t.Seats {
		out[i] = []rune(s.Token)[0]
	}
	return out
}

// seatOf returns the seat index of user, or -1.
func (t *Table) seatOf(user string) int {
	return slices.IndexFunc(t.Seats, func(s Seat) bool { return s.AI == "" && s.User == user })
}

// seatComputer gives the next free seat to the computer at level.
func (t *Table) seatComputer(level string) error {
	if t.Phase != Lobby {
		return ErrStarted
	}
	t.Seats = append(t.Seats, Seat{AI: level, Token: string(game.NextFreeToken(t.tokens()))})
	if len(t.Seats) == t.Rules.Players {
		return t.start()
	}
	return nil
}

// tokenTaken reports whether a seated player already holds tok.
func (t *Table) tokenTaken(tok rune) bool {
	return slices.ContainsFunc(t.Seats, func(s Seat) bool { return s.Token == string(tok) })
}

// seat adds user with token tok (0 for the next free default token) and
// starts the game when the last seat fills.
func (t *Table) seat(user string, tok rune) error {
	switch {
	case t.Phase != Lobby:
		return ErrStarted
	case t.seatOf(user) >= 0:
		return ErrSeated
	case tok != 0 && t.tokenTaken(tok):
		return fmt.Errorf("%w: %c", game.ErrTokenTaken, tok)
	}
	if tok == 0 {
		tok = game.NextFreeToken(t.tokens())
	}
	t.Seats = append(t.Seats, Seat{User: user, Token: string(tok)})
	if len(t.Seats) == t.Rules.Players {
		return t.start()
	}
	return nil
}

// start begins play once every seat is taken.
func (t *Table) start() error {
	g, err := game.New(t.Rules, t.Engine, t.tokens())
	if err != nil {
		return err
	}
	t.game = g
	t.Phase = Playing
	return nil
}

// finishIfOver moves a table whose game just ended to Over.
func (t *Table) finishIfOver() {
	if t.game != nil && t.game.Over() && t.Phase == Playing {
		t.Phase = Over
	}
}

// result is the standings record of a finished game.
func (t *Table) result() game.Result {
	players := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		players[i] = s.player()
	}
	return game.Result{
		Scope:   t.Guild,
		Players: players,
		Winner:  t.game.Winner(),
		Rules:   t.Rules,
		Moves:   t.game.Filled(),
	}
}

// rematch returns the next game for the same players, tokens and rules, with
// the seats rotated by one so each player gets to start in turn.
func (t *Table) rematch(now time.Time) (*Table, error) {
	next := &Table{
		Guild:   t.Guild,
		Channel: t.Channel,
		Creator: t.Creator,
		Rules:   t.Rules,
		Engine:  t.Engine,
		Seats:   append(slices.Clone(t.Seats[1:]), t.Seats[0]),
		Phase:   Lobby,
		Number:  t.Number + 1,
		Created: now,
		Updated: now,
		version: t.version,
	}
	if err := next.start(); err != nil {
		return nil, err
	}
	return next, nil
}
