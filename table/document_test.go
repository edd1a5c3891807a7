package table

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
)

// TestUpdateDocument: replicas changing one document at once each apply
// their change (a lost swap reads again), an interaction is recorded with
// its change and a replay of it refused before the change runs, and a
// change that returns nothing writes nothing.
func TestUpdateDocument(t *testing.T) {
	st := newReplicaStore()
	a, b := NewTables(Options{Store: st}), NewTables(Options{Store: st})
	increment := func(data []byte, found bool) ([]byte, error) {
		n := 0
		if found {
			n, _ = strconv.Atoi(string(data))
		}
		return []byte(strconv.Itoa(n + 1)), nil
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		ts := []*Tables{a, b}[i%2]
		wg.Go(func() { _, errs[i] = ts.UpdateDocument(ctx, "count:x", "", increment) })
	}
	wg.Wait()
	applied := 0
	for _, err := range errs {
		switch {
		case err == nil:
			applied++
		case !errors.Is(err, ErrConflict): // five lost swaps in a row: refused, never half-applied
			t.Fatal(err)
		}
	}
	data, found, err := a.LoadDocument(ctx, "count:x")
	if err != nil || !found || string(data) != strconv.Itoa(applied) || applied == 0 {
		t.Fatalf("count %q after %d applied changes (found %v, %v)", data, applied, found, err)
	}

	recorded, err := a.UpdateDocument(ctx, "count:x", "1180000000000000001", increment)
	if err != nil || !recorded {
		t.Fatalf("a change with its interaction: recorded %v, %v", recorded, err)
	}
	ran := false
	_, err = b.UpdateDocument(ctx, "count:x", "1180000000000000001", func(data []byte, found bool) ([]byte, error) {
		ran = true
		return increment(data, found)
	})
	if !errors.Is(err, ErrDuplicate) || ran {
		t.Fatalf("a replay on another replica: %v, change ran %v", err, ran)
	}
	before, _, _ := a.LoadDocument(ctx, "count:x")
	recorded, err = a.UpdateDocument(ctx, "count:x", "1180000000000000002", func([]byte, bool) ([]byte, error) { return nil, nil })
	after, _, _ := a.LoadDocument(ctx, "count:x")
	if err != nil || recorded || string(after) != string(before) {
		t.Fatalf("an empty change: recorded %v, %v, %q → %q", recorded, err, before, after)
	}
}
