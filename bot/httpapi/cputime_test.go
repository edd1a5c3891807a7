//go:build unix

package httpapi

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time the process has used, user and system, every
// goroutine's (the database's writer and the garbage collector's too).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time since start a benchmark operation took,
// as cpu-ns/op: on shared cores, where a neighbour's work stretches the
// wall time of every operation, this is the steadier measure of what a
// request costs, and the one throughput follows when the cores are busy.
func reportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 && start > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}
