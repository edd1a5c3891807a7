package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/internal/testkit"
	"github.com/tttbot/tttbot/table"
)

// world is the bot's past that -prefill writes: a few hundred servers of
// very different sizes, their channels, and players who mostly play in one
// server (some in two), a few of them a great deal. Everything in it
// follows from its seed, so the load phases can name its players, servers
// and open games without reading the store.
type world struct {
	servers []server
	cum     []float64 // the servers' weights, summed (for pick)
	players []string
	// threads is the number of threads games were played in so far: each
	// one's ID is threadID(n).
	threads int
	// open are the channels an open game was placed in: one a channel, so
	// a server's further open games are in threads.
	open map[string]bool
}

// server is one Discord server of the world.
type server struct {
	id       string
	weight   float64  // how much it plays, relative to the others
	channels []string // where its games are played (threads start from these)
	members  []int    // indexes into world.players, the most active first
	activity []float64
}

// World sizes: the "50,000 players, a few hundred servers".
const (
	worldPlayers = 50_000
	worldServers = 300
)

// newWorld makes the world of seed. Server 0 is testkit.Guild, the server
// the load phases play in, and the busiest, so its leaderboard and its
// players' histories are the longest the store has.
func newWorld(seed uint64, players, servers int) *world {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	w := &world{players: make([]string, players), servers: make([]server, servers), open: map[string]bool{}}
	for i := range w.players {
		w.players[i] = fmt.Sprintf("7%017d", i+1)
	}
	for i := range w.servers {
		s := &w.servers[i]
		s.id = fmt.Sprintf("9%017d", i+1)
		if i == 0 {
			s.id = testkit.Guild
		}
		s.weight = 1 / math.Pow(float64(i+1), 0.8) // a few big servers, a long tail
		for c := range 1 + int(8*s.weight) + rng.IntN(2) {
			s.channels = append(s.channels, fmt.Sprintf("91%04d%012d", i, c))
		}
	}
	// Each player's home server, by the servers' weights; a fifth of them
	// play in a second one too.
	w.cum = cumulative(len(w.servers), func(i int) float64 { return w.servers[i].weight })
	cum := w.cum
	for p := range w.players {
		home := pick(rng, cum)
		w.servers[home].members = append(w.servers[home].members, p)
		if rng.IntN(5) == 0 {
			if other := pick(rng, cum); other != home {
				w.servers[other].members = append(w.servers[other].members, p)
			}
		}
	}
	for i := range w.servers {
		s := &w.servers[i]
		for len(s.members) < 3 { // every server can hold a game of three
			if p := rng.IntN(players); !slices.Contains(s.members, p) {
				s.members = append(s.members, p)
			}
		}
		// Within a server a few players play most of the games.
		s.activity = cumulative(len(s.members), func(k int) float64 { return 1 / math.Pow(float64(k+1), 0.7) })
	}
	return w
}

// cumulative is the running sum of weight(0..n-1), for pick.
func cumulative(n int, weight func(int) float64) []float64 {
	cum := make([]float64, n)
	sum := 0.0
	for i := range n {
		sum += weight(i)
		cum[i] = sum
	}
	return cum
}

// pick draws an index with the weights cum sums.
func pick(rng *rand.Rand, cum []float64) int {
	x := rng.Float64() * cum[len(cum)-1]
	i, _ := slices.BinarySearch(cum, x)
	return min(i, len(cum)-1)
}

// threadID is the channel ID of the world's nth thread.
func threadID(n int) string { return fmt.Sprintf("92%016d", n) }

// gameSpec is one game of the world: where, when, who, under what rules,
// and how it goes.
type gameSpec struct {
	guild, channel string
	parent         string // the channel a thread was started from; "" when not in a thread
	players        []string
	rules          game.Rules
	clock          time.Duration
	start, end     time.Time
	seed           uint64
	// ending is how a finished game ends; an open game (open) is left
	// after moves moves (a lobby when moves < 0).
	ending ending
	open   bool
	moves  int
}

// ending is how a finished game of the world ends.
type ending uint8

const (
	playedOut ending = iota // won or drawn on the board
	resigned                // the player to move resigns partway
	onTime                  // the player to move runs out of time partway (the scheduler applies it)
)

