//go:build unix

package sqlite

import (
	"errors"
	"os"
	"syscall"
)

// flock takes an advisory lock on f without waiting: held is false when
// another descriptor holds a lock that conflicts.
func flock(f *os.File, exclusive bool) (held bool, err error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
