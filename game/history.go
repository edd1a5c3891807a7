package game

import (
	"fmt"
	"strings"
)

// History is a game's moves in order, as stored: Record notation, one move a
// word, separated by single spaces ("0.1.1 1.0.0 1!"). Its text form is the
// stored format byte for byte, so games stored by earlier versions still load.
type History []Move

// MarshalText implements encoding.TextMarshaler.
func (h History) MarshalText() ([]byte, error) {
	return h.AppendText(make([]byte, 0, len(h)*8))
}

// AppendText implements encoding.TextAppender: it appends what MarshalText
// returns to b, for an encoder that writes into a buffer of its own. It
// never fails.
func (h History) AppendText(b []byte) ([]byte, error) {
	for i, m := range h {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendRecord(b, m)
	}
	return b, nil
}

// UnmarshalText implements encoding.TextUnmarshaler. Errors match
// ErrBadPosition.
func (h *History) UnmarshalText(text []byte) error {
	fields := strings.Fields(string(text))
	out := make(History, 0, len(fields))
	for _, f := range fields {
		m, err := Record{}.Decode(nil, f)
		if err != nil {
			return fmt.Errorf("history: %w", err)
		}
		out = append(out, m)
	}
	*h = out
	return nil
}
