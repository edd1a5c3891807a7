package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"
)

// ErrNotAStore means a file is not a tttbot store: not SQLite, damaged, or
// without the tables tttbot keeps.
var ErrNotAStore = errors.New("not a tttbot store")

// Info describes a store file: what `tttbot backup` reports and what
// `tttbot restore` checks before it replaces anything.
type Info struct {
	Path     string
	Versions []int     // the migrations applied, lowest first
	Channels int       // channels with a table (a lobby, a game, a last result)
	Games    int       // finished games recorded
	Newest   time.Time // the latest table update or finished game; zero when empty
}

// Schema is the store's schema version: its highest migration.
func (i Info) Schema() int {
	if len(i.Versions) == 0 {
		return 0
	}
	return slices.Max(i.Versions)
}

// String is the one-line summary the commands print.
func (i Info) String() string {
	newest := "none"
	if !i.Newest.IsZero() {
		newest = i.Newest.UTC().Format(time.RFC3339)
	}
	return fmt.Sprintf("schema %d, %s, %s, last change %s", i.Schema(), count(i.Channels, "channel"), count(i.Games, "finished game"), newest)
}

// count writes n things, in the plural unless n is 1.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// fileDSN is path as a SQLite URI with pragmas.
func fileDSN(path string, pragmas ...string) string {
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath()
	if len(pragmas) > 0 {
		dsn += "?" + strings.Join(pragmas, "&")
	}
	return dsn
}

// openAlone opens the database file at path on one connection, so that
// a pragma run on it (the journal mode, a checkpoint) holds for every
// statement after it, and no second connection of ours keeps the file
// open while it changes.
func openAlone(path string, pragmas ...string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", fileDSN(path, pragmas...))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// Inspect reads what the store file at path holds, without changing it. It
// fails with ErrNotAStore for a file that is not one.
func Inspect(ctx context.Context, path string) (Info, error) {
	if _, err := os.Stat(path); err != nil {
		return Info{}, err
	}
	db, err := sql.Open("sqlite", fileDSN(path, "_pragma=busy_timeout(10000)", "_pragma=query_only(1)"))
	if err != nil {
		return Info{}, err
	}
	defer db.Close()
	return inspect(ctx, db, path)
}

// inspect reads Info from db, which holds the store at path.
func inspect(ctx context.Context, db *sql.DB, path string) (Info, error) {
	info := Info{Path: path}
	var check string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&check); err != nil {
		return info, fmt.Errorf("%w: %s: %v", ErrNotAStore, path, err)
	}
	if check != "ok" {
		return info, fmt.Errorf("%w: %s is damaged (%s)", ErrNotAStore, path, check)
	}
	rows, err := db.QueryContext(ctx, `SELECT version FROM schema_migrations ORDER BY version`)
	if err != nil {
		return info, fmt.Errorf("%w: %s has no schema_migrations table", ErrNotAStore, path)
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return info, err
		}
		info.Versions = append(info.Versions, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return info, err
	}
	// Every released schema has these two, from migration 1 on.
	var newestTable, newestGame sql.NullString
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*), MAX(updated_at) FROM channel_tables`).Scan(&info.Channels, &newestTable); err != nil {
		return info, fmt.Errorf("%w: %s: %v", ErrNotAStore, path, err)
	}
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*), MAX(finished_at) FROM results`).Scan(&info.Games, &newestGame); err != nil {
		return info, fmt.Errorf("%w: %s: %v", ErrNotAStore, path, err)
	}
	for _, s := range []sql.NullString{newestTable, newestGame} {
		if !s.Valid {
			continue
		}
		t, err := parseStamp(s.String)
		if err != nil {
			return info, fmt.Errorf("%s: time %q: %w", path, s.String, err)
		}
		if t.After(info.Newest) {
			info.Newest = t
		}
	}
	return info, nil
}

// parseStamp reads a time as the schema keeps it (see stamp; the first
// schema's strftime wrote the same shape), or as SQLite's own functions
// and RFC 3339 write it.
func parseStamp(s string) (t time.Time, err error) {
	for _, layout := range []string{"2006-01-02T15:04:05.000Z", time.RFC3339Nano, "2006-01-02 15:04:05"} {
		if t, err = time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return t, err
}