// Kinds of game the world plays, with their shares: mostly the two named
// kinds, and some larger boards (rated as "other").
var worldRules = []struct {
	share float64
	rules game.Rules
}{
	{0.45, game.Classic()},
	{0.40, connectFourRules},
	{0.06, game.Rules{Rows: 5, Cols: 5, Win: 4, Players: 2}},
	{0.04, game.Rules{Rows: 7, Cols: 7, Win: 5, Players: 2}},
	{0.03, game.Rules{Rows: 15, Cols: 15, Win: 5, Players: 2}},
	{0.02, game.Rules{Rows: 6, Cols: 6, Win: 4, Gravity: true, Players: 3}},
}

var worldRulesCum = cumulative(len(worldRules), func(i int) float64 { return worldRules[i].share })

// finishedGame is the world's game number n of total finished ones, played
// between from and to (spread evenly, so the store's IDs follow time).
func (w *world) finishedGame(rng *rand.Rand, n, total int, from, to time.Time) gameSpec {
	span := to.Sub(from)
	end := from.Add(time.Duration((float64(n) + rng.Float64()) / float64(total) * float64(span)))
	g := w.game(rng, end, rng.IntN(10) < 3)
	switch x := rng.IntN(100); {
	case x < 5:
		g.ending = resigned
	case x < 20 && g.clock > 0 && g.rules.Players == 2: // with more, the game would go on
		// On a short clock, so that the game's IDs still follow time.
		g.ending, g.clock = onTime, table.Clocks[rng.IntN(3)]
	}
	return g
}

// openGame is the nth of the games open when the prefill ends (at now):
// most are being played, a tenth wait in a lobby; a tenth are on a long
// clock, and one in a hundred on a short clock that ran out while no bot
// ran, which the scheduler applies when the bot starts. A server channel
// holds one open game; the server's others are in threads.
func (w *world) openGame(rng *rand.Rand, n int, now time.Time) gameSpec {
	g := w.game(rng, now, false)
	if w.open[g.channel] {
		g.parent, g.channel = g.channel, threadID(w.threads)
		w.threads++
	}
	w.open[g.channel] = true
	g.clock = 0
	switch {
	case n%100 == 7:
		g.clock = table.Clocks[rng.IntN(3)] // 30 s, 1 min or 5 min, last moved 5–15 min ago
		g.end = now.Add(-5*time.Minute - time.Duration(rng.IntN(600))*time.Second)
	case rng.IntN(10) == 0:
		g.clock = table.Clocks[3+rng.IntN(2)] // 1 h or 24 h, last moved in the last 5 min
		g.end = now.Add(-time.Duration(rng.IntN(300)) * time.Second)
	default:
		g.end = now.Add(-time.Duration(rng.IntN(1800)) * time.Second)
	}
	g.start = g.end.Add(-time.Minute)
	g.open, g.moves = true, -1
	if rng.IntN(10) != 0 || g.clock > 0 { // a clock runs only in a game being played
		g.moves = rng.IntN(g.rules.Rows * g.rules.Cols / 2)
	}
	return g
}

// game picks a game's server, place, players and rules; it ends at end.
func (w *world) game(rng *rand.Rand, end time.Time, inThread bool) gameSpec {
	s := &w.servers[pick(rng, w.cum)]
	g := gameSpec{guild: s.id, channel: s.channels[rng.IntN(len(s.channels))], end: end, seed: rng.Uint64()}
	if inThread {
		g.parent, g.channel = g.channel, threadID(w.threads)
		w.threads++
	}
	g.rules = worldRules[pick(rng, worldRulesCum)].rules
	for len(g.players) < g.rules.Players {
		p := w.players[s.members[pick(rng, s.activity)]]
		if !slices.Contains(g.players, p) {
			g.players = append(g.players, p)
		}
	}
	if rng.IntN(5) == 0 {
		g.clock = table.Clocks[rng.IntN(len(table.Clocks))]
	}
	g.start = end.Add(-time.Duration(1+g.rules.Rows*g.rules.Cols/2) * 20 * time.Second)
	return g
}
