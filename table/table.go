package table

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/token"
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

// String returns the phase's stored name.
func (p Phase) String() string { return string(p) }

// Open reports whether the phase holds the channel (lobby or playing).
func (p Phase) Open() bool { return p == Lobby || p == Playing }

// EndReason is why a game was Ended before it finished, or OnTime: it
// finished because the player to move ran out of time.
type EndReason uint8

// End reasons. NotEnded is every table that was not ended early.
const (
	NotEnded EndReason = iota
	// EndedByPlayer: /ttt end, the creator leaving the lobby, or no people
	// left to play.
	EndedByPlayer
	// Expired: nobody acted for the idle timeout.
	Expired
	// OnTime: the player to move ran out of time on a clock, and that ended
	// the game (Phase Over, with a winner).
	OnTime
	// Declined: an invited player declined the challenge; no game was played.
	Declined
	// Withdrawn: the challenger withdrew the challenge before it was accepted.
	Withdrawn
	// Unanswered: a challenge was left unanswered until it expired.
	Unanswered
)

var endReasonNames = [...]string{NotEnded: "", EndedByPlayer: "ended", Expired: "expired", OnTime: "on_time",
	Declined: "declined", Withdrawn: "withdrawn", Unanswered: "unanswered"}

// String returns the stored name: "", "ended", "expired" or "on_time".
func (r EndReason) String() string {
	if int(r) < len(endReasonNames) {
		return endReasonNames[r]
	}
	return fmt.Sprintf("EndReason(%d)", uint8(r))
}

// MarshalText implements encoding.TextMarshaler with the stored name.
func (r EndReason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *EndReason) UnmarshalText(text []byte) error {
	i := slices.Index(endReasonNames[:], string(text))
	if i < 0 {
		return fmt.Errorf("unknown end reason %q", text)
	}
	*r = EndReason(i)
	return nil
}

// Table is one channel's game from lobby to result: everything the store
// keeps, so a restarted bot (or another replica) picks up exactly here. The
// game itself is kept as its history and rebuilt with game.Replay.
type Table struct {
	Guild     string       `json:"guild"`
	Channel   string       `json:"channel"`
	Creator   string       `json:"creator"`
	Rules     game.Rules   `json:"rules"`
	Engine    game.Engine  `json:"engine"`
	Seats     []Seat       `json:"seats"` // join order, which is turn order
	Phase     Phase        `json:"phase"`
	Moves     game.History `json:"moves,omitempty"`
	EndReason EndReason    `json:"end_reason,omitzero"`
	Number    int          `json:"number"` // games played in this channel, for rematch rotation
	Created   time.Time    `json:"created"`
	Updated   time.Time    `json:"updated"`
	version   int64        // the store's version this table was read at
	game      *game.Game   // rebuilt from Moves; nil in the lobby
	// encodedLen is the length of the table's last encoding, or 0: the
	// next one allocates that much (and encodeSlack) at once.
	encodedLen int

	challenge         // challenge.go: people invited who have not answered yet
	result    *Result // set when the game finished in this action, saved with it

	clockState      // clock.go: the move clock, its deadline, who ran out
	threadState     // archive.go: the thread it is played in, and its archiving
	tournamentState // tournament.go: the tournament game it plays, and its report
}

// decode reads a stored table and rebuilds its game.
func decode(data []byte, version int64) (*Table, error) {
	t := &Table{}
	if err := json.Unmarshal(data, t); err != nil {
		return nil, fmt.Errorf("decode table: %w", err)
	}
	t.version, t.encodedLen = version, len(data)
	if len(t.Seats) == t.Rules.Players { // every seat taken: the game started
		g, err := game.Replay(t.Rules, t.Engine, t.tokens(), t.Moves)
		if err != nil {
			return nil, fmt.Errorf("replay table of channel %s: %w", t.Channel, err)
		}
		t.game = g
	}
	return t, nil
}

// encode writes the table for the store, with the game's history: what
// json.Marshal writes, without its reflection (appendTable). The buffer is
// new each time, as the store may keep it, and sized by the last encoding
// so that it is allocated once.
func (t *Table) encode() ([]byte, error) {
	if t.game != nil {
		t.Moves = t.game.AppendMoves(t.Moves[:0])
	}
	size := t.encodedLen
	if size == 0 {
		size = 512 + 8*len(t.Moves) // a guess: most of a table is its names and times
	}
	data, ok := appendTable(make([]byte, 0, size+encodeSlack), t)
	if !ok {
		return json.Marshal(t) // a time RFC 3339 cannot write: json.Marshal's error
	}
	t.encodedLen = len(data)
	return data, nil
}

