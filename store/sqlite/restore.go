package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tttbot/tttbot/store"
)

// ErrTargetNewer means the store a restore would replace holds changes made
// after the backup was taken: restoring would lose them.
var ErrTargetNewer = errors.New("the store holds changes newer than the backup")

// RestoreOptions say how Restore may proceed.
type RestoreOptions struct {
	// Force replaces a store that changed after the backup was taken
	// (those changes are then lost, though the replaced file is kept).
	Force bool
}

// Restored is what a restore did.
type Restored struct {
	From     Info   // the backup restored
	Replaced *Info  // the store that was there before, nil when there was none
	Kept     string // where the replaced store's file was moved; "" when there was none
}

// Restore replaces the store at target with a copy of the backup file
// from. It refuses a file that is not a store or whose schema this binary
// does not know, refuses while any bot has target open (ErrInUse: it holds
// target's lock file), and refuses, unless opt.Force, when target changed
// after the backup was taken (ErrTargetNewer). The store it replaces is not
// deleted: it is moved aside to target.before-restore-TIME. Bots started
// while a restore runs refuse to open the store (ErrRestoring).
func Restore(ctx context.Context, from, target string, opt RestoreOptions) (Restored, error) {
	var done Restored
	info, err := Inspect(ctx, from)
	if err != nil {
		return done, fmt.Errorf("backup %s: %w", from, err)
	}
	if err := knowsSchema(info); err != nil {
		return done, err
	}
	done.From = info
	if err := os.MkdirAll(filepath.Dir(target), 0o750); err != nil {
		return done, err
	}
	lock, err := lockExclusive(target)
	if err != nil {
		return done, err
	}
	defer lock.release()
	if _, err := os.Stat(target); err == nil {
		// No bot runs on it (we hold its lock): opening it applies a
		// write-ahead log a killed bot left, and checkpointing folds that
		// log into the file, so the file moved aside is whole.
		cur, err := settle(ctx, target)
		if err != nil {
			return done, fmt.Errorf("the store to replace, %s: %w", target, err)
		}
		done.Replaced = &cur
		if cur.Newest.After(info.Newest) && !opt.Force {
			return done, fmt.Errorf("%w: %s was last changed at %s, the backup at %s (%s); restoring would lose those changes. "+
				"Take a backup of it first (tttbot backup), then restore again with --force",
				ErrTargetNewer, target, cur.Newest.UTC().Format(time.RFC3339), info.Newest.UTC().Format(time.RFC3339), from)
		}
	}
	src, err := sql.Open("sqlite", fileDSN(from, "_pragma=query_only(1)"))
	if err != nil {
		return done, err
	}
	defer src.Close()
	restoring := target + ".restoring"
	removeDatabase(restoring)
	if _, err := copyStore(ctx, src, from, restoring, nil); err != nil {
		return done, err
	}
	if done.Replaced != nil {
		done.Kept = fmt.Sprintf("%s.before-restore-%s", target, time.Now().UTC().Format("20060102T150405Z"))
		if err := moveDatabase(target, done.Kept); err != nil {
			removeDatabase(restoring)
			return done, err
		}
	}
	if err := os.Rename(restoring, target); err != nil {
		// Put the store back where it was: a failed restore changes nothing.
		if done.Kept != "" {
			if back := moveDatabase(done.Kept, target); back != nil {
				return done, fmt.Errorf("%w; and moving the store back from %s failed: %v", err, done.Kept, back)
			}
		}
		removeDatabase(restoring)
		return done, err
	}
	return done, syncDir(filepath.Dir(target))
}

// knowsSchema refuses a store with a migration this binary does not have:
// it would stop at start on it anyway (store.ErrSchemaTooNew).
func knowsSchema(info Info) error {
	known, err := schema.Versions()
	if err != nil {
		return err
	}
	for _, v := range info.Versions {
		if !slices.Contains(known, v) {
			return fmt.Errorf("%w: backup %s has schema version %d, and this tttbot knows versions up to %d: restore it with the tttbot that took it (or a newer one)",
				store.ErrSchemaTooNew, info.Path, info.Schema(), slices.Max(known))
		}
	}
	if len(info.Versions) == 0 {
		return fmt.Errorf("%w: %s has no migrations recorded", ErrNotAStore, info.Path)
	}
	return nil
}

// settle opens the store at path alone, folds its write-ahead log into the
// file, and returns what it holds.
func settle(ctx context.Context, path string) (Info, error) {
	db, err := openAlone(path, "_pragma=busy_timeout(10000)")
	if err != nil {
		return Info{}, err
	}
	defer db.Close()
	info, err := inspect(ctx, db, path)
	if err != nil {
		return info, err
	}
	if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return info, err
	}
	return info, db.Close()
}

// moveDatabase renames a database file and whatever journal files are
// beside it, so they stay together.
func moveDatabase(from, to string) error {
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if err := os.Rename(from+suffix, to+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return os.Rename(from, to)
}
