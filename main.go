// Command tttbot is a Discord bot for generalized tic-tac-toe, the original
// terminal game, and a board checker (docs/architecture.md maps the code).
//
//	tttbot              run the bot (gateway and/or HTTP interactions endpoint)
//	tttbot play         play in the terminal
//	tttbot verify       judge written boards read from stdin
//	tttbot register     register /ttt over REST (for HTTP-only deployments)
//	tttbot healthcheck  probe a running bot's /healthz (the container's health check)
//	tttbot backup       copy the SQLite store while the bot runs (storecmd.go)
//	tttbot restore      put a backup in the store's place
//
// main only wires packages together: config → store → table → bot →
// transports (bot/gateway, bot/httpapi), and signals. Everything it calls is
// tested in its own package; main imports no Discord library.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/tttbot/tttbot/bot"
	"github.com/tttbot/tttbot/bot/discordrest"
	"github.com/tttbot/tttbot/bot/emojicdn"
	"github.com/tttbot/tttbot/bot/gateway"
	"github.com/tttbot/tttbot/bot/httpapi"
	"github.com/tttbot/tttbot/cli"
	"github.com/tttbot/tttbot/config"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/store/postgres"
	"github.com/tttbot/tttbot/store/sqlite"
	"github.com/tttbot/tttbot/table"
)

// How long start-up, HTTP requests and shutdown may take.
const (
	openWithin        = 30 * time.Second // opening the store and the gateway, registering commands
	readHeaderWithin  = 5 * time.Second
	readWithin        = 10 * time.Second
	writeWithin       = 10 * time.Second
	shutdownWithin    = 10 * time.Second // finishing replies in flight
	clocksStopWithin  = 5 * time.Second  // the clock scheduler finishing its pass in flight
	healthcheckWithin = 3 * time.Second
)

