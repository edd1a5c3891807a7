package bot

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/fakediscord"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/store/postgres"
	"github.com/tttbot/tttbot/store/sqlite"
	"github.com/tttbot/tttbot/store/storetest"
	"github.com/tttbot/tttbot/table"
	"github.com/tttbot/tttbot/tournament"
)

// Crashes and replicas. A crash is a process that stops writing at some
// point: its store refuses every save from then on (and its Discord every
// call), and a new process (a new Tables and Bot) goes on from what the
// store holds, with the same fake Discord.

// errCrashed is what a crashed process's store and Discord answer.
var errCrashed = errors.New("the process crashed")

// crashStore is a store that crashes: from when frozen, every save fails.
type crashStore struct {
	testStore
	frozen atomic.Bool
	// after, when set, is asked after each save that landed whether the
	// process crashes right then.
	after func(s table.Save) bool
}

func (c *crashStore) SaveTable(ctx context.Context, s table.Save) (int64, bool, error) {
	if c.frozen.Load() {
		return 0, false, errCrashed
	}
	v, ok, err := c.testStore.SaveTable(ctx, s)
	if err == nil && ok && c.after != nil && c.after(s) {
		c.frozen.Store(true)
	}
	return v, ok, err
}

// crashThreads is Discord for a process that crashes right after a call
// that crash says crashes it: that call lands, nothing after it does.
type crashThreads struct {
	Threads
	st    *crashStore
	crash func(call, channel string) bool
}

func (c *crashThreads) dead() bool { return c.st.frozen.Load() }

func (c *crashThreads) landed(call, channel string) {
	if c.crash(call, channel) {
		c.st.frozen.Store(true)
	}
}

func (c *crashThreads) StartThread(ctx context.Context, parent, name string, typ, archive int) (string, error) {
	if c.dead() {
		return "", errCrashed
	}
	id, err := c.Threads.StartThread(ctx, parent, name, typ, archive)
	if err == nil {
		c.landed("start", parent)
	}
	return id, err
}

func (c *crashThreads) PostMessage(ctx context.Context, channel string, body []byte, files []*discordgo.File) (string, error) {
	if c.dead() {
		return "", errCrashed
	}
	id, err := c.Threads.PostMessage(ctx, channel, body, files)
	if err == nil {
		c.landed("post", channel)
	}
	return id, err
}

func (c *crashThreads) DeleteThread(ctx context.Context, thread string) error {
	if c.dead() {
		return errCrashed
	}
	return c.Threads.DeleteThread(ctx, thread)
}

// crashable is a harness whose store and Discord crash as the test says.
func crashable(t *testing.T, st testStore, discord *fakediscord.Server, now time.Time) (*harness, *crashStore) {
	cs := &crashStore{testStore: st}
	h := newHarnessOn(t, cs, now)
	h.discord = discord
	h.withThreads(t)
	return h, cs
}

// restarted is a new process on st, at h's time, with h's Discord.
func restarted(t *testing.T, h *harness, st testStore) *harness {
	h2 := newHarnessOn(t, st, h.clock())
	h2.discord = h.discord
	h2.withThreads(t)
	return h2
}

// tournamentOfThree opens and starts a round-robin of three in h and
// settles it: round 1 (bob against carol; alice has the bye) is open.
func tournamentOfThree(t *testing.T, h *harness) tournament.Game {
	t.Helper()
	h.openTournament("round-robin", []string{alice, bob, carol})
	publicText(t, h.as(alice, "tournament start"))
	h.settle()
	d := h.tourneyOf(channel)
	g := d.T.Waiting()
	if len(g) != 1 || !d.Opened[g[0].Key()] {
		t.Fatalf("round 1: %+v", d)
	}
	return g[0]
}

