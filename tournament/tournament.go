package tournament

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Format is how a tournament pairs its rounds.
type Format string

// The formats.
const (
	RoundRobin Format = "round-robin"
	Swiss      Format = "swiss"
	Knockout   Format = "knockout"
)

// Bounds on the number of players.
const (
	MinPlayers = 3
	MaxPlayers = 64
)

// Player is one entrant.
type Player struct {
	// ID is the caller's name for the player (the bot's Discord user id).
	ID string `json:"id"`
	// Rating is the strength given at Start; it seeds the pairings.
	Rating float64 `json:"rating,omitempty"`
	// Seed is the player's place by rating at Start, 1 the strongest
	// (ties go to the earlier joiner); 0 before the start.
	Seed int `json:"seed,omitempty"`
	// Joined counts entries in order: the first to join has 1.
	Joined int `json:"joined"`
	// Left is set when the player left after the start; LeftRound is the
	// round that was being played then. A player who leaves before the
	// start is simply removed.
	Left      bool `json:"left,omitempty"`
	LeftRound int  `json:"left_round,omitempty"`
}

// Game is one pairing of a round.
type Game struct {
	Round int `json:"round"`
	// Board numbers the round's games from 1. In a knockout it is the
	// place in the bracket: board b of a round is fed by boards 2b−1 and
	// 2b of the round before.
	Board int `json:"board"`
	// First moves first. Second is "" for a bye.
	First  string `json:"first"`
	Second string `json:"second,omitempty"`
	// Outcome is the result, Pending while the game is on.
	Outcome Outcome `json:"outcome"`
}

// Key names the game uniquely and stably within its tournament: "r2b3" is
// round 2, board 3.
func (g Game) Key() string { return fmt.Sprintf("r%db%d", g.Round, g.Board) }

// Winner is the player who won the game (a bye and a forfeit win count),
// or "" for a draw, a double forfeit or a pending game.
func (g Game) Winner() string {
	switch g.Outcome {
	case FirstWon, Bye, SecondForfeit:
		return g.First
	case SecondWon, FirstForfeit:
		return g.Second
	}
	return ""
}

// Has reports whether id plays in the game.
func (g Game) Has(id string) bool { return id != "" && (g.First == id || g.Second == id) }

// Opponent is the other player of a game id plays in; "" for a bye.
func (g Game) Opponent(id string) string {
	if g.First == id {
		return g.Second
	}
	return g.First
}

// Tournament is a tournament's whole state. Its JSON round-trips exactly,
// so a caller can store it as a document and load it on any replica.
type Tournament struct {
	Format Format `json:"format"`
	// Size is the most players that may join.
	Size int `json:"size"`
	// Rounds is how many rounds are played: before the start, the number
	// chosen for a swiss tournament (0 for ⌈log2 n⌉); from the start, the
	// number the format and the entrants make.
	Rounds int `json:"rounds"`
	// Round is the round being played: 0 before the start.
	Round int `json:"round"`
	// Players are the entrants in the order they joined.
	Players []Player `json:"players"`
	// Games are every round's games so far, round by round, board by
	// board.
	Games    []Game `json:"games"`
	Started  bool   `json:"started"`
	Finished bool   `json:"finished"`
}

// New makes an empty tournament of a format for at most size players (0
// means MaxPlayers). rounds may be chosen for a swiss tournament only; 0
// plays ⌈log2 n⌉ rounds for n players. A swiss tournament never plays more
// rounds than its players can be paired without repeats (n−1 rounds for
// an even n, n for an odd n); Start lowers a larger choice to that.
func New(format Format, size, rounds int) (*Tournament, error) {
	switch format {
	case RoundRobin, Swiss, Knockout:
	default:
		return nil, fmt.Errorf("%w: %q", ErrBadFormat, format)
	}
	if size == 0 {
		size = MaxPlayers
	}
	if size < MinPlayers || size > MaxPlayers {
		return nil, fmt.Errorf("%w: %d", ErrBadSize, size)
	}
	if rounds != 0 && format != Swiss {
		return nil, ErrRoundsOnlySwiss
	}
	if rounds < 0 || rounds > MaxPlayers {
		return nil, fmt.Errorf("%w: %d (must be 1–%d, or 0 for the default)", ErrBadRounds, rounds, MaxPlayers)
	}
	return &Tournament{Format: format, Size: size, Rounds: rounds}, nil
}