// encodeSlack is room beyond a table's last encoding for what one action
// adds: a move, a seat, a deadline.
const encodeSlack = 128

// Game is the table's game, nil in the lobby. Callers read it; moves go
// through the table's methods.
func (t *Table) Game() *game.Game { return t.game }

// Tokens returns the seats' tokens in seat order, as stored: a character,
// an emoji, or a custom emoji's markup.
func (t *Table) Tokens() []string {
	out := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		out[i] = s.Token
	}
	return out
}

// tokens are the engine's runes for the seats (token.Runes: an emoji seat
// gets a stand-in the game keeps; messages show Seat.Token).
func (t *Table) tokens() []rune { return token.Runes(t.Tokens()) }

// HasEmoji reports whether a seat's token is an emoji, Unicode or custom:
// the board is then drawn with emoji.
func (t *Table) HasEmoji() bool { return token.AnyEmoji(t.Tokens()) }

// FreeToken is the token a new seat gets when it names none: the first
// default token the token rule accepts next to the seats' tokens ("" when
// none is left, which 10 seats never reach).
func (t *Table) FreeToken() string { return token.Suggest(t.Rules, t.Tokens()) }

// ParseToken reads a token a user typed for a new seat at this table, by
// the token rule (package token): a *token.Error says which part it breaks
// and suggests a free token.
func (t *Table) ParseToken(typed string) (string, error) {
	return token.Parse(typed, t.Rules, t.Tokens())
}

// SeatOf returns the seat index of user, or -1.
func (t *Table) SeatOf(user string) int {
	return slices.IndexFunc(t.Seats, func(s Seat) bool { return !s.Kind.Computer() && s.User == user })
}

// New opens a lobby in channel for creator, replacing prev (the channel's
// last table, or nil), which must not hold an open game.
func New(prev *Table, guild, channel, creator string, r game.Rules, e game.Engine, now time.Time) (*Table, error) {
	if prev != nil && prev.Phase.Open() {
		return nil, ErrGameOpen
	}
	t := &Table{
		Guild: guild, Channel: channel, Creator: creator,
		Rules: r, Engine: e, Phase: Lobby,
		Number: 1, Created: now, Updated: now,
	}
	if prev != nil {
		t.version, t.Number = prev.version, prev.Number+1
		t.carryThread(prev)
	}
	return t, nil
}

// Current returns cur when it holds an open game, or why not: the last game
// is over (game.ErrGameOver), expired (ErrExpired) or there is none
// (ErrNoGame).
func Current(cur *Table) (*Table, error) {
	switch {
	case cur != nil && cur.Phase == Over && cur.EndReason == OnTime:
		return nil, cur.timeUpError(cur.TimedOut[len(cur.TimedOut)-1].Seat)
	case cur != nil && cur.Phase == Over:
		return nil, game.ErrGameOver
	case cur != nil && cur.Phase == Ended && cur.EndReason == Expired:
		return nil, ErrExpired
	case cur == nil || !cur.Phase.Open():
		return nil, ErrNoGame
	}
	return cur, nil
}

// Join seats user with token tok ("" for the next free token) and starts the
// game when the last seat fills. Joining is agreeing to play. A seat held
// for an invited player is theirs: joining it is accepting (see Accept);
// anyone else takes one of the seats nobody was invited to.
func (t *Table) Join(user string, tok string) error {
	switch {
	case t.Phase != Lobby:
		return ErrStarted
	case t.SeatOf(user) >= 0:
		return ErrSeated
	case t.Invited(user):
		t.Invitees = slices.DeleteFunc(t.Invitees, func(u string) bool { return u == user })
	case t.openSeats() == 0:
		return ErrSeatsReserved
	}
	if tok != "" {
		var err error
		if tok, err = t.ParseToken(tok); err != nil {
			return err // taken, or a look-alike of a seat's token
		}
	} else if tok = t.FreeToken(); tok == "" {
		return &token.Error{Rule: token.NotTaken, Detail: "has no free token left"}
	}
	t.Seats = append(t.Seats, Seat{User: user, Token: tok, Agreed: true})
	if len(t.Invitees) == 0 {
		t.InviteExpires = time.Time{} // every invitation answered
	}
	return t.startIfFull()
}

