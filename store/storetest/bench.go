package storetest

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/table"
)

// firstID is an interaction ID (a snowflake) of 2026.
const firstID = 1574031694233600000

// BenchDurableSaves measures what a move costs a store: concurrent
// channels, each saving its table one version after another (every save a
// compare-and-swap that wins, answering an interaction whose ID it
// records), each answered only once it is durable. saves/s is the figure to
// compare for the disk, cpu-µs/save (the whole process's CPU, user and
// system, over the saves) for the machine.
func BenchDurableSaves(b *testing.B, open func(testing.TB) Durable) {
	data := make([]byte, 600) // about a Connect Four table mid-game
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	for _, channels := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("channels=%d", channels), func(b *testing.B) {
			s := open(b)
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
			commits := s.WriteStats().Commits
			b.ResetTimer()
			start := time.Now()
			cpu, cpuOK := processCPU()
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
			if end, ok := processCPU(); ok && cpuOK {
				b.ReportMetric(float64(end-cpu)/float64(time.Microsecond)/float64(per*channels), "cpu-µs/save")
			}
			b.ReportMetric(float64(per*channels)/time.Since(start).Seconds(), "saves/s")
			b.ReportMetric(float64(per*channels)/float64(s.WriteStats().Commits-commits), "saves/commit")
		})
	}
}
