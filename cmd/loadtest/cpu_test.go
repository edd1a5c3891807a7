package main

import (
	"testing"
	"time"
)

func TestParseProcStat(t *testing.T) {
	// user nice system idle iowait irq softirq steal guest guest_nice
	stat := "cpu  100 5 40 800 20 3 2 7 50 0\ncpu0 50 2 20 400 10 1 1 3 25 0\n"
	m, ok := parseProcStat(stat)
	if !ok {
		t.Fatal("a well-formed /proc/stat was not read")
	}
	// Busy: user, nice, system, irq, softirq (guest is inside user; steal
	// is nobody's here); the total adds idle and iowait.
	if want := 150 * 10 * time.Millisecond; m.Busy != want {
		t.Errorf("busy %v, want %v", m.Busy, want)
	}
	if want := 970 * 10 * time.Millisecond; m.Total != want {
		t.Errorf("total %v, want %v", m.Total, want)
	}
	for _, bad := range []string{"", "cpu 1 2 3\n", "intr 1 2 3 4 5 6 7 8\n", "cpu 1 2 x 4 5 6 7 8\n"} {
		if _, ok := parseProcStat(bad); ok {
			t.Errorf("%q was read as a CPU line", bad)
		}
	}
}

func TestMachineCPUPerRequest(t *testing.T) {
	before := MachineCPU{Busy: time.Second, Total: 4 * time.Second, LoadTool: 100 * time.Millisecond}
	after := MachineCPU{Busy: 3 * time.Second, Total: 8 * time.Second, LoadTool: 600 * time.Millisecond}
	m := after.since(before)
	if got := m.BusyShare(); got != 0.5 {
		t.Errorf("busy share %v, want 0.5", got)
	}
	if got := m.PerRequest(1000); got != 2*time.Millisecond {
		t.Errorf("per request %v, want 2ms", got)
	}
	if got, want := m.String(1000), "machine 50% busy 2000µs/req (load tool 500µs)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if s := (MachineCPU{}).since(before).String(10); s != "" {
		t.Errorf("an unknown sample printed %q", s)
	}
}
