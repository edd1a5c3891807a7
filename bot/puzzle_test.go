package bot

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/internal/testkit"
	"github.com/tttbot/tttbot/puzzle/progress"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/store/postgres"
	"github.com/tttbot/tttbot/store/sqlite"
	"github.com/tttbot/tttbot/store/storetest"
)

// tryOf finds the try a puzzle message's buttons belong to, in user's
// record.
func (h *harness) tryOf(tb testing.TB, user string, msg *WireResponse) progress.Attempt {
	tb.Helper()
	rec, err := h.bot.puzzles.Load(context.Background(), user)
	if err != nil {
		tb.Fatal(err)
	}
	n := -1
	for _, b := range replyButtons(msg) {
		if segs := strings.Split(b.CustomID, ":"); len(segs) > 2 && strings.HasPrefix(segs[1], "pz") {
			n, _ = strconv.Atoi(segs[2])
		}
	}
	for _, a := range rec.Open {
		if a.N == n {
			return a
		}
	}
	tb.Fatalf("no try %d in %s's record", n, user)
	return progress.Attempt{}
}

// puzzleMove is what "click solution" (the main line's next move) and
// "click wrong" (a first move other than the solution) press on msg, as
// findButton takes it: the custom_id's ending.
func (h *harness) puzzleMove(tb testing.TB, user string, msg *WireResponse, solution bool) string {
	tb.Helper()
	a := h.tryOf(tb, user, msg)
	next := a.Puzzle.Line[len(a.Played)]
	suffix := func(c game.Coord) string {
		if a.Puzzle.Rules.Gravity {
			return strconv.Itoa(c.Col)
		}
		return strconv.Itoa(c.Row) + ":" + strconv.Itoa(c.Col)
	}
	if solution {
		return suffix(next)
	}
	if len(a.Played) > 0 {
		tb.Fatal("click wrong: only a first move is sure to fail")
	}
	g, err := a.Position()
	if err != nil {
		tb.Fatal(err)
	}
	for _, b := range replyButtons(msg) {
		if b.Disabled {
			continue
		}
		segs := strings.Split(b.CustomID, ":")
		var at game.Coord
		if a.Puzzle.Rules.Gravity {
			at.Col, _ = strconv.Atoi(segs[len(segs)-1])
			if at, err = g.Target(at); err != nil {
				tb.Fatal(err)
			}
		} else {
			at.Row, _ = strconv.Atoi(segs[len(segs)-2])
			at.Col, _ = strconv.Atoi(segs[len(segs)-1])
		}
		if at != next {
			return suffix(at)
		}
	}
	tb.Fatal("click wrong: every button is the solution")
	return ""
}

// puzzleInteraction is /ttt puzzle by user with opts, as interaction id.
func (h *harness) puzzleInteraction(tb testing.TB, id, user string, opts ...option) *discordgo.Interaction {
	tb.Helper()
	fields := commandFields(channel, user, "puzzle", 0, opts)
	fields["ID"] = id
	return interaction(tb, "command.json", fields)
}

// pressInteraction is user's press of the button customID, as interaction id.
func pressInteraction(tb testing.TB, id, user, customID string) *discordgo.Interaction {
	tb.Helper()
	fields := testkit.ComponentFields(channel, user, customID)
	fields["ID"] = id
	return interaction(tb, "component.json", fields)
}

// ids hands out interaction IDs, each its own, as Discord does.
type ids struct{ n int }

func (s *ids) next() string {
	s.n++
	return strconv.Itoa(1200000000000000000 + s.n)
}

// solutionID is the custom_id of the button on msg that plays the main
// line's next move of user's try.
func (h *harness) solutionID(tb testing.TB, user string, msg *WireResponse) string {
	tb.Helper()
	id := findButton(msg, h.puzzleMove(tb, user, msg, true))
	if id == "" {
		tb.Fatal("no button plays the solution")
	}
	return id
}

// solve plays user's try on msg to its end along the main line, and
// returns the last message.
func (h *harness) solve(tb testing.TB, id *ids, user string, msg *WireResponse) *WireResponse {
	tb.Helper()
	for range 20 {
		if !strings.Contains(replyText(msg), "to play and win") {
			return msg
		}
		msg = h.bot.Handle(context.Background(), pressInteraction(tb, id.next(), user, h.solutionID(tb, user, msg)))
		if msg.Type != discordgo.InteractionResponseUpdateMessage {
			tb.Fatalf("a press on the solution was refused: %s", replyText(msg))
		}
	}
	tb.Fatal("the try did not end")
	return nil
}