// openSeats counts the seats free for anyone: not taken, and not held for an
// invited player.
func (t *Table) openSeats() int { return t.Rules.Players - len(t.Seats) - len(t.Invitees) }

// SeatComputer gives the next free seat to the computer of kind k.
func (t *Table) SeatComputer(k SeatKind) error {
	switch {
	case t.Phase != Lobby:
		return ErrStarted
	case t.openSeats() == 0:
		return ErrSeatsReserved
	}
	tok := t.FreeToken()
	if tok == "" {
		return &token.Error{Rule: token.NotTaken, Detail: "has no free token left"}
	}
	t.Seats = append(t.Seats, Seat{Kind: k, Token: tok})
	return t.startIfFull()
}

func (t *Table) startIfFull() error {
	if len(t.Seats) < t.Rules.Players {
		return nil
	}
	g, err := game.New(t.Rules, t.Engine, t.tokens())
	if err != nil {
		return err
	}
	t.game = g
	t.Phase = Playing
	return nil
}

// player checks that user can act in the running game and returns their
// seat. In the lobby it returns the seat (or -1) with a *LobbyError.
func (t *Table) player(user string) (int, error) {
	seat := t.SeatOf(user)
	switch {
	case t.Phase == Lobby:
		return seat, &LobbyError{Open: t.Rules.Players - len(t.Seats), Invitees: slices.Clone(t.Invitees)}
	case seat < 0:
		return seat, ErrNotSeated
	case t.game.Resigned(seat):
		return seat, t.timeUpError(seat) // ErrResigned, unless their clock ran out
	}
	return seat, nil
}

// Move plays what user typed (game.Typed notation) and returns the seat
// that moved and where the token landed.
func (t *Table) Move(user, typed string) (int, game.Coord, error) {
	seat, err := t.mover(user)
	if err != nil {
		return seat, game.Coord{}, err
	}
	m, err := game.Typed{}.Decode(t.game, typed)
	if err != nil {
		return seat, game.Coord{}, &PositionError{Rules: t.Rules, Err: err}
	}
	return t.Place(user, m.At)
}

// Place puts user's token at c (under gravity, in c's column) and returns
// the seat that moved and where the token landed.
func (t *Table) Place(user string, c game.Coord) (int, game.Coord, error) {
	seat, err := t.mover(user)
	if err != nil {
		return seat, game.Coord{}, err
	}
	at, err := t.game.Play(seat, c)
	if err != nil {
		return seat, game.Coord{}, &PositionError{Rules: t.Rules, Err: err}
	}
	return seat, at, nil
}

// mover returns user's seat when it is theirs to move.
func (t *Table) mover(user string) (int, error) {
	seat, err := t.player(user)
	if err != nil {
		return seat, err
	}
	if next := t.game.Turn(); seat != next {
		return seat, &TurnError{Next: t.Seats[next]}
	}
	return seat, nil
}

// PlayComputer makes the computer seat to move play c.
func (t *Table) PlayComputer(c game.Coord) (int, game.Coord, error) {
	seat := t.game.Turn()
	at, err := t.game.Play(seat, c)
	if err != nil {
		return seat, at, fmt.Errorf("computer's move %v refused: %w", c, err)
	}
	return seat, at, nil
}

// Resignation is what /ttt resign did: who left, and whether they left a
// lobby (before the game started) and thereby closed it (its creator).
type Resignation struct {
	Seat        Seat
	LeftLobby   bool
	ClosedLobby bool
}

// Resign takes user out of the game; in the lobby it frees their seat, and
// the creator leaving closes the lobby.
func (t *Table) Resign(user string) (Resignation, error) {
	seat, err := t.player(user)
	if seat >= 0 && t.Phase == Lobby {
		left := t.Seats[seat]
		if left.User == t.Creator {
			t.close(EndedByPlayer)
			return Resignation{Seat: left, LeftLobby: true, ClosedLobby: true}, nil
		}
		t.Seats = append(t.Seats[:seat:seat], t.Seats[seat+1:]...)
		return Resignation{Seat: left, LeftLobby: true}, nil
	}
	if err != nil {
		return Resignation{}, err
	}
	if err := t.game.Resign(seat); err != nil {
		return Resignation{}, err
	}
	return Resignation{Seat: t.Seats[seat]}, nil
}