// checkRoundTwoOnce checks that round 2 was paired once and its game
// opened once: one game (and a bye), one table in the thread the document
// names, its board posted, and the round announced once.
func checkRoundTwoOnce(t *testing.T, h *harness) {
	t.Helper()
	h.settle()
	d := h.tourneyOf(channel)
	var games []tournament.Game
	for _, g := range d.T.Games {
		if g.Round == 2 {
			games = append(games, g)
		}
	}
	if d.T.Round != 2 || len(games) != 2 || games[0].Outcome != tournament.Pending {
		t.Fatalf("round 2 paired as %+v (round %d)", games, d.T.Round)
	}
	if r1, _ := d.T.Game("r1b1"); r1.Outcome != tournament.FirstWon {
		t.Fatalf("round 1's result: %v", r1.Outcome)
	}
	key := games[0].Key()
	thread := d.Threads[key]
	tbl := h.load(thread)
	if tg, ok := tbl.InTournament(); !d.Opened[key] || !ok || tg.Game != key || tbl.Phase != table.Playing {
		t.Fatalf("round 2's game %s in %s: opened %v, table %+v", key, thread, d.Opened[key], tbl)
	}
	announced := 0
	for _, m := range h.discord.Messages(channel) {
		if strings.Contains(string(m.Body), "Round 2 of 3") {
			announced++
		}
	}
	if announced != 1 {
		t.Fatalf("round 2 announced %d times", announced)
	}
}

// finishRoundOne plays round 1's game in h: bob (first) wins.
func finishRoundOne(t *testing.T, h *harness, g tournament.Game) {
	t.Helper()
	d := h.tourneyOf(channel)
	h.playIn(d.Threads[g.Key()], g, g.First)
	h.tables.Wait()
	h.bot.Wait()
}

