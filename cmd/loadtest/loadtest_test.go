package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/testkit"
	"github.com/tttbot/tttbot/store/storetest"
)

// TestMain lets the test binary serve the bound, as the tool does: Run
// starts its own executable with boundArg.
func TestMain(m *testing.M) {
	if len(os.Args) > 3 && os.Args[1] == boundArg {
		if err := serveBoundArgs(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// TestSmoke builds the real binary and drives a few requests a channel
// through it and the bound: the tool works end to end, and writes the bot's
// CPU profile and execution trace when asked. It measures nothing and
// asserts no speed.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the binary")
	}
	dir := t.TempDir()
	cfg := Config{DB: "sqlite", CPUProfile: filepath.Join(dir, "bot.pprof"), Trace: filepath.Join(dir, "bot.trace")}
	smoke(t, cfg)
	for file, starts := range map[string]string{cfg.CPUProfile: "\x1f\x8b", cfg.Trace: "go 1."} {
		b, err := os.ReadFile(file)
		if err != nil || !strings.HasPrefix(string(b), starts) {
			t.Errorf("%s: %d bytes beginning %q (%v), want %q first", file, len(b), b[:min(len(b), 8)], err, starts)
		}
	}
}

// TestSmokeButtons is TestSmoke with the moves played by pressing the
// board's buttons: every move after the first board is a press the bot
// accepts.
func TestSmokeButtons(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the binary")
	}
	rep := smoke(t, Config{DB: "sqlite", Buttons: true})
	// Each channel: new, join, then moves, all presses (a game of seven
	// moves is followed by new, join and one more).
	if p := rep.Pooled("bot"); p.Presses != p.Moves || p.Moves < 2*8 {
		t.Errorf("%d of the bot's %d moves were presses", p.Presses, p.Moves)
	}
}

// TestSmokePostgres is TestSmoke on PostgreSQL (a schema of its own in
// TEST_DATABASE_URL), which also reports the rows the bot's statements read.
func TestSmokePostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the binary")
	}
	rep := smoke(t, Config{DB: storetest.PostgresURL(t)})
	if rep.Scans == nil || rep.Scans.SeqRows < 0 || rep.Scans.IndexRows < 0 {
		t.Errorf("rows read by the bot's statements: %+v", rep.Scans)
	}
}

// smoke drives 2 channels × 12 requests (/ttt new, join and ten moves of
// Connect Four) through the bot on cfg.DB and through both bounds.
func smoke(t *testing.T, cfg Config) *Report {
	t.Helper()
	var log bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg.Channels, cfg.Dir, cfg.Phases, cfg.Requests, cfg.Log = 2, t.TempDir(), 1, 12, &log
	rep, err := Run(ctx, cfg, &bytes.Buffer{})
	if err != nil {
		t.Fatalf("%v\nbot's log:\n%s", err, log.Bytes())
	}
	for _, kind := range []string{"bot", "bound", "durable"} {
		p := rep.Pooled(kind)
		if len(p.Latencies) != 2*12 || p.Refused+p.Failed != 0 {
			t.Errorf("%s: %d replies, %d refused, %d failed (%s)\nbot's log:\n%s", kind, len(p.Latencies), p.Refused, p.Failed, p.FirstError, log.Bytes())
		}
	}
	// Every accepted action is a durable write: 24 of them, at least one
	// COMMIT.
	if b := rep.Pooled("bot").Batches; b.Commits < 1 || b.Writes < 2*12 || b.Busy <= 0 {
		t.Errorf("the bot's store during the phase: %+v", b)
	}
	var out bytes.Buffer
	rep.Print(&out)
	if !bytes.Contains(out.Bytes(), []byte("ratio bot/bound")) || !bytes.Contains(out.Bytes(), []byte("ratio bot/durable")) {
		t.Errorf("report without the ratio:\n%s", out.Bytes())
	}
	return rep
}

func TestChannelScript(t *testing.T) {
	// Every game the script plays ends: after a finished game it opens the next.
	ch := newChannel(1, 0, nil, newIDs(time.Now()))
	games := 0
	for range 1000 {
		before := ch.step
		ch.done(true, nil)
		if before == stepMove && ch.step == stepNew {
			games++
		}
		if ch.step == stepMove {
			ch.sim.planned = ch.sim.pick(ch.rng)
		}
	}
	if games < 10 {
		t.Fatalf("%d games in 1000 accepted requests", games)
	}
}

