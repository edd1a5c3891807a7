// Command loadtest measures what a user of the HTTP endpoint gets: it builds
// and starts the real tttbot binary on a durable database (an SQLite file on
// a real disk, or PostgreSQL), drives N channels of signed interactions
// (Connect Four games: /ttt new, /ttt join, moves; each channel's requests
// one after another, the channels at once), and in the same run drives "the
// bound": a minimal server, in its own process, that only verifies the
// Ed25519 signature and writes a JSON reply, and "the durable bound": the
// same server that also writes each request to a journal on the same disk
// and syncs it (group commit) before replying, the least an endpoint that
// keeps what it answers in one log must do there (the journal is written
// whole at start and overwritten, as databases reuse their logs: see
// groupJournal). Phases alternate bot, bound,
// durable, bot… so all see the same machine; it reports each phase, the
// throughput and p50/p99 latency of each, and the bot's ratios to both (on
// PostgreSQL, also the rows the bot's statements read: see Scans).
//
//	go run ./cmd/loadtest -channels 16,64 -db sqlite
//	go run ./cmd/loadtest -channels 16 -db postgres://postgres@127.0.0.1:5432/test?sslmode=disable
//	go run ./cmd/loadtest -channels 16 -phases 1 -phase 5m -rss 10s   (memory over a long load)
//	go run ./cmd/loadtest -channels 64 -cpuprofile bot.pprof           (then go tool pprof bot.pprof)
//	go run ./cmd/loadtest -channels 16 -trace bot.trace                (then go tool trace -pprof=sched bot.trace)
//	go run ./cmd/loadtest -db sqlite:///var/tmp/year.db -prefill-finished 1000000 -prefill-open 100000 -prefill-only
//	go run ./cmd/loadtest -db sqlite:///var/tmp/year.db -prefilled -prefill-finished 1000000 -prefill-open 100000 -reads world
//
// -db sqlite (the default) is a new file each run; -db sqlite://PATH is
// that file, kept. -prefill-finished and -prefill-open first write a year
// of a bot's life into the (fresh) store through the bot's own write path
// (see runPrefill).
//
// It is a separate command, not a `tttbot bench` subcommand, so that the
// binary measured is exactly the one shipped (no load generator or bound
// server linked in, main.go untouched) and the load generator is never a
// thing a deployment can run by accident. It is a benchmark: nothing in it
// fails on a slow machine; its smoke test only checks that a few requests
// get through.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) > 2 && os.Args[1] == boundArg {
		// The bound, started by this tool in its own process.
		if err := serveBoundArgs(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "loadtest bound:", err)
			os.Exit(1)
		}
		return
	}
	var (
		cfg      Config
		channels string
		logPath  string
	)
	flag.StringVar(&channels, "channels", "16", "comma-separated numbers of channels to drive, one run each (e.g. 16,64)")
	flag.StringVar(&cfg.DB, "db", "sqlite", "sqlite (a new file under -dir) or a postgres:// URL")
	flag.StringVar(&cfg.Dir, "dir", os.TempDir(), "where the SQLite file and the built binary go (a real disk: tmpfs is refused)")
	flag.StringVar(&cfg.Bin, "bin", "", "a built tttbot binary (default: build the module in the current directory as its Dockerfile does)")
	flag.DurationVar(&cfg.Phase, "phase", 10*time.Second, "length of one phase")
	flag.IntVar(&cfg.Phases, "phases", 3, "bot phases (each followed by a bound phase)")
	flag.DurationVar(&cfg.Warmup, "warmup", 2*time.Second, "load before the first phase, not measured")
	flag.DurationVar(&cfg.RSSEvery, "rss", 0, "sample the bot's RSS this often (0: only at phase ends)")
	flag.BoolVar(&cfg.NoBound, "no-bound", false, "drive the bot only (e.g. a long memory run)")
	flag.BoolVar(&cfg.Buttons, "buttons", false, "play moves by pressing the board's column buttons, each press carrying the board message (default: /ttt move commands)")
	flag.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of the bot during its first phase to this file (PPROF_ADDR)")
	flag.StringVar(&cfg.Trace, "trace", "", "write a 2 s execution trace of the bot in its first phase to this file (go tool trace; -pprof=sched shows what waited for a processor, and behind what)")
	flag.StringVar(&logPath, "log", "", "append the bot's and the bound's stderr to this file (default: discarded)")
	flag.IntVar(&cfg.Prefill.Finished, "prefill-finished", 0, "before the bot starts, write this many finished rated games, a year of them, into the fresh store (see -prefill-open)")
	flag.IntVar(&cfg.Prefill.Open, "prefill-open", 0, "before the bot starts, write this many open games (some on clocks) into the fresh store")
	flag.Uint64Var(&cfg.Prefill.Seed, "prefill-seed", 1, "the prefilled world's seed: its servers, players and games")
	flag.IntVar(&cfg.Prefill.Workers, "prefill-workers", prefillWorkers, "channels the prefill writes at once (each a goroutine; group commit shares their COMMITs)")
	flag.BoolVar(&cfg.Prefilled, "prefilled", false, "-db already holds the prefill the -prefill-* flags describe: write nothing (-reads world names its players)")
	flag.StringVar(&cfg.Reads, "reads", "", "after each bot phase, a phase of read commands (stats, history, a deep history page, leaderboards, an old game's replay, a board): own (about the run's players) or world (about the prefill's)")
	flag.BoolVar(&cfg.PrefillOnly, "prefill-only", false, "write the prefill into -db (sqlite://PATH or postgres://…) and stop: later runs then name the same -db")
	flag.Parse()
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(2)
		}
		defer f.Close()
		cfg.Log = f
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	for _, c := range strings.Split(channels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "loadtest: -channels %q: want numbers like 16,64\n", channels)
			os.Exit(2)
		}
		cfg.Channels = n
		rep, err := Run(ctx, cfg, os.Stdout)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
		if cfg.PrefillOnly {
			return
		}
		rep.Print(os.Stdout)
	}
}

// Config is one run.
type Config struct {
	Channels int
	DB       string // "sqlite" or a postgres:// URL
	Dir      string
	Bin      string
	Phase    time.Duration
	Phases   int
	Warmup   time.Duration
	RSSEvery time.Duration
	NoBound  bool
	// Buttons: moves are column button presses, each carrying the board
	// message it sits on, as Discord sends them (default: commands).
	Buttons bool
	// CPUProfile, when set, is where the bot's CPU profile of its first
	// phase goes (read from its PPROF_ADDR; `go tool pprof` reads it).
	CPUProfile string
	// Trace, when set, is where an execution trace of two seconds of the
	// bot's first phase goes (`go tool trace` reads it).
	Trace string
	// Requests, when positive, ends each phase after this many requests a
	// channel instead of after Phase (the smoke test).
	Requests int
	// Log receives the bot's and the bound's stderr; nil discards it.
	Log io.Writer
	// Prefill is written into the store before the bot starts (nothing
	// when both counts are 0); with PrefillOnly, Run stops there.
	Prefill     Prefill
	PrefillOnly bool
	Prefilled   bool // the store already holds Prefill
	// Reads: "own" or "world" adds a phase of read commands after each bot
	// phase, about the run's players or the prefilled world's.
	Reads string
}
