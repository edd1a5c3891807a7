package bot

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
)

// TestRequestLogLine: at debug level every interaction gets one line with
// its id, route, outcome and duration, whatever the outcome; at info none.
func TestRequestLogLine(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelDebug, slog.LevelInfo} {
		t.Run(level.String(), func(t *testing.T) {
			h := newHarness(t)
			var buf bytes.Buffer
			h.bot.log = slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: level}))
			h.as(alice, "new")
			h.as(alice, "move", opt("position", "9,9")) // off the board: refused
			var lines []map[string]any
			for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
				var m map[string]any
				if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == "interaction" {
					lines = append(lines, m)
				}
			}
			if level == slog.LevelInfo {
				if len(lines) != 0 {
					t.Errorf("request lines at info: %v", lines)
				}
				return
			}
			if len(lines) != 2 {
				t.Fatalf("want a line for each of 2 interactions, got:\n%s", buf.String())
			}
			for i, want := range []struct{ route, outcome string }{{"/ttt new", "accepted"}, {"/ttt move", "refused"}} {
				l := lines[i]
				if id, _ := l["interaction"].(string); id == "" || l["route"] != want.route || l["outcome"] != want.outcome || l["duration"] == nil {
					t.Errorf("line %d: %v, want route %s, outcome %s, an id and a duration", i, l, want.route, want.outcome)
				}
			}
		})
	}
}
