package table

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestRecentIDsKeepsEveryIDApart: IDs kept as numbers and IDs kept as
// strings are one set, and two IDs are the same only when they are the
// same string (a leading zero, a sign, a number past 64 bits are other
// IDs).
func TestRecentIDsKeepsEveryIDApart(t *testing.T) {
	var r recentIDs
	added := []string{"7", "1180000000000000001", "interaction-x", "", "18446744073709551615", "18446744073709551616"}
	for _, id := range added {
		r.add(id)
	}
	for _, id := range added {
		if !r.has(id) {
			t.Errorf("%q added, not found", id)
		}
	}
	for _, id := range []string{"07", "+7", "-7", "8", "1180000000000000002", "18446744073709551614", "184467440737095516150", "interaction-y", " 7"} {
		if r.has(id) {
			t.Errorf("%q found, never added", id)
		}
	}
	if r.len() != len(added) {
		t.Errorf("%d IDs held, want %d", r.len(), len(added))
	}
	// Past the cap the oldest goes, of each kind: two numbers were added
	// (2⁶⁴-1 is kept as a string), and four strings.
	for i := range recentCap - 1 {
		r.add(strconv.Itoa(1000 + i))
	}
	for i := range recentCap - 3 {
		r.add("id" + strconv.Itoa(i))
	}
	if r.has("7") || !r.has("1180000000000000001") || r.has("interaction-x") || !r.has("") || r.len() != 2*recentCap {
		t.Errorf("past the cap: has 7 %v, has the snowflake %v, has interaction-x %v, has \"\" %v, %d held",
			r.has("7"), r.has("1180000000000000001"), r.has("interaction-x"), r.has(""), r.len())
	}
}

// TestNumSetIsASet: numSet answers as a map does through adds and removes
// at recentIDs' load, keys crowded into few homes included (so that
// removals shift long runs back).
func TestNumSetIsASet(t *testing.T) {
	var s numSet
	model := map[uint64]bool{}
	rng := rand.New(rand.NewPCG(3, 5))
	var keys []uint64
	for range 2 * recentCap {
		switch k := rng.Uint64(); {
		case len(keys) == 0:
			keys = append(keys, 0, 1<<64-2)
		case rng.IntN(64) != 0:
			keys = append(keys, k)
		default: // one of the keys whose homes are the table's last slots: runs wrap around
			keys = append(keys, k)
			for s.home(k+1) < numSetSlots-8 {
				k = rng.Uint64()
			}
			keys[len(keys)-1] = k
		}
	}
	for step := range 100000 {
		k := keys[rng.IntN(len(keys))]
		if len(model) < recentCap && rng.IntN(2) == 0 {
			s.add(k)
			model[k] = true
		} else {
			s.remove(k)
			delete(model, k)
		}
		if s.has(k) != model[k] || s.n != len(model) {
			t.Fatalf("step %d, key %d: has %v, want %v; %d held, want %d", step, k, s.has(k), model[k], s.n, len(model))
		}
		if step%10000 == 0 {
			for _, k := range keys {
				if s.has(k) != model[k] {
					t.Fatalf("step %d, key %d: has %v, want %v", step, k, s.has(k), model[k])
				}
			}
		}
	}
}

// TestSnowflakeKeyIsStrconv: an ID has a key exactly when strconv writes
// that key as the ID.
func TestSnowflakeKeyIsStrconv(t *testing.T) {
	for _, id := range []string{"0", "1", "9", "10", "00", "01", "1180000000000000001", "18446744073709551615",
		"18446744073709551616", "99999999999999999999", "100000000000000000000", "", "-1", "+1", "1e3", "1_0", "12a", "a12", "١٢"} {
		n, ok := snowflakeKey(id)
		u, err := strconv.ParseUint(id, 10, 64)
		want := err == nil && strconv.FormatUint(u, 10) == id
		if ok != want || ok && (n != u || strconv.FormatUint(n, 10) != id) {
			t.Errorf("snowflakeKey(%q) = %d, %v; strconv: %d, %v", id, n, ok, u, err)
		}
	}
}

func FuzzSnowflakeKey(f *testing.F) {
	f.Add("1180000000000000001")
	f.Add("007")
	f.Fuzz(func(t *testing.T, id string) {
		n, ok := snowflakeKey(id)
		if ok != (strconv.FormatUint(n, 10) == id) {
			t.Fatalf("snowflakeKey(%q) = %d, %v", id, n, ok)
		}
	})
}

// BenchmarkRecentIDs is a sole writer's bookkeeping for one request, with
// the set full: is the ID a duplicate (a fresh one is not), and then note
// it, forgetting the oldest.
func BenchmarkRecentIDs(b *testing.B) {
	var r recentIDs
	id := uint64(1180000000000000000)
	ids := make([]string, 4*recentCap) // each forgotten before it comes again
	for i := range ids {
		id += 4096
		ids[i] = strconv.FormatUint(id, 10)
	}
	for _, s := range ids[:recentCap] {
		r.add(s)
	}
	b.ReportAllocs()
	i := recentCap
	for b.Loop() {
		s := ids[i%len(ids)]
		if !r.has(s) {
			r.add(s)
		}
		i++
	}
}
