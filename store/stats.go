package store

import (
	"sync/atomic"
	"time"
)

// WriteStats are the writer's running totals since the store opened: how
// well group commit is sharing its COMMITs. Writes/Commits is the mean batch
// size (1 means every write paid for its own fsync); Busy/Commits is how long
// a batch takes, statements and COMMIT, which is how long a write that
// arrives just after a batch began waits before its own batch starts.
type WriteStats struct {
	Commits int64         // transactions committed, each one flush to disk
	Writes  int64         // writes those commits made durable (saves, deliveries, probes, others)
	Busy    time.Duration // time the writer spent running batches, failed ones too
}

// writeCounters is the writer's side of WriteStats.
type writeCounters struct {
	commits atomic.Int64 // COMMITs of batches so far
	writes  atomic.Int64
	busy    atomic.Int64 // nanoseconds
}

// WriteStats reports the writer's totals; safe to call from any goroutine.
func (s *SQL) WriteStats() WriteStats {
	return WriteStats{
		Commits: s.commits.Load(),
		Writes:  s.writes.Load(),
		Busy:    time.Duration(s.busy.Load()),
	}
}
