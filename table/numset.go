package table

// numSet is a set of uint64 (all but the largest) for recentIDs'
// snowflakes: open addressing
// with linear probing over twice as many slots as it may hold, and
// deletion by shifting the entries after a freed slot back (Knuth's
// Algorithm R) rather than by tombstones. recentIDs deletes one ID for
// every one it adds; a table with tombstones (Go's map) fills with them
// between rehashes, and a lookup of an ID that is not there, which every
// fresh request makes, probes through them. Here it stops at the first
// empty slot, at most half the slots being taken.
type numSet struct {
	slots []uint64 // key+1; 0 is empty
	n     int
}

// numSetSlots is the table's size for recentCap keys: a power of two, at
// least twice recentCap.
const numSetSlots = 2 * recentCap

func (s *numSet) home(slot uint64) int {
	// Fibonacci hashing: a snowflake's low bits (a sequence number) and high
	// bits (a timestamp) both spread over the table.
	return int((slot * 0x9E3779B97F4A7C15) >> (64 - numSetBits))
}

// numSetBits is log2(numSetSlots).
const numSetBits = 14

// find returns the slot that holds k, or the empty slot where it would go.
func (s *numSet) find(k uint64) (i int, found bool) {
	want := k + 1
	mask := len(s.slots) - 1
	for i = s.home(want); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case want:
			return i, true
		case 0:
			return i, false
		}
	}
}

func (s *numSet) has(k uint64) bool {
	if s.slots == nil {
		return false
	}
	_, found := s.find(k)
	return found
}

// add puts k in the set; the set must hold fewer than recentCap keys.
func (s *numSet) add(k uint64) {
	if s.slots == nil {
		s.slots = make([]uint64, numSetSlots)
	}
	if i, found := s.find(k); !found {
		s.slots[i] = k + 1
		s.n++
	}
}

func (s *numSet) remove(k uint64) {
	if s.slots == nil {
		return
	}
	i, found := s.find(k)
	if !found {
		return
	}
	s.n--
	mask := len(s.slots) - 1
	for j := i; ; {
		s.slots[i] = 0
		for {
			j = (j + 1) & mask
			if s.slots[j] == 0 {
				return
			}
			// The entry at j stays unless its home is cyclically outside
			// (i, j]: then the hole at i would cut it off from its home.
			h := s.home(s.slots[j])
			if i <= j && (i < h && h <= j) || i > j && (i < h || h <= j) {
				continue
			}
			s.slots[i] = s.slots[j]
			i = j
			break
		}
	}
}
