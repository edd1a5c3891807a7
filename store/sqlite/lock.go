package sqlite

import (
	"errors"
	"fmt"
	"os"
)

// ErrInUse means a running tttbot has the store open, so it cannot be
// restored over.
var ErrInUse = errors.New("a tttbot is running on this store")

// ErrRestoring means a restore is replacing the store's file, so no bot may
// open it until that finishes.
var ErrRestoring = errors.New("a restore is replacing this store")

// lockPath is the file beside the database that says who has it open:
// every bot holds a shared lock on it while the store is open, and a
// restore an exclusive one while it replaces the database. The operating
// system drops a lock with its process, so a bot killed with -9 leaves
// nothing to clean up.
func lockPath(path string) string { return path + ".lock" }

// storeLock is a lock held on lockPath(path).
type storeLock struct{ f *os.File }

// lockShared takes the lock a running bot holds; it fails with ErrRestoring
// while a restore holds the exclusive one. Several bots on one file (by
// mistake, or tests) share it.
func lockShared(path string) (*storeLock, error) {
	return lockFile(path, false)
}

// lockExclusive takes the lock a restore holds; it fails with ErrInUse
// while any bot has the store open.
func lockExclusive(path string) (*storeLock, error) {
	return lockFile(path, true)
}

func lockFile(path string, exclusive bool) (*storeLock, error) {
	f, err := os.OpenFile(lockPath(path), os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("sqlite: lock file: %w", err)
	}
	held, err := flock(f, exclusive)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("sqlite: lock %s: %w", lockPath(path), err)
	}
	if !held {
		f.Close()
		if exclusive {
			return nil, fmt.Errorf("%w (it holds %s): stop every bot on %s first", ErrInUse, lockPath(path), path)
		}
		return nil, fmt.Errorf("%w (%s): start the bot again when `tttbot restore` has finished", ErrRestoring, path)
	}
	return &storeLock{f: f}, nil
}

// release drops the lock; releasing again does nothing.
func (l *storeLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	f := l.f
	l.f = nil
	return f.Close() // closing the descriptor drops its lock
}
