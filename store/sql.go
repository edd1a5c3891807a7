package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tttbot/tttbot/table"
)

// SQL is the durable store on a relational database: SQLite (embedded) or
// PostgreSQL (shared by several replicas). Both speak the same queries; the
// dialect holds the few differences.
//
// Reads go through db, a pool; every write goes through one goroutine that
// owns the write connection and commits whatever queued meanwhile in one
// transaction (batch.go).
type SQL struct {
	db  *sql.DB // reads: a pool (WAL lets SQLite readers run beside the writer)
	wdb *sql.DB // writes: only the writer goroutine takes connections from it
	d   dialect

	mu      sync.RWMutex // guards closed against sends on queue
	closed  bool
	queue   chan *writeOp
	stopped chan struct{} // closed when the writer has answered everything

	// The writer's own state.
	pruned       time.Time       // the application's time of the last prune of handled interactions
	beforeCommit func(items int) // tests: called before each COMMIT, in the writer
	health       health
	writeCounters

	stmts sync.Map // stmtKey → *sql.Stmt: prepared statements (prepared)
}

// newSQL starts the writer over migrated databases. beforeCommit may be nil.
func newSQL(db, wdb *sql.DB, d dialect, beforeCommit func(int)) *SQL {
	s := &SQL{db: db, wdb: wdb, d: d, queue: make(chan *writeOp, maxBatch), stopped: make(chan struct{}), beforeCommit: beforeCommit}
	s.prepareWriter(context.Background())
	go s.write()
	return s
}

// dialect is what differs between the databases.
type dialect struct {
	name    string
	dir     string              // migrations directory under migrations/
	stamp   func(time.Time) any // the application's time as the database keeps it
	dollars bool                // placeholders are $1, $2 … instead of ?
	lock    string              // statement that serialises migrations across processes
	unnest  bool                // updates many rows from arrays in one statement (saveMany)
	// prepare: keep hot statements prepared (SQLite; pgx already caches
	// prepared statements per connection, and recovers them when a backend
	// dies, which a database/sql Stmt does less gracefully).
	prepare bool
}

var (
	sqlite   = dialect{name: "sqlite", dir: "migrations/sqlite", stamp: sqliteStamp, prepare: true}
	postgres = dialect{name: "postgres", dir: "migrations/postgres", stamp: func(t time.Time) any { return t.UTC() }, dollars: true, lock: "SELECT pg_advisory_xact_lock(7274001)", unnest: true}
)

// sqliteStamp writes a time as the SQLite schema keeps it: UTC text in
// milliseconds, as strftime('%Y-%m-%dT%H:%M:%fZ') wrote it before the
// application's clock was passed in.
func sqliteStamp(t time.Time) any { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// q writes a query for the dialect: ? placeholders become $n for PostgreSQL.
// Queries take times as arguments: the application's clock is the only one,
// so tests that move it move the database's time stamps too.
func (d dialect) q(query string) string {
	if !d.dollars {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Close answers every write already queued, then closes the databases.
// Writes after Close fail with ErrClosed.
func (s *SQL) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.queue)
	s.mu.Unlock()
	<-s.stopped
	s.stmts.Range(func(_, st any) bool { st.(*sql.Stmt).Close(); return true })
	err := s.wdb.Close()
	if s.db != s.wdb {
		err = errors.Join(err, s.db.Close())
	}
	return err
}

// Dialect names the database: "sqlite" or "postgres".
func (s *SQL) Dialect() string { return s.d.name }

// LoadTable implements table.Store.
func (s *SQL) LoadTable(ctx context.Context, channel string) ([]byte, int64, bool, error) {
	var data []byte
	var version int64
	err := s.retry(ctx, func() error {
		return s.queryRow(ctx, `SELECT data, version FROM channel_tables WHERE channel = ?`, channel).Scan(&data, &version)
	})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, 0, false, nil
	case err != nil:
		return nil, 0, false, fmt.Errorf("load table: %w", err)
	}
	return data, version, true, nil
}

// LoadTableHandled implements table.HandledLoader: the table and the
// interaction's record in one query, so a request reads the database once
// before its write.
func (s *SQL) LoadTableHandled(ctx context.Context, channel, interactionID string) ([]byte, int64, bool, bool, error) {
	var data []byte
	var version sql.NullInt64
	var handled bool
	err := s.retry(ctx, func() error {
		return s.queryRow(ctx, `SELECT c.data, c.version, EXISTS (SELECT 1 FROM handled_interactions WHERE id = ?)
			FROM (SELECT 1) AS one LEFT JOIN channel_tables AS c ON c.channel = ?`, interactionID, channel).Scan(&data, &version, &handled)
	})
	if err != nil {
		return nil, 0, false, false, fmt.Errorf("load table: %w", err)
	}
	return data, version.Int64, version.Valid, handled, nil
}

