package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/table"
)

// firstID is an interaction ID (a snowflake) of 2026.
const firstID = 1574031694233600000

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
				// Warm up: one save a channel creates its row and opens
				// every pooled connection the run will use.
				var warm sync.WaitGroup
				for c := range channels {
					warm.Add(1)
					go func() {
						defer warm.Done()
						_, _, _, _ = s.LoadTable(ctx, fmt.Sprintf("bench-%d", c))
						v, _, err := s.SaveTable(ctx, table.Save{Channel: fmt.Sprintf("bench-%d", c), Guild: "g", Data: data, Now: at})
						if err != nil {
							b.Error(err)
						}
						versions[c] = v
					}()
				}
				warm.Wait()
				var ids atomic.Uint64
				commits := s.commits.Load()
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
							// Every save answers an interaction, whose ID it records.
							id := strconv.FormatUint(firstID+ids.Add(1), 10)
							v, ok, err := s.SaveTable(ctx, table.Save{Channel: ch, Guild: "g", Data: data, Version: versions[c], Now: at, Delivery: id})
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
				b.ReportMetric(float64(per*channels)/float64(s.commits.Load()-commits), "saves/commit")
			})
		}
	}
}

// BenchmarkRewriteVsAppend is the experiment behind keeping one row per
// channel: a batch of 64 moves either rewrites 64 channels' rows (600 bytes
// each, as SaveTable does) or appends 64 small rows to a moves table, in one
// transaction with SQLite's durable commit. If appending were much cheaper,
// a moves log would pay for its extra read work; it is not (see the closing
// note of the group-commit change), since the fsync dominates either way.
func BenchmarkRewriteVsAppend(b *testing.B) {
	const batch = 64
	data := make([]byte, 600)
	for _, mode := range []string{"rewrite", "append"} {
		b.Run(mode, func(b *testing.B) {
			s := newSQLite(b)
			ctx := context.Background()
			if _, err := s.wdb.ExecContext(ctx, `CREATE TABLE moves (channel TEXT NOT NULL, seq INTEGER NOT NULL, move TEXT NOT NULL, PRIMARY KEY (channel, seq)) WITHOUT ROWID`); err != nil {
				b.Fatal(err)
			}
			for c := range batch {
				if _, err := s.wdb.ExecContext(ctx, `INSERT INTO channel_tables (channel, guild, data, version, updated_at) VALUES (?, 'g', ?, 1, 'now')`, fmt.Sprint("c", c), data); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for i := range b.N {
				tx, err := s.wdb.BeginTx(ctx, nil)
				if err != nil {
					b.Fatal(err)
				}
				for c := range batch {
					if mode == "rewrite" {
						_, err = tx.ExecContext(ctx, `UPDATE channel_tables SET data = ?, version = version + 1 WHERE channel = ?`, data, fmt.Sprint("c", c))
					} else {
						_, err = tx.ExecContext(ctx, `INSERT INTO moves (channel, seq, move) VALUES (?, ?, '3.4.1')`, fmt.Sprint("c", c), i)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}
