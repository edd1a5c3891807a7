package table

import "strconv"

// recentCap is how many delivery IDs a sole writer remembers: Discord
// retries an interaction within seconds, so the IDs of the last few
// thousand actions cover any retry that can still arrive.
const recentCap = 8192

// recentIDs is a bounded set of the most recent IDs added: past recentCap
// the oldest is forgotten. The zero value is empty and ready.
//
// Every request asks it twice, so Discord's IDs (snowflakes: decimal
// numbers) are kept as the numbers, in a numSet: one word to hash and
// compare, nothing for the garbage collector to scan, and no tombstones to
// probe through. Any other ID (none of Discord's) is kept as its string,
// apart, with a cap of its own.
type recentIDs struct {
	nums recentNums
	strs recentStrings
}

func (r *recentIDs) has(id string) bool {
	if n, ok := numericID(id); ok {
		return r.nums.set.has(n)
	}
	_, ok := r.strs.set[id]
	return ok
}

func (r *recentIDs) add(id string) {
	if n, ok := numericID(id); ok {
		r.nums.add(n)
	} else {
		r.strs.add(id)
	}
}

// len is how many IDs the set holds.
func (r *recentIDs) len() int { return r.nums.set.n + len(r.strs.set) }

// numericID is the number an ID written as a snowflake is kept as (all
// but 2⁶⁴-1, which numSet cannot hold).
func numericID(id string) (uint64, bool) {
	n, ok := snowflakeKey(id)
	return n, ok && n != 1<<64-1
}

// recentNums is the most recent recentCap snowflakes added.
type recentNums struct {
	ring []uint64
	next int // where the next key goes once ring is full
	set  numSet
}

func (r *recentNums) add(n uint64) {
	if r.set.has(n) {
		return
	}
	if len(r.ring) < recentCap {
		r.ring = append(r.ring, n)
	} else {
		r.set.remove(r.ring[r.next])
		r.ring[r.next] = n
		r.next = (r.next + 1) % recentCap
	}
	r.set.add(n)
}

// recentStrings is the most recent recentCap other IDs added.
type recentStrings struct {
	ring []string
	next int // where the next ID goes once ring is full
	set  map[string]struct{}
}

func (r *recentStrings) add(id string) {
	if _, ok := r.set[id]; ok {
		return
	}
	if r.set == nil {
		r.set = map[string]struct{}{}
	}
	if len(r.ring) < recentCap {
		r.ring = append(r.ring, id)
	} else {
		delete(r.set, r.ring[r.next])
		r.ring[r.next] = id
		r.next = (r.next + 1) % recentCap
	}
	r.set[id] = struct{}{}
}

// snowflakeKey returns the number id writes, when id is a number written
// the one way strconv.FormatUint writes it (no sign, no leading zero, at
// most 2⁶⁴-1), so that two IDs have one key only when they are the same
// string.
func snowflakeKey(id string) (uint64, bool) {
	if id == "" || id[0] == '0' && len(id) > 1 {
		return 0, false
	}
	n, err := strconv.ParseUint(id, 10, 64)
	return n, err == nil
}