// SaveTable implements table.Store: a compare-and-swap on the version, with
// whatever else the save makes durable (saveExtras) in the same
// transaction. It answers only after the COMMIT that covers it, sharing that
// COMMIT (and its fsync) with the other saves queued meanwhile.
func (s *SQL) SaveTable(ctx context.Context, save table.Save) (int64, bool, error) {
	r := s.do(ctx, &writeOp{kind: opSave, save: save}, true)
	if r.dup {
		return 0, false, fmt.Errorf("save table: delivery %s: %w", save.Delivery, table.ErrDuplicate)
	}
	return r.version, r.ok, r.err
}

// saveExtras writes, inside a save's transaction and savepoint, what the
// save makes durable besides the table, once its compare-and-swap has won.
// Files that add such writes add one call here to a function of their own
// taking the tx; see batch.go for the rules. A finished game's result is
// not one of them: commitBatch writes a batch's results together
// (recordResults).
func (s *SQL) saveExtras(ctx context.Context, tx *sql.Tx, save table.Save) error {
	return s.saveDeadline(ctx, tx, save.Channel, save.Deadline)
}

// FirstDelivery records an interaction ID as handled and reports whether
// this is its first delivery: false when this or another replica already
// recorded it (a retry, a replay). It is durable when it returns, sharing
// the write batch's COMMIT; now (the application's clock) stamps it, and IDs
// older than a day are pruned.
func (s *SQL) FirstDelivery(ctx context.Context, interactionID string, now time.Time) (bool, error) {
	r := s.do(ctx, &writeOp{kind: opDelivery, id: interactionID, now: now}, true)
	return r.ok, r.err
}

// Handled reports whether an interaction ID was recorded as handled, by a
// save (table.Save.Delivery), Remember or FirstDelivery, here or on another
// replica. It only reads: the save's own record is the authoritative one.
func (s *SQL) Handled(ctx context.Context, interactionID string) (bool, error) {
	var one int
	err := s.retry(ctx, func() error {
		return s.queryRow(ctx, `SELECT 1 FROM handled_interactions WHERE id = ?`, interactionID).Scan(&one)
	})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("handled: %w", err)
	}
	return true, nil
}

// Remember records an interaction ID as handled, for an interaction that
// saved nothing. It does not wait for the COMMIT (nothing the user sees
// depends on it): the record joins the next batch. It waits for room in the
// writer's queue, up to ctx.
func (s *SQL) Remember(ctx context.Context, interactionID string, now time.Time) {
	op := &writeOp{kind: opDelivery, id: interactionID, now: now, done: make(chan writeResult, 1)}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return
	}
	select {
	case s.queue <- op:
	case <-ctx.Done():
	}
}

// stmtKey names a prepared statement: the pool it was prepared on and its
// text.
type stmtKey struct {
	db    *sql.DB
	query string
}

