package table

// recentCap is how many delivery IDs a sole writer remembers: Discord
// retries an interaction within seconds, so the IDs of the last few
// thousand actions cover any retry that can still arrive.
const recentCap = 8192

// recentIDs is a bounded set of the most recent IDs added: past recentCap
// the oldest is forgotten. The zero value is empty and ready.
type recentIDs struct {
	ring []string
	next int // where the next ID goes once ring is full
	set  map[string]struct{}
}

func (r *recentIDs) has(id string) bool {
	_, ok := r.set[id]
	return ok
}

func (r *recentIDs) add(id string) {
	if r.has(id) {
		return
	}
	if r.set == nil {
		r.set = make(map[string]struct{}, recentCap)
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
