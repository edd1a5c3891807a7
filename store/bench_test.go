package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot/table"
)

// BenchmarkDurableSaves measures what a move costs the store: concurrent
// channels, each saving its table one version after another (every save a
// compare-and-swap that wins), each answered only once it is durable.
// saves/s is the figure to compare; SQLite runs in a temp dir on the real
// disk (set TMPDIR to move it), PostgreSQL on TEST_DATABASE_URL.
func BenchmarkDurableSaves(b *testing.B) {
	opens := []struct {
		name string
		open func(testing.TB) *SQL
	}{
		{"sqlite", func(tb testing.TB) *SQL {
			s, err := OpenSQLite(context.Background(), filepath.Join(tb.TempDir(), "bench.db"))
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { s.Close() })
			return s
		}},
		{"postgres", newPostgres},
	}
	data := make([]byte, 600) // about a Connect Four table mid-game
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	for _, o := range opens {
		for _, channels := range []int{1, 16, 64} {
			b.Run(fmt.Sprintf("%s/channels=%d", o.name, channels), func(b *testing.B) {
				s := o.open(b)
				ctx := context.Background()
				versions := make([]int64, channels)
				b.ResetTimer()
				start := time.Now()
				var wg sync.WaitGroup
				per := (b.N + channels - 1) / channels
				for c := range channels {
					wg.Add(1)
					go func() {
						defer wg.Done()
						ch := fmt.Sprintf("bench-%d", c)
						for range per {
							v, ok, err := s.SaveTable(ctx, table.Save{Channel: ch, Guild: "g", Data: data, Version: versions[c], Now: at})
							if err != nil || !ok {
								b.Errorf("save %s v%d: %v %v", ch, versions[c], ok, err)
								return
							}
							versions[c] = v
						}
					}()
				}
				wg.Wait()
				b.ReportMetric(float64(per*channels)/time.Since(start).Seconds(), "saves/s")
			})
		}
	}
}
