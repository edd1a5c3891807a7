package groupcommit

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// readyFor is how long a readiness answer stands: /healthz may be polled
// often, and a probe is a write.
const readyFor = 2 * time.Second

// health is what the writer last learnt about writing: readiness answers
// from it while it is fresh.
type health struct {
	mu  sync.Mutex
	at  time.Time // wall clock of the last batch: readiness is operational, not game time
	err error
}

// record notes a batch's outcome: its own error, else the first error of an
// op in it (a read-only database fails each write while COMMIT succeeds).
func (h *health) record(err error, batch []*Op) {
	if err == nil {
		for _, op := range batch {
			if op.Out.Err != nil {
				err = op.Out.Err
				break
			}
		}
	}
	h.mu.Lock()
	h.at, h.err = time.Now(), err
	h.mu.Unlock()
}

// ForgetHealth drops the answer Ready would give from the last batch, so
// that its next call probes (tests that change what the store can do).
func (w *Writer) ForgetHealth() {
	w.health.mu.Lock()
	w.health.at = time.Time{}
	w.health.mu.Unlock()
}

func (h *health) fresh() (error, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err, !h.at.IsZero() && time.Since(h.at) < readyFor
}

// Ready reports whether the store accepts writes: nil, or why not. It
// answers from the last batch when that is recent, else commits a one-row
// write probe through the writer (sharing a batch with any saves). After a
// failure the writer reopens its connection, so Ready turns nil again by
// itself once the cause (a read-only file, a restarted server) is gone.
func (w *Writer) Ready(ctx context.Context) error {
	if err, ok := w.health.fresh(); ok {
		return err
	}
	if err := w.Do(ctx, &Op{Kind: Probe}).Err; err != nil {
		return fmt.Errorf("store cannot write: %w", err)
	}
	return nil
}
