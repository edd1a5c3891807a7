package table

import (
	"slices"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/token"
)

// Finished is a finished game as the store keeps it: its result, when it
// ended, and the ID /ttt history shows and /ttt replay takes.
type Finished struct {
	ID     int64
	At     time.Time
	Result Result
}

// Game rebuilds the finished game move by move, for a replay.
func (f Finished) Game() (*game.Game, error) {
	if slices.Contains(f.Result.Tokens, "") {
		return nil, game.ErrBadRules
	}
	return game.Replay(f.Result.Rules, game.Fast, token.Runes(f.Result.Tokens), f.Result.Record)
}

// Seat returns the index of player in the game, or -1.
func (f Finished) Seat(player string) int {
	for i, p := range f.Result.Players {
		if p == player {
			return i
		}
	}
	return -1
}

// VisibleTo returns nil when user, acting in guild ("" in a DM) and
// channel, may see the game (in history, or replayed), else
// ErrPrivateGame. The rule: a game belongs to the server it was played in
// and to its players. Anyone in that server (or that DM channel) may see it;
// its players may see it anywhere; nobody else. A game played in a DM
// belongs to its channel and players only.
func (f Finished) VisibleTo(guild, channel, user string) error {
	r := f.Result
	if r.Scope != "" && r.Scope == guild || r.Channel == channel || f.Seat(user) >= 0 {
		return nil
	}
	return ErrPrivateGame
}

// HistoryQuery asks for one page of a player's finished games, newest first.
type HistoryQuery struct {
	Player string
	// Scope limits the games to one server's; Everywhere means all of them.
	Scope  string
	Offset int // games to skip, newest first
	Limit  int
}
