package bot

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tttbot/tttbot/game"
)

// history is a game's move list as the store keeps it: one compact string,
// "seat.row.col" for a placement and "seat!" for a resignation, separated by
// spaces ("0.1.1 1.0.0 1!"). The table is rewritten on every move, so the
// encoding's cost is paid per move: a string is about ten times cheaper to
// write than a JSON object per move, and it stays readable in a database.
type history []game.Move

// MarshalJSON implements json.Marshaler.
func (h history) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2+len(h)*8)
	b = append(b, '"')
	for i, m := range h {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(m.Player), 10)
		if m.Kind == game.Resign {
			b = append(b, '!')
			continue
		}
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(m.At.Row), 10)
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(m.At.Col), 10)
	}
	return append(b, '"'), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (h *history) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	fields := strings.Fields(s)
	out := make(history, 0, len(fields))
	for _, f := range fields {
		if p, ok := strings.CutSuffix(f, "!"); ok {
			n, err := strconv.Atoi(p)
			if err != nil {
				return fmt.Errorf("history: bad resignation %q", f)
			}
			out = append(out, game.Move{Kind: game.Resign, Player: n})
			continue
		}
		parts := strings.Split(f, ".")
		if len(parts) != 3 {
			return fmt.Errorf("history: bad move %q", f)
		}
		var nums [3]int
		for i, p := range parts {
			n, err := strconv.Atoi(p)
			if err != nil {
				return fmt.Errorf("history: bad move %q", f)
			}
			nums[i] = n
		}
		out = append(out, game.Move{Kind: game.Place, Player: nums[0], At: game.Coord{Row: nums[1], Col: nums[2]}})
	}
	*h = out
	return nil
}