// player returns the entrant with id, or nil.
func (t *Tournament) player(id string) *Player {
	for i := range t.Players {
		if t.Players[i].ID == id {
			return &t.Players[i]
		}
	}
	return nil
}

// Join enters a player before the start.
func (t *Tournament) Join(id string) error {
	switch {
	case id == "":
		return ErrBadPlayer
	case t.Started:
		return ErrStarted
	case t.player(id) != nil:
		return ErrAlreadyJoined
	case len(t.Players) >= t.Size:
		return ErrFull
	}
	joined := 1
	for _, p := range t.Players {
		joined = max(joined, p.Joined+1)
	}
	t.Players = append(t.Players, Player{ID: id, Joined: joined})
	return nil
}

// Leave takes a player out. Before the start the player is simply removed.
// After it they stay in the standings with what they scored, and forfeit
// every game of theirs not yet played: the current round's game is decided
// at once (returned as forfeited), later round-robin and knockout games
// are decided as they are paired, and a swiss tournament pairs them no
// more. When the forfeit completes the round, the next round is paired as
// Record does, and its games are returned as next.
//
// Leave returns the games as well as an error, where a plain error would
// do for entries, because after the start the caller has work to do: close
// the threads of the forfeited games and open the next round's. A retry
// after a lost compare-and-swap meets ErrAlreadyLeft: the leave is done.
func (t *Tournament) Leave(id string) (forfeited, next []Game, finished bool, err error) {
	p := t.player(id)
	switch {
	case p == nil:
		return nil, nil, t.Finished, ErrNotJoined
	case t.Finished:
		return nil, nil, true, ErrFinished
	case p.Left:
		return nil, nil, false, ErrAlreadyLeft
	}
	if !t.Started {
		t.Players = slices.DeleteFunc(t.Players, func(q Player) bool { return q.ID == id })
		return nil, nil, false, nil
	}
	p.Left, p.LeftRound = true, t.Round
	for i := range t.Games {
		g := &t.Games[i]
		if g.Outcome != Pending || !g.Has(id) {
			continue
		}
		if g.First == id {
			g.Outcome = FirstForfeit
		} else {
			g.Outcome = SecondForfeit
		}
		forfeited = append(forfeited, *g)
	}
	if len(forfeited) > 0 && t.roundDone() {
		next = t.advance()
	}
	return forfeited, next, t.Finished, nil
}

// Start closes entries, seeds the players by rating (higher first; a
// player missing from ratings, or given NaN or an infinity, counts as 0;
// equal ratings go to the earlier joiner) and pairs round 1, whose games it returns, byes included. Games
// already decided when paired (byes, forfeits) need no playing; if a whole
// round is decided so, the next round is paired too and returned with it.
func (t *Tournament) Start(ratings map[string]float64) ([]Game, error) {
	switch {
	case t.Started:
		return nil, ErrStarted
	case len(t.Players) < MinPlayers:
		return nil, fmt.Errorf("%w: %d joined, %d needed", ErrTooFew, len(t.Players), MinPlayers)
	}
	for i := range t.Players {
		r := ratings[t.Players[i].ID]
		if math.IsNaN(r) || math.IsInf(r, 0) {
			r = 0 // not a rating; and JSON could not store it
		}
		t.Players[i].Rating = r
	}
	for seed, i := range t.seedOrder() {
		t.Players[i].Seed = seed + 1
	}
	t.Started = true
	n := len(t.Players)
	switch t.Format {
	case RoundRobin:
		t.Rounds = n - 1 + n%2
	case Swiss:
		most := n - 1 + n%2
		if t.Rounds == 0 {
			t.Rounds = ceilLog2(n)
		}
		t.Rounds = min(t.Rounds, most)
	case Knockout:
		t.Rounds = ceilLog2(n)
	}
	return t.advance(), nil
}

// seedOrder is the indexes of Players by rating, highest first, the earlier
// joiner first among equals.
func (t *Tournament) seedOrder() []int {
	order := make([]int, len(t.Players))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		pa, pb := t.Players[a], t.Players[b]
		if c := cmp.Compare(pb.Rating, pa.Rating); c != 0 {
			return c
		}
		return cmp.Compare(pa.Joined, pb.Joined)
	})
	return order
}

// bySeed is the players' ids in seed order.
func (t *Tournament) bySeed() []string {
	ids := make([]string, len(t.Players))
	for _, p := range t.Players {
		ids[p.Seed-1] = p.ID
	}
	return ids
}