func (h *harness) record(tb testing.TB, user string) progress.Record {
	tb.Helper()
	r, err := h.bot.puzzles.Load(context.Background(), user)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// TestPuzzleReplayAppliesOnce: a command or a press delivered twice (an HTTP
// retry, a replay) is applied once, whether the transport dedupes through
// the store (ServeOnce) or not (Serve: the record keeps the IDs it applied).
func TestPuzzleReplayAppliesOnce(t *testing.T) {
	for _, dedupe := range []bool{true, false} {
		t.Run(map[bool]string{true: "ServeOnce", false: "Serve"}[dedupe], func(t *testing.T) {
			h := newHarness(t)
			serve := func(i *discordgo.Interaction) (*WireResponse, bool) {
				if dedupe {
					resp, recorded := h.bot.ServeOnce(context.Background(), i)
					return resp.InteractionResponse(true), recorded
				}
				return h.bot.Handle(context.Background(), i), false
			}
			start := h.puzzleInteraction(t, "1200000000000000001", alice, opt("kind", "classic"), opt("difficulty", "easy"))
			msg, recorded := serve(start)
			if recorded != dedupe || msg.Type != discordgo.InteractionResponseChannelMessageWithSource {
				t.Fatalf("start: recorded %v, %s", recorded, replyText(msg))
			}
			again, _ := serve(start)
			refused(t, again, "already handled")
			if r := h.record(t, alice); r.Tries != 1 {
				t.Fatalf("a replayed start made %d tries", r.Tries)
			}
			press := pressInteraction(t, "1200000000000000002", alice, h.solutionID(t, alice, msg))
			if resp, _ := serve(press); resp.Type != discordgo.InteractionResponseUpdateMessage {
				t.Fatalf("press refused: %s", replyText(resp))
			}
			again, _ = serve(press)
			refused(t, again, "already handled")
			if a := h.record(t, alice).Open[0]; len(a.Played) != 2 {
				t.Fatalf("after a replayed press the try has %d moves, want 2 (the move and its reply)", len(a.Played))
			}
		})
	}
}

// TestPuzzleStalePress: a press on a message that no longer shows the try as
// it stands (a move was made since, the try is over, or it belongs to
// someone else's record) changes nothing.
func TestPuzzleStalePress(t *testing.T) {
	h := newHarness(t)
	var id ids
	first := h.bot.Handle(context.Background(), h.puzzleInteraction(t, id.next(), alice, opt("kind", "classic"), opt("difficulty", "easy")))
	solution := h.solutionID(t, alice, first)
	if resp := h.bot.Handle(context.Background(), pressInteraction(t, id.next(), alice, solution)); resp.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("press refused: %s", replyText(resp))
	}
	before := h.record(t, alice)
	for name, press := range map[string]*discordgo.Interaction{
		"the same button again":   pressInteraction(t, id.next(), alice, solution),
		"another cell, old board": pressInteraction(t, id.next(), alice, findButton(first, "1:0")),
		"bob presses alice's":     pressInteraction(t, id.next(), bob, solution),
		"a try never made":        pressInteraction(t, id.next(), alice, "ttt:pzcell:9:0:1:0"),
	} {
		refused(t, h.bot.Handle(context.Background(), press), "out of date")
		if after := h.record(t, alice); len(after.Open[0].Played) != len(before.Open[0].Played) {
			t.Fatalf("%s: a stale press moved the try", name)
		}
	}
	if r := h.record(t, bob); r.Tries != 0 || len(r.Open) != 0 {
		t.Fatalf("bob's press on alice's message made him a record: %+v", r)
	}
}

// TestPuzzlePressesAtOnce: the same button pressed many times at once (a
// double click, several tabs) plays one move.
func TestPuzzlePressesAtOnce(t *testing.T) {
	h := newHarness(t)
	var id ids
	msg := h.bot.Handle(context.Background(), h.puzzleInteraction(t, id.next(), alice, opt("kind", "classic"), opt("difficulty", "easy")))
	solution := h.solutionID(t, alice, msg)
	presses := make([]*discordgo.Interaction, 8)
	for i := range presses {
		presses[i] = pressInteraction(t, id.next(), alice, solution)
	}
	var accepted atomic.Int32
	var wg sync.WaitGroup
	for _, p := range presses {
		wg.Go(func() {
			if h.bot.Handle(context.Background(), p).Type == discordgo.InteractionResponseUpdateMessage {
				accepted.Add(1)
			}
		})
	}
	wg.Wait()
	if n := accepted.Load(); n != 1 {
		t.Fatalf("%d presses applied, want exactly 1", n)
	}
	if a := h.record(t, alice).Open[0]; len(a.Played) != 2 {
		t.Fatalf("the try has %d moves, want 2", len(a.Played))
	}
}