// TestTournamentCrashes: a process that stops at any point of a round's
// end loses no result and pairs no round twice; what a crash can repeat is
// a call to Discord whose record did not land (the remaining windows,
// checked here too).
func TestTournamentCrashes(t *testing.T) {
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	t.Run("BetweenTheEndAndTheReport", func(t *testing.T) {
		st := store.NewMemory()
		h, _ := crashable(t, st, fakediscord.New(t), start)
		g := tournamentOfThree(t, h)
		finishRoundOne(t, h, g) // saved over, its report due; no scheduler ran
		if tbl := h.load(h.tourneyOf(channel).Threads[g.Key()]); tbl.DueNow(h.clock()) != table.ReportDue {
			t.Fatalf("the ended game's report is not due: %v", tbl.DueNow(h.clock()))
		}
		checkRoundTwoOnce(t, restarted(t, h, st))
	})
	t.Run("ClockRanOutWhileNoBotRan", func(t *testing.T) {
		// Nobody moved in round 1's game, and its clock ran out while no
		// process ran: the next process's first pass enforces it (bob, to
		// move, did not show: a forfeit) and pairs round 2.
		st := store.NewMemory()
		h, _ := crashable(t, st, fakediscord.New(t), start)
		g := tournamentOfThree(t, h)
		h2 := restarted(t, h, st)
		h2.advance(6 * time.Minute)
		if n, err := h2.scheduler().RunDue(t.Context()); err != nil || n == 0 {
			t.Fatalf("the first pass applied %d: %v", n, err)
		}
		h2.settle()
		d := h2.tourneyOf(channel)
		if r1, _ := d.T.Game(g.Key()); d.T.Round != 2 || r1.Outcome != tournament.FirstForfeit || len(d.waiting()) != 0 {
			t.Fatalf("round %d, round 1's game %v, waiting %v", d.T.Round, r1.Outcome, d.waiting())
		}
	})
	t.Run("DuringPairing", func(t *testing.T) {
		// The tournament recorded the result and paired round 2, and the
		// process died before the game's table was saved as reported: the
		// report runs again, and changes nothing.
		st := store.NewMemory()
		h, cs := crashable(t, st, fakediscord.New(t), start)
		g := tournamentOfThree(t, h)
		cs.after = func(s table.Save) bool {
			var d tourney
			return s.Channel == tournamentKey(channel) && json.Unmarshal(s.Data, &d) == nil && d.T.Round == 2
		}
		finishRoundOne(t, h, g)
		if _, err := h.scheduler().RunDue(t.Context()); !errors.Is(err, errCrashed) {
			t.Fatalf("the crashed pass: %v", err)
		}
		h2 := restarted(t, h, st)
		if tbl := h2.load(h2.tourneyOf(channel).Threads[g.Key()]); tbl.Reported {
			t.Fatal("the table was saved as reported after the crash")
		}
		checkRoundTwoOnce(t, h2)
	})
	t.Run("DuringThreadCreation", func(t *testing.T) {
		// Round 2's thread was started, and the process died before saving
		// it: the lease runs out, and the next process starts another (the
		// first stays empty). The game is opened once.
		st := store.NewMemory()
		discord := fakediscord.New(t)
		h, cs := crashable(t, st, discord, start)
		g := tournamentOfThree(t, h)
		h.bot.threads = &crashThreads{Threads: h.bot.threads, st: cs, crash: func(call, ch string) bool { return call == "start" }}
		finishRoundOne(t, h, g)
		h.settle() // reports, pairs round 2, and dies in its thread's start
		if !cs.frozen.Load() || len(discord.Threads()) != 2 {
			t.Fatalf("no crash in round 2's thread: %d threads", len(discord.Threads()))
		}
		h2 := restarted(t, h, st)
		h2.settle()
		if worked, err := h2.bot.advanceTournament(t.Context(), channel); worked || err != nil {
			t.Fatalf("the new process worked (%v, %v) while the dead one's lease held", worked, err)
		}
		if d := h2.tourneyOf(channel); len(d.waiting()) != 1 {
			t.Fatalf("round 2 opened while the dead process's lease held: %+v", d.play)
		}
		h2.advance(leaseFor + time.Second)
		checkRoundTwoOnce(t, h2)
		threads := discord.Threads()
		if len(threads) != 3 || len(discord.Messages(threads[1].ID)) != 0 {
			t.Fatalf("threads %+v: want round 1's, the dead process's empty one, and round 2's", threads)
		}
	})
	t.Run("BetweenTheBoardAndItsTable", func(t *testing.T) {
		// The board was posted in round 2's thread, and the process died
		// before the game's table was saved: the board is posted again in
		// the same thread, and the game is opened once.
		st := store.NewMemory()
		discord := fakediscord.New(t)
		h, cs := crashable(t, st, discord, start)
		g := tournamentOfThree(t, h)
		h.bot.threads = &crashThreads{Threads: h.bot.threads, st: cs, crash: func(call, ch string) bool { return call == "post" && ch != channel }}
		finishRoundOne(t, h, g)
		h.settle()
		h2 := restarted(t, h, st)
		h2.advance(leaseFor + time.Second)
		checkRoundTwoOnce(t, h2)
		threads := discord.Threads()
		if len(threads) != 2 || len(discord.Messages(threads[1].ID)) != 2 {
			t.Fatalf("threads %+v, %d messages in round 2's: want one thread, its board posted twice", threads, len(discord.Messages(threads[1].ID)))
		}
	})
}

// tournamentStores open a store for the replica and restart tests: twice
// on the same data (two processes, or one after the other). PostgreSQL
// skips without TEST_DATABASE_URL.
func tournamentStores() map[string]func(t *testing.T) func() testStore {
	return map[string]func(t *testing.T) func() testStore{
		"memory": func(t *testing.T) func() testStore {
			st := store.NewMemory()
			return func() testStore { return st }
		},
		"sqlite": func(t *testing.T) func() testStore {
			path := filepath.Join(t.TempDir(), "tttbot.db")
			var opened *sqlite.Store
			return func() testStore {
				if opened != nil {
					opened.Close() // one process at a time on the file
				}
				s, err := sqlite.Open(t.Context(), path)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				opened = s
				return s
			}
		},
		"postgres": func(t *testing.T) func() testStore {
			url := storetest.PostgresURL(t)
			return func() testStore {
				s, err := postgres.Open(t.Context(), url)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				return s
			}
		},
	}
}

