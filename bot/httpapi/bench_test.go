package httpapi

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/bot"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/internal/testkit"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/store/sqlite"
	"github.com/tttbot/tttbot/table"
)

// BenchmarkHTTPConnectFour is the whole request in one process, for
// profiling (-cpuprofile, -memprofile): signed Connect Four interactions in
// many channels at once (b.RunParallel: one channel a goroutine, its
// requests in turn) through verify → decode → table → move → render →
// encode, on a durable SQLite file. cmd/loadtest measures the real binary
// over the network; this is where its CPU goes.
func BenchmarkHTTPConnectFour(b *testing.B) {
	s := newSigner(b)
	s.now = time.Now() // SQLite stamps are real
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	now := func() time.Time { return s.now }
	bt := bot.New(bot.Options{Tables: table.NewTables(table.Options{Store: st, Now: now}), Records: st})
	h := NewHandler(bt, Options{PublicKey: s.Public, Now: now})
	var channels, ids atomic.Uint64
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	b.RunParallel(func(pb *testing.PB) {
		ch := strconv.FormatUint(910000000000100000+channels.Add(1), 10)
		rng := rand.New(rand.NewPCG(1, channels.Load()))
		var g *game.Game
		step := 0
		for pb.Next() {
			var user, sub string
			var opts []testkit.Option
			switch {
			case step == 0:
				user, sub, opts = alice, "new", []testkit.Option{testkit.Opt("rows", 6), testkit.Opt("columns", 7), testkit.Opt("win", 4), testkit.Opt("gravity", true)}
			case step == 1:
				user, sub = bob, "join"
			default:
				col := rng.IntN(7)
				for g.ColumnFull(col) {
					col = rng.IntN(7)
				}
				user, sub, opts = []string{alice, bob}[g.Turn()], "move", []testkit.Option{testkit.Opt("position", strconv.Itoa(col))}
				g.Play(g.Turn(), game.Coord{Col: col})
			}
			fields := testkit.CommandFields(ch, user, sub, 0, opts)
			fields["ID"] = strconv.FormatUint(1180000000000000000+ids.Add(1), 10)
			body := testkit.Raw(b, "command.json", fields)
			r := s.request(body, s.now)
			r.Body = io.NopCloser(bytes.NewReader(body))
			w := serve(h, r)
			if w.Code != http.StatusOK || bytes.Contains(w.Body.Bytes(), []byte(`"flags":64`)) {
				b.Fatalf("%s %s refused: %s", user, sub, w.Body)
			}
			switch {
			case step == 1:
				g, _ = game.New(game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}, game.Fast, []rune("XO"))
				step = 2
			case step == 2 && g.Over():
				step = 0
			case step == 0:
				step = 1
			}
		}
	})
}

// BenchmarkHTTPConnectFourMemory is BenchmarkHTTPConnectFour's request on
// a memory store, one channel, its requests signed before the timer
// starts: what is left is the CPU a request costs in this process (verify,
// decode, the bot's action and reply, encode), without the database's
// writer and fsync, whose waits make the durable benchmark's time per
// request a poor measure of that CPU. The channel plays the same games
// over and over: a game that ends starts the next with /ttt new.
func BenchmarkHTTPConnectFourMemory(b *testing.B) {
	s := newSigner(b)
	bt := bot.New(bot.Options{Tables: table.NewTables(table.Options{Store: store.NewMemory(), Now: func() time.Time { return s.now }}), Records: store.NewMemory()})
	h := NewHandler(bt, Options{PublicKey: s.Public, Now: func() time.Time { return s.now }})
	const games = 20
	rng := rand.New(rand.NewPCG(1, 2))
	var bodies [][]byte
	var headers []http.Header
	add := func(user, sub string, opts ...testkit.Option) {
		fields := testkit.CommandFields(channel, user, sub, 0, opts)
		fields["ID"] = strconv.Itoa(1180000000000000000 + len(bodies))
		r := s.request(testkit.Raw(b, "command.json", fields), s.now)
		body, _ := io.ReadAll(r.Body)
		bodies, headers = append(bodies, body), append(headers, r.Header)
	}
	for range games {
		add(alice, "new", testkit.Opt("rows", 6), testkit.Opt("columns", 7), testkit.Opt("win", 4), testkit.Opt("gravity", true))
		add(bob, "join")
		g, _ := game.New(game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}, game.Fast, []rune("XO"))
		for !g.Over() {
			col := rng.IntN(7)
			for g.ColumnFull(col) {
				col = rng.IntN(7)
			}
			add([]string{alice, bob}[g.Turn()], "move", testkit.Opt("position", strconv.Itoa(col)))
			g.Play(g.Turn(), game.Coord{Col: col})
		}
	}
	r := httptest.NewRequest(http.MethodPost, "/interactions", nil)
	n := 0
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		r.Header, r.Body = headers[n], io.NopCloser(bytes.NewReader(bodies[n]))
		w := serve(h, r)
		if w.Code != http.StatusOK || bytes.Contains(w.Body.Bytes(), []byte(`"flags":64`)) {
			b.Fatalf("request %d refused: %s", n, w.Body)
		}
		n = (n + 1) % len(bodies)
	}
}
