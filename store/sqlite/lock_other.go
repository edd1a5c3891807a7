//go:build !unix

package sqlite

import "os"

// flock always grants the lock where the system has no flock(2): there,
// restore cannot tell that a bot is running, and the operator must stop it
// first (README says so).
func flock(f *os.File, exclusive bool) (held bool, err error) { return true, nil }
