package sqlite

import (
	"github.com/tttbot/tttbot/store/internal/groupcommit"
	"github.com/tttbot/tttbot/table"
)

// maxWritten bounds written: past it an arbitrary channel is forgotten,
// and its next save writes as if nothing were known.
const maxWritten = 1 << 14

// written is what this store's writer last committed to each channel's
// row: the version and whether that save was an open game and had a clock
// deadline. A save from that version then knows what the row holds
// without reading it, and skips what would write nothing new: the DELETE
// of a deadline the row does not have (a statement every move of a game
// without a clock), and the rewrite of the channel's entry in the index of
// open games when open_game keeps its value (SQLite rewrites the entry of
// every index on a column an UPDATE sets, even to the same value: a WAL
// frame a commit).
//
// Knowing is exact, also beside other replicas: each version of a row is
// written once (by the compare-and-swap from the version before; rows are
// never deleted, and a restore replaces the file only once no store has it
// open), so when a save's swap from version v wins and this
// store wrote v, the row held what this store wrote. A save from any other
// version (another replica wrote last, or the channel was forgotten) writes
// everything, as without this. Only the writer goroutine uses it.
type written struct {
	m map[string]rowState
}

// rowState is what a committed save left in its channel's row.
type rowState struct {
	version  int64
	open     bool // open_game
	deadline bool // a clock_deadlines row
}

// prior is what save's row holds if its swap wins: known is false when
// this store did not write the version save was read at. A new table
// (version 0) is known: it has no row yet, so no deadline either
// (clock_deadlines rows reference a table's row).
func (w *written) prior(save table.Save) (s rowState, known bool) {
	if save.Version == 0 {
		return rowState{}, true
	}
	s, ok := w.m[save.Channel]
	return s, ok && s.version == save.Version
}

// committed notes the saves of ops that won their swap, once their COMMIT
// has succeeded.
func (w *written) committed(ops []*groupcommit.Op) {
	for _, op := range ops {
		if op.Kind == groupcommit.Save && op.Out.OK && op.Out.Err == nil {
			w.note(op.Save, op.Out.Version)
		}
	}
}

// note records that save, committed, left its row at version.
func (w *written) note(save table.Save, version int64) {
	if w.m == nil {
		w.m = make(map[string]rowState)
	}
	prev, ok := w.m[save.Channel]
	if ok && prev.version > version {
		return
	}
	if !ok && len(w.m) >= maxWritten {
		for ch := range w.m {
			delete(w.m, ch)
			break
		}
	}
	w.m[save.Channel] = rowState{version: version, open: save.Open, deadline: !save.Deadline.IsZero()}
}