// prepared returns query prepared on db, preparing it the first time.
// SQLite (modernc) otherwise parses and plans a statement every time it
// runs: under load a tenth of the bot's CPU went to parsing the same few
// statements. database/sql keeps the statement prepared on each connection
// it ran on and prepares it again on a new one. nil when preparing failed:
// the caller then runs the text.
func (s *SQL) prepared(ctx context.Context, db *sql.DB, query string) *sql.Stmt {
	if !s.d.prepare {
		return nil
	}
	key := stmtKey{db, query}
	if st, ok := s.stmts.Load(key); ok {
		return st.(*sql.Stmt)
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	if prior, loaded := s.stmts.LoadOrStore(key, st); loaded {
		st.Close()
		return prior.(*sql.Stmt)
	}
	return st
}

// The writer's statements, prepared once on the write pool when the store
// opens: later, while the writer holds the pool's one connection, preparing
// on the pool would wait for that connection forever. Tx.StmtContext
// prepares them on the transaction's own connection when it is new.
const (
	qRecordDelivery = `INSERT INTO handled_interactions (id, handled_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`
	qInsertTable    = `INSERT INTO channel_tables (channel, guild, data, version, updated_at)
			VALUES (?, ?, ?, 1, ?) ON CONFLICT (channel) DO NOTHING`
	qUpdateTable = `UPDATE channel_tables SET data = ?, guild = ?, version = version + 1, updated_at = ?
			WHERE channel = ? AND version = ?`
	qDeleteDeadline = `DELETE FROM clock_deadlines WHERE channel = ?`
	qSetDeadline    = `INSERT INTO clock_deadlines (channel, due_at) VALUES (?, ?)
			ON CONFLICT (channel) DO UPDATE SET due_at = excluded.due_at`

	// A finished game's result and its players' ratings (results.go): a
	// dozen statements a game, which parsing made cost as much as a
	// game's moves.
	qInsertResult = `INSERT INTO results (scope, rows_n, cols_n, win_n, gravity, moves, finished_at, channel, kind, tokens, record, reason)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
	qInsertResultPlayer = `INSERT INTO result_players (result_id, scope, player, seat, outcome, finish, place) VALUES (?, ?, ?, ?, ?, ?, ?)`
	qNewRating          = `INSERT INTO ratings (scope, kind, player, mu, sigma, games) VALUES (?, ?, ?, ?, ?, 0)
			ON CONFLICT (scope, kind, player) DO NOTHING`
	qReadRating   = `SELECT mu, sigma, games FROM ratings WHERE scope = ? AND kind = ? AND player = ?`
	qUpdateRating = `UPDATE ratings SET mu = ?, sigma = ?, games = ? WHERE scope = ? AND kind = ? AND player = ?`

	// PostgreSQL's: a result with its players, and a batch's ratings, each
	// one statement over arrays. Rows are locked bytewise-sorted (COLLATE
	// "C"), the order the arrays come in.
	qInsertResultWithPlayers = `WITH r AS (
			INSERT INTO results (scope, rows_n, cols_n, win_n, gravity, moves, finished_at, channel, kind, tokens, record, reason)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id)
		INSERT INTO result_players (result_id, scope, player, seat, outcome, finish, place)
		SELECT r.id, $1, p.player, p.seat, p.outcome, p.finish, p.place
		FROM r, unnest($13::text[], $14::int[], $15::text[], $16::text[], $17::int[]) AS p(player, seat, outcome, finish, place)`
	qNewRatings = `INSERT INTO ratings (scope, kind, player, mu, sigma, games)
		SELECT n.scope, n.kind, n.player, n.mu, n.sigma, 0
		FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[]) AS n(scope, kind, player, mu, sigma)
		ON CONFLICT (scope, kind, player) DO NOTHING`
	qLockRatings = `SELECT r.scope, r.kind, r.player, r.mu, r.sigma, r.games
		FROM ratings r JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(scope, kind, player)
			ON r.scope = k.scope AND r.kind = k.kind AND r.player = k.player
		ORDER BY r.scope COLLATE "C", r.kind COLLATE "C", r.player COLLATE "C"
		FOR UPDATE OF r`
	qUpdateRatings = `UPDATE ratings SET mu = u.mu, sigma = u.sigma, games = u.games
		FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[], $6::int[]) AS u(scope, kind, player, mu, sigma, games)
		WHERE ratings.scope = u.scope AND ratings.kind = u.kind AND ratings.player = u.player`
)

// prepareWriter prepares the writer's statements; one that fails to prepare
// runs as text.
func (s *SQL) prepareWriter(ctx context.Context) {
	queries := []string{qRecordDelivery, qInsertTable, qUpdateTable, qDeleteDeadline, qSetDeadline}
	if s.d.unnest {
		queries = append(queries, qInsertResultWithPlayers, qNewRatings, qUpdateRatings)
	} else {
		queries = append(queries, qInsertResult, qInsertResultPlayer, qNewRating, qReadRating, qUpdateRating)
	}
	for _, q := range queries {
		s.prepared(ctx, s.wdb, s.d.q(q))
	}
}

// execTx runs a statement of the dialect (? placeholders) in the writer's
// transaction, prepared when prepareWriter prepared it.
func (s *SQL) execTx(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	query = s.d.q(query)
	if st, ok := s.stmts.Load(stmtKey{s.wdb, query}); ok {
		return tx.StmtContext(ctx, st.(*sql.Stmt)).ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, query, args...)
}

// queryRowTx is execTx for a statement that returns a row.
func (s *SQL) queryRowTx(ctx context.Context, tx *sql.Tx, query string, args ...any) *sql.Row {
	query = s.d.q(query)
	if st, ok := s.stmts.Load(stmtKey{s.wdb, query}); ok {
		return tx.StmtContext(ctx, st.(*sql.Stmt)).QueryRowContext(ctx, args...)
	}
	return tx.QueryRowContext(ctx, query, args...)
}

// queryRow runs a read of the dialect (? placeholders) on the read pool,
// prepared.
func (s *SQL) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	query = s.d.q(query)
	if st := s.prepared(ctx, s.db, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return s.db.QueryRowContext(ctx, query, args...)
}
