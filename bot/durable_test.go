package bot

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/store/postgres"
	"github.com/tttbot/tttbot/store/sqlite"
	"github.com/tttbot/tttbot/store/storetest"
)

// durableStores opens each durable store for a benchmark, skipping
// PostgreSQL when TEST_DATABASE_URL is unset.
func durableStores(b *testing.B) map[string]func(*testing.B) testStore {
	return map[string]func(*testing.B) testStore{
		"sqlite": func(b *testing.B) testStore {
			s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		},
		"postgres": func(b *testing.B) testStore {
			s, err := postgres.Open(context.Background(), storetest.PostgresURL(b))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		},
	}
}

// BenchmarkDurableMoves measures accepted moves per second, each committed
// to the database before its reply: in one channel, and in 100 channels at
// once. Games are 100×100 with k=25, played row by row for 1,000 moves
// (nobody wins) and then replaced in-band (two extra writes per 1,000).
func BenchmarkDurableMoves(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres"} {
		for _, channels := range []int{1, 100} {
			b.Run(fmt.Sprintf("%s/%dch", name, channels), func(b *testing.B) {
				st := durableStores(b)[name](b)
				h := newHarnessOn(b, st, time.Now())
				type lane struct {
					sync.Mutex
					ch string
					n  int
				}
				lanes := make([]*lane, channels)
				newGame := func(l *lane) {
					h.in(l.ch, alice, "new", opt("rows", 100), opt("columns", 100), opt("win", 25))
					resp := h.in(l.ch, bob, "join")
					if !isPublic(resp) {
						b.Errorf("new game in %s refused: %s", l.ch, replyText(resp))
					}
				}
				for i := range lanes {
					lanes[i] = &lane{ch: fmt.Sprintf("95%016d", i)}
					newGame(lanes[i])
				}
				var next atomic.Int64
				b.SetParallelism(max(1, channels/2)) // enough goroutines to keep 100 channels busy
				start := time.Now()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						l := lanes[int(next.Add(1))%channels]
						l.Lock() // one move at a time per channel, in turn order
						if l.n == 1000 {
							refusedOrPublic(b, h.in(l.ch, alice, "end")) // the creator may end it
							newGame(l)
							l.n = 0
						}
						pos := fmt.Sprintf("%d,%d", l.n/100, l.n%100)
						if resp := h.in(l.ch, []string{alice, bob}[l.n%2], "move", opt("position", pos)); !isPublic(resp) {
							b.Errorf("move %s in %s refused: %s", pos, l.ch, replyText(resp))
						}
						l.n++
						l.Unlock()
					}
				})
				b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "moves/s")
			})
		}
	}
}

// refusedOrPublic reports a missing reply without stopping a worker
// goroutine (FailNow there would leave its channel locked).
func refusedOrPublic(tb testing.TB, resp *WireResponse) {
	tb.Helper()
	if resp == nil || resp.Data == nil {
		tb.Errorf("no reply: %+v", resp)
	}
}