// TestTournamentSurvivesRestarts: a tournament, a game's end and its report
// outlive the process in every store: a new process on the same data
// reports the result and pairs the next round once.
func TestTournamentSurvivesRestarts(t *testing.T) {
	for name, open := range tournamentStores() {
		t.Run(name, func(t *testing.T) {
			reopen := open(t)
			h := newHarnessOn(t, reopen(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
			h.withThreads(t)
			g := tournamentOfThree(t, h)
			finishRoundOne(t, h, g)
			checkRoundTwoOnce(t, restarted(t, h, reopen()))
		})
	}
}

// TestTournamentReplicas: two processes over one store finish the last
// two games of a round at the same moment, and both run their schedulers
// at once: the next round is paired once, and each of its games opened
// once.
func TestTournamentReplicas(t *testing.T) {
	for name, open := range tournamentStores() {
		if name == "sqlite" {
			continue // one process a file: its replicas are the next test's restarts
		}
		t.Run(name, func(t *testing.T) {
			reopen := open(t)
			a := newHarnessOn(t, reopen(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
			a.withThreads(t)
			b := restarted(t, a, reopen())
			b.now = a.now // one clock for both
			a.openTournament("round-robin", []string{alice, bob, carol, dave})
			publicText(t, a.as(alice, "tournament start"))
			a.settle()
			d := a.tourneyOf(channel)
			games := d.T.Waiting()
			if len(games) != 2 {
				t.Fatalf("round 1: %+v", games)
			}
			// Each replica plays one game up to its last move.
			last := make([]*discordgo.Interaction, 2)
			for i, g := range games {
				h := []*harness{a, b}[i]
				thread := d.Threads[g.Key()]
				for j, at := range firstWins[:len(firstWins)-1] {
					user := g.First
					if j%2 == 1 {
						user = g.Second
					}
					publicText(t, h.in(thread, user, "move", opt(optPosition, at)))
				}
				last[i] = h.prepare(thread, g.First, "move", opt(optPosition, firstWins[len(firstWins)-1]))
			}
			var wg sync.WaitGroup
			for i, h := range []*harness{a, b} {
				wg.Go(func() { h.bot.Handle(context.Background(), last[i]) })
			}
			wg.Wait()
			// Both schedulers, and both processes' own pushes of the
			// tournament's work, at once.
			for range 2 {
				for _, h := range []*harness{a, b} {
					wg.Go(func() { h.scheduler().RunDue(context.Background()) })
					wg.Go(func() { h.bot.advanceTournament(context.Background(), channel) })
				}
				wg.Wait()
			}
			a.settle()
			b.settle()
			d = a.tourneyOf(channel)
			var round2 []tournament.Game
			for _, g := range d.T.Games {
				if g.Round == 2 {
					round2 = append(round2, g)
				}
			}
			if d.T.Round != 2 || len(round2) != 2 {
				t.Fatalf("round 2 paired as %+v", round2)
			}
			threads := a.discord.Threads()
			if len(threads) != 4 {
				t.Fatalf("%d threads: want 2 a round", len(threads))
			}
			for _, g := range round2 {
				th := d.Threads[g.Key()]
				if tg, ok := a.load(th).InTournament(); !ok || tg.Game != g.Key() || len(a.discord.Messages(th)) != 1 {
					t.Fatalf("game %s in %s: %v, %d messages", g.Key(), th, tg, len(a.discord.Messages(th)))
				}
			}
			announced := 0
			for _, m := range a.discord.Messages(channel) {
				if strings.Contains(string(m.Body), "Round 2 of 3") {
					announced++
				}
			}
			if announced != 1 {
				t.Fatalf("round 2 announced %d times", announced)
			}
		})
	}
}
