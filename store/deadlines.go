package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Clock deadlines: each open game on a clock has one row saying when the
// player to move runs out of time. saveDeadline runs inside a table save's
// transaction, so the row and the table agree; the scheduler reads the
// earliest (NextDeadline) and the due ones (DueChannels), then applies each
// expiry as an ordinary table save, whose compare-and-swap makes it happen
// once however many replicas race it.

// saveDeadline sets the channel's deadline, or removes it when due is zero
// (no clock, or the game is no longer running).
func (s *SQL) saveDeadline(ctx context.Context, tx *sql.Tx, channel string, due time.Time) error {
	var err error
	if due.IsZero() {
		_, err = s.execTx(ctx, tx, qDeleteDeadline, channel)
	} else {
		_, err = s.execTx(ctx, tx, qSetDeadline, channel, s.d.stamp(due))
	}
	if err != nil {
		return fmt.Errorf("save deadline: %w", err)
	}
	return nil
}

// NextDeadline implements table.DeadlineStore: the earliest deadline of any
// game, or ok=false when no game is on a clock.
func (s *SQL) NextDeadline(ctx context.Context) (due time.Time, ok bool, err error) {
	var raw any
	err = s.db.QueryRowContext(ctx, `SELECT MIN(due_at) FROM clock_deadlines`).Scan(&raw)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next deadline: %w", err)
	}
	if raw == nil {
		return time.Time{}, false, nil
	}
	due, err = s.d.readStamp(raw)
	return due, err == nil, err
}

// DueChannels implements table.DeadlineStore: up to limit channels whose
// deadline is at or before now, earliest first.
func (s *SQL) DueChannels(ctx context.Context, now time.Time, limit int) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT channel FROM clock_deadlines WHERE due_at <= ? ORDER BY due_at, channel LIMIT ?`),
		s.d.stamp(now), limit)
	if err != nil {
		return nil, fmt.Errorf("due channels: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var ch string
		if err := rows.Scan(&ch); err != nil {
			return nil, fmt.Errorf("due channels: %w", err)
		}
		out = append(out, ch)
	}
	return out, rows.Err()
}

// readStamp reads a time as stamp wrote it: SQLite's text, or PostgreSQL's
// timestamptz.
func (d dialect) readStamp(raw any) (time.Time, error) {
	switch v := raw.(type) {
	case time.Time:
		return v.UTC(), nil
	case string:
		return time.Parse(time.RFC3339Nano, v)
	case []byte:
		return time.Parse(time.RFC3339Nano, string(v))
	}
	return time.Time{}, fmt.Errorf("%s: unreadable time %T", d.name, raw)
}
