package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/tttbot/tttbot/config"
	"github.com/tttbot/tttbot/store/sqlite"
)

// postgresBackupHint is what backup and restore say on PostgreSQL: its own
// tools already take a consistent copy while bots run.
const postgresBackupHint = `DATABASE_URL names PostgreSQL, which tttbot does not copy itself: use PostgreSQL's tools.
  back up (while the bots run; pg_dump reads one consistent snapshot):
    pg_dump --format=custom --file=tttbot.dump "$DATABASE_URL"
  restore (stop every bot first, then start them again):
    pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" tttbot.dump
README.md ("Operating tttbot") walks through both.`

// storeCommand runs backup or restore: it reads DATABASE_URL as the bot
// does, and refuses every store but SQLite.
func storeCommand(name string, args []string, stdout, stderr io.Writer) int {
	file, force, err := storeArgs(name, args)
	if err != nil {
		fmt.Fprintf(stderr, "tttbot %s: %v\nusage: tttbot backup FILE | tttbot restore FILE [--force]\n", name, err)
		return exitUsage
	}
	db, err := config.LoadDatabase(".env")
	if err != nil {
		fmt.Fprintf(stderr, "tttbot: configuration error:\n%v\n", err)
		return exitConfig
	}
	switch db.Kind {
	case config.Postgres:
		fmt.Fprintf(stderr, "tttbot %s: %s\n", name, postgresBackupHint)
		return exitFail
	case config.Memory:
		fmt.Fprintf(stderr, "tttbot %s: DATABASE_URL is memory://, which keeps nothing: there is no store to %s\n", name, name)
		return exitFail
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if name == "backup" {
		return backup(ctx, db.Path, file, stdout, stderr)
	}
	return restore(ctx, file, db.Path, force, stdout, stderr)
}

// storeArgs reads FILE and, for restore, --force, in either order.
func storeArgs(name string, args []string) (file string, force bool, err error) {
	for _, a := range args {
		switch {
		case (a == "--force" || a == "-force") && name == "restore":
			force = true
		case len(a) > 1 && a[0] == '-':
			return "", false, fmt.Errorf("unknown flag %s", a)
		case file != "":
			return "", false, errors.New("name one file")
		default:
			file = a
		}
	}
	if file == "" {
		return "", false, errors.New("name the backup file")
	}
	return file, force, nil
}

// backup copies the store at path into file while bots may run on it.
func backup(ctx context.Context, path, file string, stdout, stderr io.Writer) int {
	shown := -1
	info, err := sqlite.Backup(ctx, path, file, func(p sqlite.Progress) {
		if p.Total <= 1024 { // one step: nothing worth reporting
			return
		}
		if pct := 100 * p.Done / p.Total; pct >= shown+10 || p.Done == p.Total {
			shown = pct
			fmt.Fprintf(stderr, "backup: %d%% (%d of %d pages)\n", pct, p.Done, p.Total)
		}
	})
	if err != nil {
		fmt.Fprintf(stderr, "tttbot backup: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stdout, "backed up %s to %s: %s\n", path, file, info)
	return exitOK
}

// restore replaces the store at path with the backup file.
func restore(ctx context.Context, file, path string, force bool, stdout, stderr io.Writer) int {
	done, err := sqlite.Restore(ctx, file, path, sqlite.RestoreOptions{Force: force})
	if err != nil {
		fmt.Fprintf(stderr, "tttbot restore: %v\nnothing was changed\n", err)
		return exitFail
	}
	fmt.Fprintf(stdout, "restored %s (%s) to %s\n", file, done.From, path)
	if done.Replaced != nil {
		fmt.Fprintf(stdout, "the store it replaced (%s) is kept as %s; delete it when the restored store is known good\n", *done.Replaced, done.Kept)
	}
	fmt.Fprintln(stdout, "start the bot: it brings the schema up to date as it opens the store")
	return exitOK
}
