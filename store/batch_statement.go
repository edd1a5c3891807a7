package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// The common PostgreSQL batch in one statement. Under load a round trip to
// PostgreSQL costs the writer far more than the work it carries (each one
// waits for the backend to be scheduled on a busy machine: 0.4–0.5 ms
// measured under cmd/loadtest, against ~1 ms for the COMMIT's flush), and
// a batch of moves took seven of them: BEGIN, the deliveries, the
// compare-and-swaps, the deadlines, COMMIT. When a batch holds only moves
// (updates of distinct channels) and first deliveries, batchStatement does
// all of it in one statement, outside any explicit transaction: one round
// trip, one commit, one flush. When games finish in it, their results and
// ratings make it a transaction of two round trips (pipeline.go).
//
// The statement swaps first and records deliveries only for the swaps that
// won, so a lost swap leaves nothing to take back:
//
//   - seen: saves whose interaction was handled before (duplicates, which
//     write nothing);
//   - swapped: the compare-and-swaps of the others (a channel another
//     request or replica moved meanwhile is not returned: it lost);
//   - recorded: the won saves' interaction IDs;
//   - cleared, armed: the won saves' clock deadlines;
//   - firsts: the batch's own deliveries (FirstDelivery, Remember), those
//     not recorded before returned.
//
// Two deliveries of one interaction on two replicas cannot both win: they
// move the same channel from the same version, the second UPDATE waits for
// the first's row lock and then finds the version changed.
const batchStatement = `WITH input AS (
	SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[], $4::bigint[], $5::timestamptz[], $6::text[], $7::timestamptz[])
		AS i(channel, guild, data, version, at, delivery, deadline)
), seen AS (
	SELECT i.channel FROM input i JOIN handled_interactions h ON h.id = i.delivery
), swapped AS (
	UPDATE channel_tables AS t
	SET data = i.data, guild = i.guild, version = t.version + 1, updated_at = i.at
	FROM input i
	WHERE t.channel = i.channel AND t.version = i.version
		AND NOT EXISTS (SELECT 1 FROM handled_interactions h WHERE h.id = i.delivery)
	RETURNING t.channel, i.delivery, i.at, i.deadline
), recorded AS (
	INSERT INTO handled_interactions (id, handled_at)
	SELECT delivery, at FROM swapped WHERE delivery <> ''
	ON CONFLICT (id) DO NOTHING
), cleared AS (
	DELETE FROM clock_deadlines WHERE channel IN (SELECT channel FROM swapped WHERE deadline IS NULL)
), armed AS (
	INSERT INTO clock_deadlines (channel, due_at)
	SELECT channel, deadline FROM swapped WHERE deadline IS NOT NULL
	ON CONFLICT (channel) DO UPDATE SET due_at = excluded.due_at
), firsts AS (
	INSERT INTO handled_interactions (id, handled_at)
	SELECT * FROM unnest($8::text[], $9::timestamptz[])
	ON CONFLICT (id) DO NOTHING
	RETURNING id
)
SELECT 'dup', channel FROM seen
UNION ALL SELECT 'won', channel FROM swapped
UNION ALL SELECT 'first', id FROM firsts`

// oneStatement reports whether batch fits batchStatement: only updates of
// distinct channels and deliveries, every interaction ID once, and no prune
// due. A batch in which games finish fits too, but takes a transaction
// around it for the results and ratings (pipeline.go).
func (s *SQL) oneStatement(batch []*writeOp) bool {
	if !s.d.unnest {
		return false
	}
	channels := make(map[string]bool, len(batch))
	ids := make(map[string]bool, len(batch))
	var newest time.Time
	for _, op := range batch {
		switch {
		case op.kind == opDelivery:
		case op.kind == opSave && op.save.Version > 0 && !channels[op.save.Channel]:
			channels[op.save.Channel] = true
		default:
			return false
		}
		if id, at := op.delivered(); id != "" {
			if ids[id] {
				return false
			}
			ids[id] = true
			if at.After(newest) {
				newest = at
			}
		}
	}
	return newest.IsZero() || newest.Sub(s.pruned) <= pruneEvery
}

// commitStatement runs batch as batchStatement on conn, alone or (with
// finished games) in a pipelined transaction, and sets each op's answer.
// sent is false when nothing of it committed (see unsent).
func (s *SQL) commitStatement(ctx context.Context, conn *sql.Conn, batch []*writeOp) (sent bool, err error) {
	if results := finishedGames(batch); len(results) > 0 {
		return s.commitPipelined(ctx, conn, batch, results)
	}
	if s.beforeCommit != nil {
		s.beforeCommit(len(batch))
	}
	if err := runStatement(ctx, conn, batch); err != nil {
		return !unsent(err), fmt.Errorf("store: save batch: %w", err)
	}
	s.commits.Add(1)
	return true, nil
}

// querier is a connection or a transaction on it.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// runStatement runs batchStatement on q for ops (saves of distinct
// channels without a result, first deliveries; every interaction ID once)
// and sets each op's answer: a save's swap won, lost, or was a duplicate; a
// delivery's first or not. Autocommitted on a connection, it is the whole
// batch; inside a transaction, the saves' part of it (saveMany).
func runStatement(ctx context.Context, q querier, ops []*writeOp) error {
	rows, err := q.QueryContext(ctx, batchStatement, statementArgs(ops)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return answerStatement(rows, ops)
}

// statementArgs are batchStatement's arguments for ops.
func statementArgs(ops []*writeOp) []any {
	var (
		channels, guilds, deliveries []string
		datas                        [][]byte
		versions                     []int64
		ats                          []time.Time
		deadlines                    []*time.Time
		firstIDs                     []string
		firstAts                     []time.Time
	)
	for _, op := range ops {
		if op.kind == opDelivery {
			firstIDs = append(firstIDs, op.id)
			firstAts = append(firstAts, op.now.UTC())
			continue
		}
		sv := op.save
		channels = append(channels, sv.Channel)
		guilds = append(guilds, sv.Guild)
		datas = append(datas, sv.Data)
		versions = append(versions, sv.Version)
		ats = append(ats, sv.Now.UTC())
		deliveries = append(deliveries, sv.Delivery)
		var due *time.Time
		if !sv.Deadline.IsZero() {
			d := sv.Deadline.UTC()
			due = &d
		}
		deadlines = append(deadlines, due)
	}
	return []any{channels, guilds, datas, versions, ats, deliveries, deadlines, firstIDs, firstAts}
}

// answerStatement reads batchStatement's rows and sets each op's answer.
func answerStatement(rows rowScanner, ops []*writeOp) error {
	got := map[string]map[string]bool{"dup": {}, "won": {}, "first": {}}
	for rows.Next() {
		var kind, key string
		if err := rows.Scan(&kind, &key); err != nil {
			return err
		}
		got[kind][key] = true
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, op := range ops {
		switch {
		case op.kind == opDelivery:
			op.out = writeResult{ok: got["first"][op.id]}
		case got["dup"][op.save.Channel]:
			op.out = writeResult{dup: true}
		case got["won"][op.save.Channel]:
			op.out = writeResult{version: op.save.Version + 1, ok: true}
		default:
			op.out = writeResult{} // lost the swap
		}
	}
	return nil
}

// unsent reports whether a statement that failed with err committed
// nothing: PostgreSQL refused it, or it never left (pgx knows when nothing
// was written to the connection). After a connection lost mid-statement it
// may have committed.
func unsent(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) || pgconn.SafeToRetry(err)
}
