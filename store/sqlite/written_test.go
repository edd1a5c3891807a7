package sqlite

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tttbot/tttbot/table"
)

// TestWrittenKeepsRowsExact: saves that skip what the writer knows the row
// holds (written) leave exactly what saves without that knowledge leave,
// whichever of two stores on one file wrote the version a save was read
// at: its open_game and its clock deadline follow the last save every
// time.
func TestWrittenKeepsRowsExact(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	a, b := mustOpen(t, path, options{}), mustOpen(t, path, options{})
	ctx := context.Background()
	due := at.Add(time.Minute)
	steps := []struct {
		by       *Store
		open     bool
		deadline time.Time
	}{
		{a, true, time.Time{}}, // a new row, on a
		{a, true, time.Time{}}, // a knows the row
		{a, true, due},         // a deadline set
		{a, true, due},         // kept
		{a, true, time.Time{}}, // and cleared by the store that set it
		{b, true, due},         // b sets one from the version a wrote
		{a, true, time.Time{}}, // a must clear what it did not write
		{b, false, time.Time{}},
		{a, true, time.Time{}}, // a must open what b closed
		{a, false, due},
		{a, false, due},
		{a, true, time.Time{}},
		{b, false, time.Time{}},
		{b, false, time.Time{}},
		{a, false, time.Time{}},
		{a, true, due},
	}
	var version int64
	for i, st := range steps {
		v, ok, err := st.by.SaveTable(ctx, table.Save{Channel: "c", Guild: "g", Data: []byte("{}"), Version: version, Now: at, Open: st.open, Deadline: st.deadline})
		if err != nil || !ok {
			t.Fatalf("step %d: save: %v %v", i, ok, err)
		}
		version = v
		var open bool
		var deadlines int
		if err := a.db.QueryRow(`SELECT open_game, (SELECT COUNT(*) FROM clock_deadlines WHERE channel = 'c') FROM channel_tables WHERE channel = 'c'`).Scan(&open, &deadlines); err != nil {
			t.Fatal(err)
		}
		if open != st.open || deadlines != map[bool]int{false: 0, true: 1}[!st.deadline.IsZero()] {
			t.Errorf("step %d: open_game %v and %d deadlines, want %v and a deadline %v", i, open, deadlines, st.open, !st.deadline.IsZero())
		}
	}
}

// TestWrittenForgetsPastItsBound: past maxWritten channels an arbitrary
// one is forgotten, so the memory stays bounded, and the newest is known.
func TestWrittenForgetsPastItsBound(t *testing.T) {
	w := &written{}
	for i := range maxWritten + 10 {
		w.note(table.Save{Channel: strconv.Itoa(i), Open: true}, 2)
	}
	if len(w.m) != maxWritten {
		t.Errorf("%d channels known, want %d", len(w.m), maxWritten)
	}
	if s, known := w.prior(table.Save{Channel: strconv.Itoa(maxWritten + 9), Version: 2}); !known || !s.open {
		t.Errorf("the newest channel: %+v, known %v", s, known)
	}
}
