package progress

import (
	"sync"
	"time"

	"github.com/tttbot/tttbot/puzzle"
)

// A person who has met every pool puzzle of a kind and difficulty gets one
// made on demand (puzzle.Pick past the pool). Making one usually takes a
// tenth of a second but may take up to puzzle.OnDemandBudget, longer than
// Discord waits for a reply, so it is never done while a person waits: each process
// keeps a few spares a kind and difficulty, made in the background, and a
// person who finds none is told to ask again in a moment while the next is
// made. Spares are fresh self-play positions, so they are new to almost
// everyone; one a person has met is passed over.

// sparesKept is how many spares are kept ready for each kind and
// difficulty.
const sparesKept = 2

// spares are the puzzles this process made in the background, by slot.
type spares struct {
	mu     sync.Mutex
	ready  map[string][]puzzle.Puzzle
	making map[string]bool
	seed   uint64         // varies the self-play of each puzzle made
	wg     sync.WaitGroup // the makers running
}

// take returns a spare of kind k and difficulty d that seen says is new,
// removing it, and has the next one made.
func (s *spares) take(k puzzle.Kind, d puzzle.Difficulty, seen func(id string) bool) (puzzle.Puzzle, bool) {
	slot := slotOf(k, d)
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.fill(k, d)
	for i, p := range s.ready[slot] {
		if !seen(p.ID) {
			s.ready[slot] = append(s.ready[slot][:i:i], s.ready[slot][i+1:]...)
			return p, true
		}
	}
	return puzzle.Puzzle{}, false
}

// fill starts making a spare of kind k and difficulty d unless enough are
// ready or one is being made. s.mu is held.
func (s *spares) fill(k puzzle.Kind, d puzzle.Difficulty) {
	slot := slotOf(k, d)
	if s.making[slot] || len(s.ready[slot]) >= sparesKept {
		return
	}
	if s.ready == nil {
		s.ready, s.making = map[string][]puzzle.Puzzle{}, map[string]bool{}
	}
	s.making[slot] = true
	s.seed++
	seed := s.seed ^ uint64(time.Now().UnixNano()) // a duration's clock: only varies the games
	s.wg.Go(func() {
		// Pick past the pool: self-play, else a turned or mirrored image
		// of a pool puzzle, within puzzle.OnDemandBudget.
		p, err := puzzle.Pick(k, d, func(id string) bool { return inPool(k, d, id) || s.has(slot, id) }, seed)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.making[slot] = false
		if err == nil {
			s.ready[slot] = append(s.ready[slot], p)
			s.fill(k, d) // the next; after a failure, only the next take tries again
		}
	})
}

// has reports whether a spare of slot is puzzle id.
func (s *spares) has(slot, id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.ready[slot] {
		if p.ID == id {
			return true
		}
	}
	return false
}

// inPool reports whether puzzle id is in the pool of kind k and
// difficulty d: a person out of pool puzzles has met it.
func inPool(k puzzle.Kind, d puzzle.Difficulty, id string) bool {
	for _, p := range puzzle.Pool(k, d) {
		if p.ID == id {
			return true
		}
	}
	return false
}

// pick is puzzle.Pick without the wait: a pool puzzle the person has not
// met, else a spare, else ErrNoPuzzle while one is being made.
func (k *Keeper) pick(kind puzzle.Kind, d puzzle.Difficulty, seen func(id string) bool, seed uint64) (puzzle.Puzzle, error) {
	for _, p := range puzzle.Pool(kind, d) {
		if !seen(p.ID) { // Pick will take one of these, shuffled by seed, at once
			return puzzle.Pick(kind, d, seen, seed)
		}
	}
	if p, ok := k.spares.take(kind, d, seen); ok {
		return p, nil
	}
	return puzzle.Puzzle{}, ErrNoPuzzle
}

// Wait waits for the puzzles being made in the background: in tests, and
// at shutdown. Making goes on while spares are wanted, so call it once no
// more requests come.
func (k *Keeper) Wait() { k.spares.wg.Wait() }
