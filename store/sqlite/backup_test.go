package sqlite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

// TestBackupUnderLoad: writers save tables without pause while a backup is
// taken; the backup holds every save answered before it began, reports its
// progress over several steps, and, restored, opens and takes new saves.
func TestBackupUnderLoad(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := mustOpen(t, filepath.Join(dir, "tttbot.db"), options{})
	// Over pagesAStep pages, so the copy takes several steps.
	big := bytes.Repeat([]byte("x"), 64<<10)
	for i := range 100 {
		if _, ok, err := s.SaveTable(ctx, table.Save{Channel: fmt.Sprintf("big%d", i), Data: big, Now: at}); !ok || err != nil {
			t.Fatalf("filling: %v %v", ok, err)
		}
	}
	const writers = 4
	var acked [writers]atomic.Int64 // each writer's channel's last answered version
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			version := int64(0)
			for {
				select {
				case <-stop:
					return
				default:
				}
				v, ok, err := s.SaveTable(ctx, table.Save{Channel: fmt.Sprintf("w%d", w), Data: []byte(fmt.Sprint(version + 1)), Version: version, Now: at})
				if err != nil || !ok {
					t.Errorf("writer %d at %d: %v %v", w, version, ok, err)
					return
				}
				version = v
				acked[w].Store(v)
			}
		})
	}
	for w := range writers { // every writer has saved at least once
		for acked[w].Load() == 0 && !t.Failed() {
			runtime.Gosched()
		}
	}
	var before [writers]int64
	for w := range writers {
		before[w] = acked[w].Load()
	}
	var steps []Progress
	info, err := Backup(ctx, filepath.Join(dir, "tttbot.db"), filepath.Join(dir, "backup.db"), func(p Progress) { steps = append(steps, p) })
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) < 2 || steps[len(steps)-1].Done != steps[len(steps)-1].Total {
		t.Errorf("progress %v: want several steps, the last complete", steps)
	}
	// One snapshot: the writers' commits never restarted the copy.
	for i := 1; i < len(steps); i++ {
		if steps[i].Done <= steps[i-1].Done || steps[i].Total != steps[0].Total {
			t.Errorf("progress went %v then %v: the copy restarted or the snapshot moved", steps[i-1], steps[i])
		}
	}
	if info.Channels != 100+writers || info.Schema() == 0 {
		t.Errorf("backup info %+v", info)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(filepath.Join(dir, "backup.db"+suffix)); err == nil {
			t.Errorf("the backup left %s beside it: it should be one file", suffix)
		}
	}
	restored := filepath.Join(dir, "restored", "tttbot.db")
	if _, err := Restore(ctx, filepath.Join(dir, "backup.db"), restored, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	r := mustOpen(t, restored, options{})
	for w := range writers {
		ch := fmt.Sprintf("w%d", w)
		data, version, found, err := r.LoadTable(ctx, ch)
		if err != nil || !found || version < before[w] || string(data) != fmt.Sprint(version) {
			t.Errorf("%s in the backup: version %d (%q, %v %v); answered before it began: %d", ch, version, data, found, err, before[w])
		}
		if _, ok, err := r.SaveTable(ctx, table.Save{Channel: ch, Data: []byte("next"), Version: version, Now: at}); !ok || err != nil {
			t.Errorf("a save on the restored %s: %v %v", ch, ok, err)
		}
	}
}

// TestRestoreRefusals: restore replaces nothing when the file is no store,
// when a bot has the target open, when the backup's schema is newer than
// the binary, or when the target changed after the backup (unless forced);
// and a bot cannot open the store while a restore holds it.
func TestRestoreRefusals(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	s := mustOpen(t, live, options{})
	if _, _, err := s.SaveTable(ctx, table.Save{Channel: "c", Data: []byte("old"), Now: at}); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "backup.db")
	if _, err := Backup(ctx, live, backup, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Backup(ctx, live, backup, nil); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a backup over an existing file: %v", err)
	}

	t.Run("ErrInUse", func(t *testing.T) {
		if _, err := Restore(ctx, backup, live, RestoreOptions{Force: true}); !errors.Is(err, ErrInUse) {
			t.Fatalf("restore while a bot has the store open: %v", err)
		}
	})
	t.Run("ErrNotAStore", func(t *testing.T) {
		junk := filepath.Join(dir, "junk.db")
		os.WriteFile(junk, []byte("not a database, just text that is long enough to be read as a header"), 0o600)
		if _, err := Restore(ctx, junk, filepath.Join(dir, "other.db"), RestoreOptions{}); !errors.Is(err, ErrNotAStore) {
			t.Errorf("a text file: %v", err)
		}
		if _, err := Restore(ctx, filepath.Join(dir, "missing.db"), filepath.Join(dir, "other.db"), RestoreOptions{}); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a missing file: %v", err)
		}
	})
	t.Run("ErrSchemaTooNew", func(t *testing.T) {
		future := filepath.Join(dir, "future.db")
		if _, err := Backup(ctx, live, future, nil); err != nil {
			t.Fatal(err)
		}
		f := mustOpen(t, filepath.Join(dir, "scratch.db"), options{})
		if _, err := f.wdb.Exec(`ATTACH DATABASE ? AS future; INSERT INTO future.schema_migrations (version, name) VALUES (999, '0999_future.sql')`, future); err != nil {
			t.Fatal(err)
		}
		f.wdb.Exec(`DETACH DATABASE future`)
		_, err := Restore(ctx, future, filepath.Join(dir, "other.db"), RestoreOptions{Force: true})
		if !errors.Is(err, store.ErrSchemaTooNew) || !strings.Contains(err.Error(), "999") {
			t.Errorf("a backup from a newer tttbot: %v", err)
		}
	})

	if _, _, err := s.SaveTable(ctx, table.Save{Channel: "c", Data: []byte("new"), Version: 1, Now: at.Add(1e9)}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	t.Run("ErrTargetNewer", func(t *testing.T) {
		if _, err := Restore(ctx, backup, live, RestoreOptions{}); !errors.Is(err, ErrTargetNewer) {
			t.Fatalf("restoring over newer changes: %v", err)
		}
		if data, _ := loadOne(t, live, "c"); data != "new" {
			t.Fatalf("a refused restore changed the store: %q", data)
		}
	})
	t.Run("Force", func(t *testing.T) {
		done, err := Restore(ctx, backup, live, RestoreOptions{Force: true})
		if err != nil {
			t.Fatal(err)
		}
		if data, _ := loadOne(t, live, "c"); data != "old" {
			t.Errorf("after the restore: %q", data)
		}
		if data, _ := loadOne(t, done.Kept, "c"); data != "new" {
			t.Errorf("the replaced store, kept as %s: %q", done.Kept, data)
		}
	})
	t.Run("ErrRestoring", func(t *testing.T) {
		l, err := lockExclusive(live)
		if err != nil {
			t.Fatal(err)
		}
		defer l.release()
		if _, err := Open(ctx, live); !errors.Is(err, ErrRestoring) {
			t.Errorf("a bot starting during a restore: %v", err)
		}
	})
}

// loadOne opens the store at path and returns channel's table.
func loadOne(tb testing.TB, path, channel string) (string, int64) {
	tb.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	defer s.Close()
	data, version, _, err := s.LoadTable(context.Background(), channel)
	if err != nil {
		tb.Fatal(err)
	}
	return string(data), version
}
