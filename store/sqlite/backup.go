package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"modernc.org/sqlite"
)

// Progress is how far a copy has come, in database pages.
type Progress struct {
	Done, Total int
}

// pagesAStep is how many pages one step of a copy takes (4 MiB at SQLite's
// default 4 KiB pages): small enough to report progress on a big store and
// to notice a cancelled context, large enough that a step costs little.
const pagesAStep = 1024

// Backup writes a consistent copy of the store at src to the new file dst
// while bots may be writing to src, through SQLite's online backup API;
// copying the file instead would miss what is still in its write-ahead log
// and could catch a page halfway through a write. The copy is the store as
// it was at one instant, the moment the backup began: every save answered
// before then is in it. Bots go on writing meanwhile (WAL readers do not
// block the writer). progress, when not nil, is called after each step.
// dst must not exist; the copy is written beside it and renamed into place
// once complete and checked, so dst is never a partial store.
func Backup(ctx context.Context, src, dst string, progress func(Progress)) (Info, error) {
	if _, err := os.Stat(src); err != nil {
		return Info{}, fmt.Errorf("no store to back up: %w", err)
	}
	if _, err := os.Stat(dst); err == nil {
		return Info{}, fmt.Errorf("%s exists: name a new file (backups are never written over)", dst)
	}
	db, err := sql.Open("sqlite", fileDSN(src, "_pragma=busy_timeout(10000)", "_pragma=query_only(1)"))
	if err != nil {
		return Info{}, err
	}
	defer db.Close()
	return copyStore(ctx, db, src, dst, progress)
}

// copyStore copies the database db holds (the file src) to dst through a
// partial file beside it, checks the copy is a store, and renames it into
// place. The partial file is removed on failure.
func copyStore(ctx context.Context, db *sql.DB, src, dst string, progress func(Progress)) (Info, error) {
	partial, err := os.CreateTemp(filepath.Dir(dst), filepath.Base(dst)+".*.partial")
	if err != nil {
		return Info{}, err
	}
	tmp := partial.Name()
	partial.Close()
	ok := false
	defer func() {
		if !ok {
			removeDatabase(tmp)
		}
	}()
	if err := copyPages(ctx, db, tmp, progress); err != nil {
		return Info{}, fmt.Errorf("copy %s: %w", src, err)
	}
	info, err := seal(ctx, tmp)
	if err != nil {
		return Info{}, err
	}
	if err := os.Rename(tmp, dst); err != nil {
		return Info{}, err
	}
	ok = true
	info.Path = dst
	return info, syncDir(filepath.Dir(dst))
}

// backuper is the modernc driver's connection, which exposes SQLite's
// online backup API.
type backuper interface {
	NewBackup(dstURI string) (*sqlite.Backup, error)
}

// copyPages copies db's main database to the file dst page by page. It
// holds one read transaction over every step, so the copy is one snapshot:
// without it, a write by a bot between two steps would restart the copy,
// and a busy store might never finish.
func copyPages(ctx context.Context, db *sql.DB, dst string, progress func(Progress)) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN`); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
	// A read transaction starts at its first read: this one fixes the
	// snapshot.
	var n int
	if err := conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master`).Scan(&n); err != nil {
		return err
	}
	return conn.Raw(func(dc any) error {
		b, ok := dc.(backuper)
		if !ok {
			return errors.New("the SQLite driver offers no online backup")
		}
		bk, err := b.NewBackup(fileDSN(dst))
		if err != nil {
			return err
		}
		for more := true; more; {
			if err := ctx.Err(); err != nil {
				bk.Finish()
				return err
			}
			if more, err = bk.Step(pagesAStep); err != nil {
				bk.Finish()
				return err
			}
			if progress != nil {
				total := bk.PageCount()
				progress(Progress{Done: total - bk.Remaining(), Total: total})
			}
		}
		return bk.Finish()
	})
}

// seal makes the copy at path one self-contained file (rollback journal,
// not WAL: a backup is moved and kept alone) and flushed to disk, and
// checks that it is a store.
func seal(ctx context.Context, path string) (Info, error) {
	db, err := openAlone(path, "_pragma=synchronous(FULL)")
	if err != nil {
		return Info{}, err
	}
	defer db.Close()
	var mode string
	if err := db.QueryRowContext(ctx, `PRAGMA journal_mode=DELETE`).Scan(&mode); err != nil {
		return Info{}, err
	}
	info, err := inspect(ctx, db, path)
	if err != nil {
		return Info{}, err
	}
	if err := db.Close(); err != nil {
		return Info{}, err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	return info, f.Sync()
}

// removeDatabase removes a database file and the journal files SQLite may
// have left beside it.
func removeDatabase(path string) {
	for _, suffix := range []string{"", "-journal", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
}

// syncDir flushes a directory, so a rename in it survives a power cut.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
