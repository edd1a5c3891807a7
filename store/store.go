package store

import (
	"errors"
	"time"
)

// ErrClosed is returned by a durable store's writes after Close.
var ErrClosed = errors.New("store: closed")

// ErrSchemaTooNew means the database was migrated by a newer tttbot than
// this one; running would risk corrupting it, so the store refuses to open.
var ErrSchemaTooNew = errors.New("database schema is newer than this tttbot")

// HandledFor is how long a handled interaction ID is remembered. Discord
// answers an interaction only within 3 s and its token lives 15 minutes; it
// does not redeliver one a day later, and a signature older than five
// minutes is refused anyway (bot/httpapi), so a replay cannot come later.
const HandledFor = 24 * time.Hour

// PruneEvery is how often a store forgets the interaction IDs handled more
// than HandledFor ago.
const PruneEvery = 10 * time.Minute

// WriteStats are a durable store's writer's running totals since the store
// opened: how well group commit is sharing its COMMITs. Writes/Commits is
// the mean batch size (1 means every write paid for its own fsync);
// Busy/Commits is how long a batch takes, statements and COMMIT, which is
// how long a write that arrives just after a batch began waits before its
// own batch starts.
type WriteStats struct {
	Commits int64         // transactions committed, each one flush to disk
	Writes  int64         // writes those commits made durable (saves, deliveries, probes)
	Busy    time.Duration // time the writer spent running batches, failed ones too
	Queued  int           // writes waiting now for the next batch
}
