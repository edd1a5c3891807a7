package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The load tool, the server it drives and, on PostgreSQL, the database all
// share this machine's processors, so a server's throughput is bounded by
// the CPU everything spends on one of its requests: when the machine is as
// busy in two phases, their throughputs stand in the inverse ratio of that
// machine-wide cost. Each phase measures it (MachineCPU) beside the
// server's own CPU, so that a report says how much of a gap between the bot
// and a bound is CPU a request, and whose.

// cpuTime is the CPU time (user and system) proc has used so far; 0 when
// unknown.
func cpuTime(proc *exec.Cmd) time.Duration {
	if proc == nil || proc.Process == nil {
		return 0
	}
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(proc.Process.Pid) + "/stat")
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis: utime and stime
	// are the 12th and 13th, in clock ticks of 1/100 s (Linux's USER_HZ).
	_, rest, _ := strings.Cut(string(raw), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	return ticks(user + sys)
}

// ticks is n of Linux's USER_HZ clock ticks (1/100 s) as a duration.
func ticks(n int64) time.Duration { return time.Duration(n) * 10 * time.Millisecond }

// MachineCPU is the whole machine's CPU over an interval: every processor's
// busy and total time (both summed over processors), and the load tool's
// own share of the busy time.
type MachineCPU struct {
	Busy, Total time.Duration
	LoadTool    time.Duration
}

// sampleMachine is the machine's CPU since boot and the load tool's since
// it started; zero where /proc/stat cannot be read (not Linux).
func sampleMachine() MachineCPU {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return MachineCPU{}
	}
	m, ok := parseProcStat(string(raw))
	if !ok {
		return MachineCPU{}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		m.LoadTool = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return m
}

// parseProcStat reads /proc/stat's first line, every processor's time in
// ticks: user, nice, system, idle, iowait, irq, softirq, steal (and guest
// time, already counted in user). Idle and iowait are time no process ran;
// steal is the hypervisor's, neither busy nor ours to use.
func parseProcStat(stat string) (MachineCPU, bool) {
	line, _, _ := strings.Cut(stat, "\n")
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return MachineCPU{}, false
	}
	var v [7]int64
	for i := range v {
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return MachineCPU{}, false
		}
		v[i] = n
	}
	user, nice, system, idle, iowait, irq, softirq := v[0], v[1], v[2], v[3], v[4], v[5], v[6]
	busy := user + nice + system + irq + softirq
	return MachineCPU{Busy: ticks(busy), Total: ticks(busy + idle + iowait)}, true
}

// since is the interval from earlier to m.
func (m MachineCPU) since(earlier MachineCPU) MachineCPU {
	if m.Total == 0 || earlier.Total == 0 {
		return MachineCPU{}
	}
	return MachineCPU{Busy: m.Busy - earlier.Busy, Total: m.Total - earlier.Total, LoadTool: m.LoadTool - earlier.LoadTool}
}

// add pools two intervals.
func (m MachineCPU) add(o MachineCPU) MachineCPU {
	return MachineCPU{Busy: m.Busy + o.Busy, Total: m.Total + o.Total, LoadTool: m.LoadTool + o.LoadTool}
}

// BusyShare is the part of the machine's processors' time that was busy.
func (m MachineCPU) BusyShare() float64 {
	if m.Total <= 0 {
		return 0
	}
	return float64(m.Busy) / float64(m.Total)
}

// PerRequest is the machine's busy time over n requests; 0 when unknown.
func (m MachineCPU) PerRequest(n int) time.Duration {
	if m.Total <= 0 || n <= 0 {
		return 0
	}
	return m.Busy / time.Duration(n)
}

// String is how busy the machine was and its CPU a request, the load
// tool's part of it in brackets; empty when unknown.
func (m MachineCPU) String(requests int) string {
	if m.PerRequest(requests) <= 0 {
		return ""
	}
	return fmt.Sprintf("machine %.0f%% busy %.0fµs/req (load tool %.0fµs)", 100*m.BusyShare(),
		us(m.PerRequest(requests)), us(m.LoadTool/time.Duration(requests)))
}

// us is d in microseconds.
func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