// End closes the open game for user, who must be its creator or allowed to
// manage the channel. A challenge still waiting for an answer is withdrawn.
func (t *Table) End(user string, canManage bool) error {
	if t.Tournament != nil {
		return ErrTournamentGame
	}
	if user != t.Creator && !canManage {
		return &NotAllowedError{Creator: t.Creator}
	}
	t.close(EndedByPlayer)
	return nil
}

// close ends the table before its game finished: a lobby still waiting for
// an invited player's answer ends as a withdrawn challenge.
func (t *Table) close(why EndReason) {
	if why == EndedByPlayer && t.Challenging() {
		why = Withdrawn
	}
	t.Phase, t.EndReason = Ended, why
}

// Rematch starts the next game of cur's players with the same tokens and
// rules, seats rotated by one so each player starts in turn. Only a player
// of the last game may ask.
func Rematch(cur *Table, user string, now time.Time) (*Table, error) {
	switch {
	case cur != nil && cur.Phase.Open():
		return nil, ErrGameOpen
	case cur == nil || cur.game == nil:
		return nil, ErrNoRematch
	case cur.SeatOf(user) < 0:
		return nil, ErrNotInLastGame
	}
	next := &Table{
		Guild:   cur.Guild,
		Channel: cur.Channel,
		Creator: cur.Creator,
		Rules:   cur.Rules,
		Engine:  cur.Engine,
		Seats:   rematchSeats(cur.Seats, user),
		Phase:   Lobby,
		Number:  cur.Number + 1,
		Created: now,
		Updated: now,
		version: cur.version,
	}
	next.Clock = cur.Clock
	next.carryThread(cur)
	if err := next.startIfFull(); err != nil {
		return nil, err
	}
	return next, nil
}

// rematchSeats are the last game's seats rotated by one, so each player
// starts in turn. Only the player who asked has agreed to the new game; the
// others agree by moving in it.
func rematchSeats(last []Seat, asker string) []Seat {
	seats := append(slices.Clone(last[1:]), last[0])
	for i := range seats {
		seats[i].Agreed = !seats[i].Kind.Computer() && seats[i].User == asker
	}
	return seats
}

// HumansLeft reports whether a person's seat has not resigned.
func (t *Table) HumansLeft() bool {
	for i, s := range t.Seats {
		if !s.Kind.Computer() && !t.game.Resigned(i) {
			return true
		}
	}
	return false
}

// EndWithoutHumans ends a game nobody but computers still plays, rather than
// let them play it out.
func (t *Table) EndWithoutHumans() { t.Phase, t.EndReason = Ended, EndedByPlayer }

// ComputerToMove returns the kind of the computer seat to move, or false at a
// person's turn or when play has stopped.
func (t *Table) ComputerToMove() (SeatKind, bool) {
	if t.game == nil || t.Phase != Playing || t.game.Over() {
		return Human, false
	}
	k := t.Seats[t.game.Turn()].Kind
	return k, k.Computer()
}

// ComputersInARow counts the computer seats due to move before the next
// person (at least 1), to share a thinking budget between them.
func (t *Table) ComputersInARow() int {
	n := 0
	for i := 0; i < len(t.Seats); i++ {
		s := (t.game.Turn() + i) % len(t.Seats)
		if t.game.Resigned(s) {
			continue
		}
		if !t.Seats[s].Kind.Computer() {
			break
		}
		n++
	}
	return max(n, 1)
}

// Seed makes the computer's choices repeatable for the same game and move.
func (t *Table) Seed() uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d", t.Channel, t.Number, t.game.MoveCount())
	return h.Sum64()
}

// FinishIfOver moves a table whose game just ended to Over, with its result
// to be saved alongside.
func (t *Table) FinishIfOver() {
	if t.game == nil || !t.game.Over() || t.Phase != Playing {
		return
	}
	t.Phase = Over
	t.result = t.newResult()
}
