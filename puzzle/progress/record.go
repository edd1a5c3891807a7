package progress

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/puzzle"
	"github.com/tttbot/tttbot/rating"
)

// Bounds that keep a record small: it is read and written whole on every
// press.
const (
	// maxSpent is how many spent puzzles a record keeps (the oldest go
	// first). A person who has done more puzzles than this could meet
	// one of their oldest again as a counted try; the pool is bigger than
	// anyone's patience long before that matters.
	maxSpent = 2000
	// maxRecent is how many interaction IDs a record keeps to refuse
	// replays: a replay comes within seconds, long before this many other
	// presses.
	maxRecent = 16
)

// recordKey is the store key of user's record; no channel ID (a number)
// can take it.
func recordKey(user string) string { return "puzzle:" + user }

// Record is one person's puzzle record.
type Record struct {
	// Tries is how many tries the person has started: the number of the
	// newest, which its buttons carry.
	Tries int `json:"tries"`
	// Open are the person's current tries, one a slot (a kind's daily
	// puzzle, or a kind and difficulty): the one being played, or the last
	// one finished there until the slot's next try replaces it.
	Open []Attempt `json:"open,omitempty"`
	// Spent are the puzzles whose counted try is over (solved, failed or
	// abandoned), oldest first, at most maxSpent, each as spentKey writes
	// it: a later try at one is practice.
	Spent []string `json:"spent,omitempty"`
	// Solved counts the puzzles solved on their counted try.
	Solved int `json:"solved,omitempty"`
	// Streak is the run of consecutive UTC days, ending on LastDaily, on
	// which the person solved that day's daily puzzle; Best the longest
	// run ever.
	Streak    int    `json:"streak,omitempty"`
	Best      int    `json:"best,omitempty"`
	LastDaily string `json:"last_daily,omitempty"` // a day as dayFormat writes it
	// Rating is the person's puzzle rating (zero until their first counted
	// try ends); Rated counts the tries that moved it.
	Rating rating.Rating `json:"rating,omitzero"`
	Rated  int           `json:"rated,omitempty"`
	// Recent are the IDs of the last interactions applied, newest last:
	// a replay of one is refused.
	Recent []string `json:"recent,omitempty"`
}

// Attempt is one try at a puzzle.
type Attempt struct {
	N    int    `json:"n"`    // the try's number in the person's record
	Slot string `json:"slot"` // see slotOf
	Day  string `json:"day,omitempty"`
	// Puzzle is the puzzle itself, so a try can be shown and judged
	// whatever the pool holds by then (a puzzle made on demand is in no
	// pool).
	Puzzle puzzle.Puzzle `json:"puzzle"`
	// Played are the moves made since the puzzle's position, the person's
	// and the solver's replies in turn, each where its token landed.
	Played []game.Coord `json:"played,omitempty"`
	// Counted says this try counts (the person's first at the puzzle).
	Counted bool `json:"counted,omitempty"`
	// Over is set once the try ended; Solved says how.
	Over   bool `json:"over,omitempty"`
	Solved bool `json:"solved,omitempty"`
	// Line is, once over, the solver's account: the whole winning line
	// when solved, the refutation when not.
	Line []game.Coord `json:"line,omitempty"`
}

// MovesLeft is how many moves of the person's own the try still needs to
// win: the puzzle's N less the moves they made.
func (a Attempt) MovesLeft() int { return a.Puzzle.WinIn - (len(a.Played)+1)/2 }

// Position is the puzzle's position with the try's moves played on it.
func (a Attempt) Position() (*game.Game, error) {
	g, err := a.Puzzle.Position()
	if err != nil {
		return nil, err
	}
	for _, c := range a.Played {
		if _, err := g.Play(g.Turn(), c); err != nil {
			return nil, fmt.Errorf("replay try %d of puzzle %s: %w", a.N, a.Puzzle.ID, err)
		}
	}
	return g, nil
}

// Daily reports whether the try is at a daily puzzle.
func (a Attempt) Daily() bool { return a.Day != "" }

// slotOf names the slot of a kind's daily puzzle (d "") or of a kind and
// difficulty.
func slotOf(k puzzle.Kind, d puzzle.Difficulty) string {
	if d == "" {
		return string(k) + "/daily"
	}
	return string(k) + "/" + string(d)
}

// decodeRecord reads a stored record (found=false: a new one).
func decodeRecord(data []byte, found bool) (Record, error) {
	var r Record
	if !found {
		return r, nil
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("decode puzzle record: %w", err)
	}
	return r, nil
}

// attempt returns the index of try n in r.Open, or -1.
func (r *Record) attempt(n int) int {
	return slices.IndexFunc(r.Open, func(a Attempt) bool { return a.N == n })
}

// inSlot returns the index of slot's try in r.Open, or -1.
func (r *Record) inSlot(slot string) int {
	return slices.IndexFunc(r.Open, func(a Attempt) bool { return a.Slot == slot })
}

// spentKey is how Spent keeps puzzle id: 48 bits of its FNV-1a hash in
// hex, 12 characters where an ID takes up to 50, so a long record stays a
// few tens of kilobytes. Two of a person's 2000 puzzles share a key with a
// chance of about one in a hundred million; the cost would be one puzzle
// shown as practice.
func spentKey(id string) string {
	h := fnv.New64a()
	h.Write([]byte(id))
	return strconv.FormatUint(h.Sum64()>>16, 16)
}

// spent reports whether a try at puzzle id would be practice: its counted
// try is over, or another slot holds a counted try at it.
func (r *Record) spent(id string, slot string) bool {
	if slices.Contains(r.Spent, spentKey(id)) {
		return true
	}
	return slices.ContainsFunc(r.Open, func(a Attempt) bool { return a.Puzzle.ID == id && a.Slot != slot && a.Counted })
}

// spend records that puzzle id's counted try is over.
func (r *Record) spend(id string) {
	key := spentKey(id)
	if slices.Contains(r.Spent, key) {
		return
	}
	r.Spent = append(r.Spent, key)
	if over := len(r.Spent) - maxSpent; over > 0 {
		r.Spent = slices.Delete(r.Spent, 0, over)
	}
}

// applied reports whether interaction id was applied to r before, and if
// not notes it.
func (r *Record) applied(id string) bool {
	if id == "" {
		return false
	}
	if slices.Contains(r.Recent, id) {
		return true
	}
	r.Recent = append(r.Recent, id)
	if over := len(r.Recent) - maxRecent; over > 0 {
		r.Recent = slices.Delete(r.Recent, 0, over)
	}
	return false
}

// put places a in its slot, replacing the slot's try. A counted try
// replaced before it ended spends its puzzle (see the package comment).
func (r *Record) put(a Attempt) {
	i := r.inSlot(a.Slot)
	if i < 0 {
		r.Open = append(r.Open, a)
		return
	}
	if old := r.Open[i]; old.Counted && !old.Over && old.Puzzle.ID != a.Puzzle.ID {
		r.spend(old.Puzzle.ID)
	}
	r.Open[i] = a
}

// RatingFigure is the person's puzzle rating as shown (rating.Display): a
// new solver's is a new player's.
func (r Record) RatingFigure() int {
	if r.Rated == 0 {
		return rating.Display(model().New())
	}
	return rating.Display(r.Rating)
}