// TestChannelRequests: each request a channel sends, the rendered command
// it reuses or the press, is a new interaction (its own ID) by the player
// whose turn it is, in the channel; a press carries the board it was made on.
func TestChannelRequests(t *testing.T) {
	for _, buttons := range []bool{false, true} {
		ch := newChannel(1, 0, nil, newIDs(time.Now()))
		ch.buttons = buttons
		seen := map[string]bool{}
		for range 40 {
			before := ch.step
			body, err := ch.next()
			if err != nil {
				t.Fatal(err)
			}
			var i struct {
				ID        string `json:"id"`
				Type      int    `json:"type"`
				ChannelID string `json:"channel_id"`
				Member    struct {
					User struct {
						ID string `json:"id"`
					} `json:"user"`
				} `json:"member"`
				Data struct {
					Options []struct {
						Name string `json:"name"`
					} `json:"options"`
				} `json:"data"`
				Message struct {
					Content string `json:"content"`
				} `json:"message"`
			}
			if err := json.Unmarshal(body, &i); err != nil {
				t.Fatalf("%v\n%s", err, body)
			}
			want := map[step]string{stepNew: "new", stepJoin: "join", stepMove: "move"}[before]
			player := []string{ch.alice, ch.bob}[b2i(before == stepJoin || before == stepMove && ch.sim.turn == 1)]
			switch {
			case seen[i.ID] || i.ID != strconv.FormatUint(ch.ids.Load(), 10):
				t.Fatalf("interaction ID %s again, or not the last one issued", i.ID)
			case i.ChannelID != ch.id || i.Member.User.ID != player:
				t.Fatalf("%s by %s in %s; want by %s in %s", want, i.Member.User.ID, i.ChannelID, player, ch.id)
			case ch.pressed && (i.Type != 3 || i.Message.Content != "a board"):
				t.Fatalf("a press of type %d on %q", i.Type, i.Message.Content)
			case !ch.pressed && (i.Type != 2 || len(i.Data.Options) != 1 || i.Data.Options[0].Name != want):
				t.Fatalf("%+v, want /ttt %s", i, want)
			}
			seen[i.ID] = true
			ch.done(true, benchBoard)
		}
		if buttons && len(ch.rendered) == 0 || !buttons && len(ch.rendered) >= 40 {
			t.Fatalf("%d commands rendered for 40 requests", len(ch.rendered))
		}
	}
}

// TestJournalGoesRound: the durable bound's journal file is written to its
// full length, and each record goes where the last ended, round at the end.
func TestJournalGoesRound(t *testing.T) {
	f, err := writtenFile(filepath.Join(t.TempDir(), "journal"), 10)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() != 10 {
		t.Fatalf("journal file: %v, %v; want 10 bytes", fi.Size(), err)
	}
	j := &groupJournal{f: f, size: 10} // its writer goroutine not started
	off, err := j.writeRound([]byte("abcdefg"), 0)
	if err == nil {
		off, err = j.writeRound([]byte("hijkl"), off)
	}
	if err != nil || off != 2 {
		t.Fatalf("next write at %d, %v; want 2", off, err)
	}
	got := make([]byte, 10)
	if _, err := f.ReadAt(got, 0); err != nil {
		t.Fatal(err)
	}
	if string(got) != "klcdefghij" {
		t.Errorf("journal holds %q, want %q", got, "klcdefghij")
	}
}

// BenchmarkNextRequest is the load generator's own cost a request (the
// payload built and signed), which it spends on the machine it measures.
func BenchmarkNextRequest(b *testing.B) {
	for _, buttons := range []bool{false, true} {
		b.Run(fmt.Sprintf("buttons=%v", buttons), func(b *testing.B) {
			ch := newChannel(1, 0, testkit.NewSigner("benchmark"), newIDs(time.Now()))
			ch.buttons = buttons
			h := http.Header{}
			b.ReportAllocs()
			for b.Loop() {
				body, err := ch.next()
				if err != nil {
					b.Fatal(err)
				}
				ch.key.Sign(h, body, time.Now())
				if ch.step == stepMove {
					ch.sim.planned = ch.sim.pick(ch.rng)
				}
				ch.done(true, benchBoard)
			}
		})
	}
}

// benchBoard is a board reply with its column buttons, as the bot sends one.
var benchBoard = []byte(`{"type":4,"data":{"content":"a board","components":[{"type":1,"components":[{"type":2,"style":2,"label":"0","custom_id":"ttt:col:5:0"},{"type":2,"style":2,"label":"1","custom_id":"ttt:col:5:1"}]}]}}`)

// b2i is 1 for true and 0 for false, an index into a pair.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