// ceilLog2 is ⌈log2 n⌉ for n ≥ 1.
func ceilLog2(n int) int {
	r := 0
	for 1<<r < n {
		r++
	}
	return r
}

// Record gives a game its result: FirstWon, SecondWon, Draw or one of the
// forfeits. When it completes the round, the next round is paired and its
// games are returned (byes included; see Start), or the tournament
// finishes. Recording the result a game already has changes nothing and
// returns no games and no error, so a caller that retries is safe; a
// different result for a decided game is ErrAlreadyRecorded (a forfeit by
// leaving, say, stands). The next round is paired only by the call that
// completes a round, so a caller that commits the state compare-and-swap
// pairs each round exactly once.
func (t *Tournament) Record(key string, o Outcome) (next []Game, finished bool, err error) {
	if !o.recordable() {
		return nil, t.Finished, fmt.Errorf("%w: %v", ErrBadOutcome, o)
	}
	i := slices.IndexFunc(t.Games, func(g Game) bool { return g.Key() == key })
	if i < 0 {
		return nil, t.Finished, fmt.Errorf("%w: %q", ErrNoGame, key)
	}
	g := &t.Games[i]
	if g.Outcome == o {
		return nil, t.Finished, nil
	}
	if g.Outcome != Pending {
		return nil, t.Finished, fmt.Errorf("%w: %s is %v", ErrAlreadyRecorded, key, g.Outcome)
	}
	g.Outcome = o
	if t.roundDone() {
		next = t.advance()
	}
	return next, t.Finished, nil
}

// roundDone reports whether every game of the current round is decided.
func (t *Tournament) roundDone() bool {
	for _, g := range t.Games {
		if g.Round == t.Round && g.Outcome == Pending {
			return false
		}
	}
	return true
}

// advance pairs the next round, and the ones after it as long as a round
// is decided as soon as it is paired, or finishes the tournament. It
// returns the new rounds' games.
func (t *Tournament) advance() []Game {
	var out []Game
	for !t.Finished {
		if t.Round >= t.Rounds {
			t.Finished = true
			break
		}
		var games []Game
		switch t.Format {
		case RoundRobin:
			games = t.pairRoundRobin(t.Round + 1)
		case Swiss:
			games = t.pairSwiss(t.Round + 1)
		case Knockout:
			games = t.pairKnockout(t.Round + 1)
		}
		if games == nil { // nobody can be paired: the tournament ends here
			t.Finished = true
			break
		}
		t.Round++
		t.Games = append(t.Games, games...)
		out = append(out, games...)
		if !t.roundDone() {
			break
		}
	}
	return out
}

// newGame makes a game of the round between first and second ("" for a
// bye), decided at once where a player has left: a leaver forfeits, and
// a leaver's bye scores nothing.
func (t *Tournament) newGame(round, board int, first, second string) Game {
	g := Game{Round: round, Board: board, First: first, Second: second}
	left := func(id string) bool {
		p := t.player(id)
		return id == "" || p == nil || p.Left
	}
	switch {
	case second == "" && left(first):
		g.Outcome = FirstForfeit
	case second == "":
		g.Outcome = Bye
	case left(first) && left(second):
		g.Outcome = DoubleForfeit
	case left(first):
		g.Outcome = FirstForfeit
	case left(second):
		g.Outcome = SecondForfeit
	}
	return g
}

// Waiting is the current round's games still being played.
func (t *Tournament) Waiting() []Game {
	var out []Game
	for _, g := range t.Games {
		if g.Round == t.Round && g.Outcome == Pending {
			out = append(out, g)
		}
	}
	return out
}

// Game returns the game with key.
func (t *Tournament) Game(key string) (Game, bool) {
	for _, g := range t.Games {
		if g.Key() == key {
			return g, true
		}
	}
	return Game{}, false
}

// Bracket is the games round by round (index 0 is round 1), board by
// board: a knockout's bracket. Rounds not yet paired are absent; Rounds
// says how many there will be.
func (t *Tournament) Bracket() [][]Game {
	out := make([][]Game, t.Round)
	for _, g := range t.Games {
		out[g.Round-1] = append(out[g.Round-1], g)
	}
	for _, r := range out {
		slices.SortFunc(r, func(a, b Game) int { return cmp.Compare(a.Board, b.Board) })
	}
	return out
}