// TestPuzzleReplicas: two bots with their own Tables on one store (two
// replicas) get the same press at once, and later the same solve: it is
// applied once, counted once, and both agree on the daily puzzle. It runs
// on the memory store, SQLite, and PostgreSQL when TEST_DATABASE_URL is set.
func TestPuzzleReplicas(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) testStore{
		"memory": func(*testing.T) testStore { return store.NewMemory() },
		"sqlite": func(t *testing.T) testStore {
			s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "puzzles.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
		"postgres": func(t *testing.T) testStore {
			s, err := postgres.Open(context.Background(), storetest.PostgresURL(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	} {
		t.Run(name, func(t *testing.T) { puzzleReplicas(t, open(t)) })
	}
}

func puzzleReplicas(t *testing.T, st testStore) {
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) // a Monday: an easy daily puzzle
	a, b := newHarnessOn(t, st, start), newHarnessOn(t, st, start)
	var id ids
	msgA := a.bot.Handle(context.Background(), a.puzzleInteraction(t, id.next(), alice))
	msgB := b.bot.Handle(context.Background(), b.puzzleInteraction(t, id.next(), alice))
	if replyText(msgA) != replyText(msgB) {
		t.Fatalf("the replicas show different daily puzzles:\n%s\n%s", replyText(msgA), replyText(msgB))
	}
	for !strings.Contains(replyText(msgA), "Solved!") {
		solution := a.solutionID(t, alice, msgA)
		pa, pb := pressInteraction(t, id.next(), alice, solution), pressInteraction(t, id.next(), alice, solution)
		var ra, rb *WireResponse
		var wg sync.WaitGroup
		wg.Go(func() { ra = a.bot.Handle(context.Background(), pa) })
		wg.Go(func() { rb = b.bot.Handle(context.Background(), pb) })
		wg.Wait()
		switch {
		case ra.Type == discordgo.InteractionResponseUpdateMessage && rb.Type != discordgo.InteractionResponseUpdateMessage:
			msgA = ra
		case rb.Type == discordgo.InteractionResponseUpdateMessage && ra.Type != discordgo.InteractionResponseUpdateMessage:
			msgA = rb
		default:
			t.Fatalf("both or neither replica applied the press:\n%s\n%s", replyText(ra), replyText(rb))
		}
	}
	r := a.record(t, alice)
	if r.Solved != 1 || r.Rated != 1 || r.Streak != 1 {
		t.Fatalf("one solve on two replicas counted as %d solves, %d rated tries, streak %d", r.Solved, r.Rated, r.Streak)
	}
	// A new try at the same daily puzzle on the other replica is practice.
	again := b.bot.Handle(context.Background(), b.puzzleInteraction(t, id.next(), alice))
	if !strings.Contains(replyText(again), "Practice") {
		t.Fatalf("a second try at a solved puzzle is not practice:\n%s", replyText(again))
	}
	b.solve(t, &id, alice, again)
	if r2 := a.record(t, alice); r2.Solved != 1 || r2.Rated != 1 || r2.Rating != r.Rating {
		t.Fatalf("a practice solve changed the record: %+v → %+v", r, r2)
	}
}

// TestPuzzleStreakAcrossMidnight moves the application's clock over UTC
// midnights: a daily puzzle solved each day extends the streak; one begun
// before midnight and solved after it counts for its own day; a day missed
// ends the current streak but keeps the best.
func TestPuzzleStreakAcrossMidnight(t *testing.T) {
	monday := time.Date(2026, 11, 23, 23, 50, 0, 0, time.UTC)
	h := newHarnessOn(t, store.NewMemory(), monday)
	var id ids
	daily := func(kind string) *WireResponse {
		t.Helper()
		return h.bot.Handle(context.Background(), h.puzzleInteraction(t, id.next(), alice, opt("kind", kind)))
	}
	streak := func(want string) {
		t.Helper()
		if got := publicText(t, h.as(alice, "stats")); !strings.Contains(got, want) {
			t.Fatalf("stats say %q, want %q", got, want)
		}
	}
	h.solve(t, &id, alice, daily("connect4"))
	streak("daily streak 1 (best 1)")

	h.advance(5 * time.Minute) // 23:55 on Monday: Monday's classic daily puzzle
	begun := daily("classic")
	h.advance(10 * time.Minute) // 00:05 on Tuesday
	h.solve(t, &id, alice, begun)
	streak("daily streak 1 (best 1)") // Monday's puzzle: Monday counted already

	h.solve(t, &id, alice, daily("connect4")) // Tuesday's
	streak("daily streak 2 (best 2)")
	if r := h.record(t, alice); r.Solved != 3 || r.LastDaily != "2026-11-24" {
		t.Fatalf("record %+v, want 3 solved, last daily on Tuesday", r)
	}

	h.advance(60 * time.Hour) // Wednesday passes unsolved: Thursday 12:05
	streak("daily streak 0 (best 2)")
	h.solve(t, &id, alice, daily("connect4"))
	streak("daily streak 1 (best 2)")
}