// Exit codes.
const (
	exitOK     = 0
	exitFail   = 1  // the bot ran and failed
	exitUsage  = 2  // unknown subcommand or flags
	exitConfig = 78 // EX_CONFIG: the configuration is wrong; fix it and restart
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	cmd := ""
	if len(args) > 0 {
		cmd = args[0]
	}
	switch cmd {
	case "":
		return serve()
	case "play":
		if err := cli.Play(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "play:", err)
			return exitFail
		}
		return exitOK
	case "verify":
		return cli.Verify(args[1:], os.Stdin, os.Stdout, os.Stderr)
	case "healthcheck":
		return healthcheck()
	case "register":
		return register()
	case "backup", "restore":
		return storeCommand(cmd, args[1:], os.Stdout, os.Stderr)
	case "help", "-h", "--help":
		usage(os.Stdout)
		return exitOK
	}
	fmt.Fprintf(os.Stderr, "tttbot: unknown command %q\n", cmd)
	usage(os.Stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  tttbot              run the Discord bot (configured by .env and the environment; see .env.example)
  tttbot play         play tic-tac-toe in this terminal
  tttbot verify [--win K] [--gravity] [--tokens XO]
                      judge boards read from stdin, one a line
  tttbot register     register /ttt with Discord (needs DISCORD_TOKEN and DISCORD_APP_ID)
  tttbot healthcheck  exit 0 if the bot on HTTP_ADDR answers /healthz
  tttbot backup FILE  copy the SQLite store (DATABASE_URL) to FILE while the bot runs
  tttbot restore FILE [--force]
                      replace the SQLite store with the backup FILE (stop the bot first;
                      --force even when the store changed after the backup)
`)
}

// serve runs the bot until SIGINT or SIGTERM.
func serve() int {
	cfg, err := config.Load(".env")
	if err != nil {
		fmt.Fprintf(os.Stderr, "tttbot: configuration error:\n%v\n", err)
		return exitConfig
	}
	// Every line goes through the redacting handler: a driver error that
	// quotes a DSN or a URL cannot print a secret.
	log := cfg.Logger(os.Stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serveWith(ctx, cfg, log); err != nil {
		log.Error("tttbot stopped", "err", err)
		if errors.Is(err, store.ErrSchemaTooNew) {
			// Said plainly too: this binary is the wrong version for the
			// store, and only the operator can choose the right one.
			fmt.Fprintf(os.Stderr, "tttbot: %v\n", cfg.Redactor().Error(err))
			return exitConfig
		}
		return exitFail
	}
	return exitOK
}

func serveWith(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	log.Info("starting", "config", cfg)
	openCtx, cancel := context.WithTimeout(ctx, openWithin)
	defer cancel()
	st, err := openStore(openCtx, cfg.Database)
	if err != nil {
		return err
	}
	defer st.close()
	// The one clock: every time stamp (tables, results, signature ages)
	// comes from now, so tests and replicas agree on what time it is.
	now := time.Now
	// Only PostgreSQL is shared by replicas: over SQLite or memory this
	// process is the only writer, and its cache spares a read an action.
	sole := cfg.Database.Kind != config.Postgres
	tables := table.NewTables(table.Options{Store: st.tables, Now: now, IdleTimeout: cfg.IdleTimeout, Logger: log, SoleWriter: sole})
	rest := restClient(cfg)
	b := bot.New(bot.Options{Tables: tables, Records: st.records, Logger: log, Editor: rest, Threads: threads(cfg, rest), ChallengeTimeout: cfg.ChallengeTimeout,
		EmojiImages: emojicdn.New(cfg.CDNURL.String())})
	if err := b.Metrics.Register(append(writeMetrics(st.stats), storeGauges(st, now)...)...); err != nil {
		return err
	}
	// Not stopped by the signal: clocks are enforced while replies drain,
	// then stopClocks lets the scheduler finish its pass and stops it.
	stopClocks := runClocks(context.WithoutCancel(ctx), tables, st.deadlines, log)
	defer stopClocks() // before the store closes (deferred earlier, so it runs later)

	if cfg.PprofAddr != "" {
		stopPprof, err := servePprof(cfg.PprofAddr, log)
		if err != nil {
			return err
		}
		defer stopPprof()
	}
	var srv *http.Server
	srvErr := make(chan error, 1)
	if cfg.HTTPAddr != "" {
		ln, err := net.Listen("tcp", cfg.HTTPAddr)
		if err != nil {
			return fmt.Errorf("HTTP_ADDR %s: %w", cfg.HTTPAddr, err)
		}
		handler, err := countResponses(b.Metrics, httpapi.NewHandler(b, httpapi.Options{PublicKey: cfg.PublicKey, Logger: log, Now: now, APIURL: cfg.APIURL,
			Deduper: st.deduper, Ready: st.ready}))
		if err != nil {
			return err
		}
		srv = &http.Server{
			Handler:           handler,
			ReadHeaderTimeout: readHeaderWithin,
			ReadTimeout:       readWithin,
			WriteTimeout:      writeWithin,
		}
		go func() { srvErr <- srv.Serve(ln) }()
		log.Info("http listening", "addr", ln.Addr().String(), "interactions", cfg.Interactions())
	}

	var gw *gateway.Gateway
	switch {
	case cfg.Gateway():
		gw, err = gateway.New(b, gateway.Options{Token: cfg.Token, AppID: cfg.AppID, GuildID: cfg.GuildID, APIURL: cfg.APIURL, Logger: log})
		if err == nil {
			err = gw.Open(openCtx)
		}
		if err != nil {
			return err
		}
	case cfg.Interactions():
		log.Info("HTTP interactions only: point the Interactions Endpoint URL in the Developer Portal at /interactions; register /ttt once with `tttbot register`")
	}

	select {
	case <-ctx.Done():
		log.Info("shutting down: finishing replies in flight")
	case err := <-srvErr:
		return fmt.Errorf("http: %w", err)
	}
	shutdownCtx, cancelShutdown := context.WithTimeout(context.Background(), shutdownWithin)
	defer cancelShutdown()
	var errs []error
	if gw != nil {
		errs = append(errs, gw.Close(shutdownCtx))
	}
	if srv != nil {
		errs = append(errs, srv.Shutdown(shutdownCtx))
	}
	// Work replies started in the background (learning a board message's
	// ID, saved with its table) finishes before the clocks and the store
	// stop (deferred above).
	errs = append(errs, waitWithin(shutdownCtx, b.Wait))
	return errors.Join(errs...)
}

// waitWithin runs wait until it returns or ctx ends.
func waitWithin(ctx context.Context, wait func()) error {
	done := make(chan struct{})
	go func() { wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return errors.New("shutting down: background work still running")
	}
}

// servePprof serves Go's profiler on addr, its own listener, so that
// profiling is never reachable where interactions are (PPROF_ADDR).
func servePprof(addr string, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("PPROF_ADDR %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: readHeaderWithin}
	go srv.Serve(ln)
	log.Warn("profiler listening", "addr", ln.Addr().String())
	return func() { srv.Close() }, nil
}

// restClient is the Discord REST client for the calls outside an
// interaction's reply (board edits when a move clock runs out, threads):
// DISCORD_API_URL's base, the bot token when there is one.
func restClient(cfg config.Config) *discordrest.Client {
	base := config.DefaultAPIURL
	if cfg.APIURL != nil {
		base = cfg.APIURL.String()
	}
	return discordrest.New(discordrest.Options{BaseURL: base, BotToken: cfg.Token})
}

// threads is rest as the bot's threads, or nil without a bot token: threads
// are started with it, so a busy channel then holds one game.
func threads(cfg config.Config, rest *discordrest.Client) bot.Threads {
	if cfg.Token == "" {
		return nil
	}
	return rest
}

// runClocks enforces move clocks, lapses unanswered challenges and archives
// finished games' threads until the returned stop is called: first
// whatever fell due while no bot ran, then each deadline as it comes. stop
// lets the scheduler's pass in flight finish its applies (what it had not
// started stays due in the store for the next start), up to
// clocksStopWithin, then waits for the edits they started.
func runClocks(ctx context.Context, tables *table.Tables, deadlines table.DeadlineStore, log *slog.Logger) (stop func()) {
	sched, err := table.NewScheduler(tables, table.SchedulerOptions{Store: deadlines, Logger: log})
	if err != nil {
		log.Warn("move clocks are not enforced", "err", err)
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sched.Run(ctx)
	}()
	return func() {
		stopCtx, cancelStop := context.WithTimeout(context.Background(), clocksStopWithin)
		defer cancelStop()
		if err := sched.Stop(stopCtx); err != nil {
			log.Warn("shutting down", "err", err)
		}
		cancel()
		<-done
		tables.Wait()
	}
}

// openedStore is the store DATABASE_URL names, as each part of the bot
// takes it.
type openedStore struct {
	tables    table.Store         // the channels' sessions
	records   table.Records       // finished games, for the bot's queries
	deadlines table.DeadlineStore // the move clocks' deadlines, for the scheduler
	games     table.GameCounter   // the games open, for the dashboard
	deduper   httpapi.Deduper     // handled interactions, for the HTTP transport
	ready     httpapi.Readier     // whether it still writes, for /healthz
	stats     func() store.WriteStats
	close     func() error
}

// everyStore is what each store here offers.
type everyStore interface {
	table.Store
	table.Records
	table.DeadlineStore
	table.GameCounter
	httpapi.Deduper
	httpapi.Readier
}

// views hands each part of the bot its view of s; stats is nil for a store
// that writes nothing durable.
func views(s everyStore, stats func() store.WriteStats, close func() error) openedStore {
	return openedStore{tables: s, records: s, deadlines: s, games: s, deduper: s, ready: s, stats: stats, close: close}
}

// openStore opens the store DATABASE_URL names. config.Load has already
// refused every other kind of URL.
func openStore(ctx context.Context, db config.Database) (openedStore, error) {
	switch db.Kind {
	case config.SQLite:
		s, err := sqlite.Open(ctx, db.Path)
		if err != nil {
			return openedStore{}, err
		}
		return views(s, s.WriteStats, s.Close), nil
	case config.Postgres:
		s, err := postgres.Open(ctx, db.DSN)
		if err != nil {
			return openedStore{}, err
		}
		return views(s, s.WriteStats, s.Close), nil
	case config.Memory:
		return views(store.NewMemory(), nil, func() error { return nil }), nil
	}
	return openedStore{}, fmt.Errorf("DATABASE_URL: unknown kind of database %v", db.Kind)
}

// writeMetrics exports how a durable store's group commit shares its
// COMMITs (stats): for the operator, rate(writes)/rate(commits) is the mean
// batch and rate(busy)/rate(commits) the time a batch takes. The memory
// store writes nothing durable and has none (stats is nil).
func writeMetrics(stats func() store.WriteStats) []prometheus.Collector {
	if stats == nil {
		return nil
	}
	counter := func(name, help string, value func(store.WriteStats) float64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return value(stats()) })
	}
	return []prometheus.Collector{
		counter("tttbot_store_commits_total", "Transactions the store's writer committed, each one flush to disk, each covering every write that queued meanwhile.",
			func(w store.WriteStats) float64 { return float64(w.Commits) }),
		counter("tttbot_store_writes_total", "Writes (table saves, handled interactions, readiness probes) made durable by those commits.",
			func(w store.WriteStats) float64 { return float64(w.Writes) }),
		counter("tttbot_store_busy_seconds_total", "Time the store's writer spent running batches, statements and commit.",
			func(w store.WriteStats) float64 { return w.Busy.Seconds() }),
	}
}

// healthcheck asks the local bot's /healthz; the Dockerfile's HEALTHCHECK
// runs it, so the image needs no curl.
func healthcheck() int {
	// The same .env and environment as the bot, so the probe asks where the
	// bot listens.
	u, err := config.HealthzURL(".env")
	if err != nil {
		fmt.Fprintln(os.Stderr, "healthcheck:", err)
		return exitConfig
	}
	client := &http.Client{Timeout: healthcheckWithin}
	resp, err := client.Get(u)
	if err != nil {
		fmt.Fprintln(os.Stderr, "healthcheck:", err)
		return exitFail
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintln(os.Stderr, "healthcheck: /healthz answered", resp.Status)
		return exitFail
	}
	return exitOK
}

// register overwrites the application's commands with /ttt over REST alone,
// for deployments that run only the HTTP endpoint.
func register() int {
	cfg, err := config.Load(".env")
	if err == nil && (cfg.Token == "" || cfg.AppID == "") {
		err = errors.New("register needs DISCORD_TOKEN and DISCORD_APP_ID")
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "tttbot: configuration error:\n%v\n", err)
		return exitConfig
	}
	ctx, cancel := context.WithTimeout(context.Background(), openWithin)
	defer cancel()
	if err := gateway.Register(ctx, cfg.Token, cfg.AppID, cfg.GuildID, cfg.APIURL); err != nil {
		fmt.Fprintln(os.Stderr, cfg.Redactor().Error(err))
		return exitFail
	}
	where := "globally (may take up to an hour to show)"
	if cfg.GuildID != "" {
		where = "in guild " + cfg.GuildID
	}
	fmt.Println("registered /ttt", where)
	return exitOK
}
