package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
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
func (h *health) record(err error, batch []*writeOp) {
	if err == nil {
		for _, op := range batch {
			if op.out.err != nil {
				err = op.out.err
				break
			}
		}
	}
	h.mu.Lock()
	h.at, h.err = time.Now(), err
	h.mu.Unlock()
}

// forget drops the cached answer (tests).
func (h *health) forget() {
	h.mu.Lock()
	h.at = time.Time{}
	h.mu.Unlock()
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
func (s *SQL) Ready(ctx context.Context) error {
	if err, ok := s.health.fresh(); ok {
		return err
	}
	if err := s.do(ctx, &writeOp{kind: opProbe}, false).err; err != nil {
		return fmt.Errorf("store cannot write: %w", err)
	}
	return nil
}

// retry runs f once more when it failed on a dead connection (a PostgreSQL
// backend terminated or restarted under the pool): database/sql discards
// the dead connection, so the second try gets a fresh one. Only for
// statements that are safe to repeat: reads, and writes guarded by a
// compare-and-swap.
func (s *SQL) retry(ctx context.Context, f func() error) error {
	err := f()
	if err != nil && deadConn(err) && ctx.Err() == nil {
		err = f()
	}
	return err
}

// deadConn reports whether err says the connection itself is gone, rather
// than the statement failing.
func deadConn(err error) bool {
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr):
		// Class 57P: admin_shutdown (pg_terminate_backend), crash_shutdown,
		// cannot_connect_now.
		return strings.HasPrefix(pgErr.Code, "57P")
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return true
	}
	return pgconn.SafeToRetry(err) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}
