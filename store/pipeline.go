package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tttbot/tttbot/table"
)

// A PostgreSQL batch of moves in which games finish, in two round trips.
//
// A finished game's result and its players' ratings must commit with the
// move that ended it, and the new ratings are computed here (OpenSkill), so
// such a batch cannot be one autocommitted statement. Run through
// database/sql it took a round trip a statement: BEGIN, the batch
// statement, each result, creating, locking and writing the ratings,
// COMMIT; seven or eight in all, each one waiting for the writer and the
// backend to be scheduled on a busy machine. At 64 channels more than half
// of all batches held a finished game, and they took 8–10 ms against about
// 4 ms for the others (cmd/loadtest, instrumented writer).
//
// pgx sends a batch of statements as one pipeline, so the transaction takes
// two round trips: BEGIN, the batch statement, and creating and locking the
// rating rows of every game that finishes in it; then, once the swaps that
// won are known and the ratings are computed, the won games' results, the
// ratings and COMMIT. A game whose swap lost has its players' rows created
// and locked to no purpose (the channel moved on another replica, which
// rates that game itself); its result is not written.

// finishedGames are the results of the games the saves in batch finish.
func finishedGames(batch []*writeOp) []*table.Result {
	var results []*table.Result
	for _, op := range batch {
		if op.kind == opSave && op.save.Result != nil {
			results = append(results, op.save.Result)
		}
	}
	return results
}

// commitPipelined commits batch (one that fits batchStatement but for its
// finished games, whose results are given) on conn in two pipelined round
// trips and sets each op's answer. sent is false when nothing of it
// committed.
func (s *SQL) commitPipelined(ctx context.Context, conn *sql.Conn, batch []*writeOp, results []*table.Result) (sent bool, err error) {
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("store: the write connection is a %T, not pgx's", dc)
		}
		keys := ratingKeys(results)
		fresh := freshStandings(keys)
		cur, err := s.lockPipelined(ctx, c.Conn(), batch, keys, fresh)
		if err != nil {
			return err
		}
		won := &pgx.Batch{}
		var rated []*table.Result
		for _, op := range batch {
			if op.kind != opSave || op.save.Result == nil || !op.out.ok {
				continue
			}
			row, err := s.resultRow(op.save.Now, op.save.Result)
			if err != nil {
				return fmt.Errorf("record result: %w", err)
			}
			won.Queue(qInsertResultWithPlayers, row.withPlayers()...)
			rated = append(rated, op.save.Result)
		}
		if wonKeys := ratingKeys(rated); len(wonKeys) > 0 {
			if err := rateGames(cur, rated); err != nil {
				return fmt.Errorf("rate result: %w", err)
			}
			won.Queue(qUpdateRatings, updateArgs(wonKeys, cur)...)
		}
		won.Queue("COMMIT")
		if s.beforeCommit != nil {
			s.beforeCommit(len(batch))
		}
		sent = true
		if err := c.Conn().SendBatch(ctx, won).Close(); err != nil {
			sent = !unsent(err)
			return fmt.Errorf("store: commit batch: %w", err)
		}
		return nil
	})
	if err == nil {
		s.commits.Add(1)
	}
	return sent, err
}

// lockPipelined is the first round trip: it begins the transaction, runs
// the batch statement (setting each op's answer) and creates and locks the
// rating rows of keys, whose standings it returns.
func (s *SQL) lockPipelined(ctx context.Context, c *pgx.Conn, batch []*writeOp, keys []ratingKey, fresh []table.Standing) (map[ratingKey]table.Standing, error) {
	first := &pgx.Batch{}
	first.Queue("BEGIN")
	first.Queue(batchStatement, statementArgs(batch)...)
	newArgs, lockArgs := ratingArgs(keys, fresh)
	if len(keys) > 0 {
		first.Queue(qNewRatings, newArgs...)
		first.Queue(qLockRatings, lockArgs...)
	}
	br := c.SendBatch(ctx, first)
	cur, err := func() (map[ratingKey]table.Standing, error) {
		if _, err := br.Exec(); err != nil {
			return nil, fmt.Errorf("store: begin: %w", err)
		}
		rows, err := br.Query()
		if err != nil {
			return nil, fmt.Errorf("store: save batch: %w", err)
		}
		err = answerStatement(rows, batch)
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("store: save batch: %w", err)
		}
		if len(keys) == 0 {
			return nil, nil
		}
		if _, err := br.Exec(); err != nil {
			return nil, fmt.Errorf("rate result: %w", err)
		}
		rows, err = br.Query()
		if err != nil {
			return nil, fmt.Errorf("rate result: %w", err)
		}
		defer rows.Close()
		return readRatings(rows, keys, fresh)
	}()
	return cur, errors.Join(err, br.Close())
}
