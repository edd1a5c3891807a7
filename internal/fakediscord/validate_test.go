package fakediscord

import (
	"strings"
	"testing"
)

// TestChecksFindBrokenBodies: each check passes a body as the bot sends it
// and names what breaks Discord's description in one that does not.
func TestChecksFindBrokenBodies(t *testing.T) {
	long := strings.Repeat("x", 101)
	cases := []struct {
		name  string
		errs  []string
		wants string // "" for a valid body
	}{
		{"ThreadValid", checkStartThread([]byte(`{"name":"Classic 3×3 · ann","type":11,"auto_archive_duration":1440}`)), ""},
		{"ThreadNoName", checkStartThread([]byte(`{"type":11}`)), "name is required"},
		{"ThreadLongName", checkStartThread([]byte(`{"name":"` + long + `"}`)), "name of 101 characters"},
		{"ThreadArchiveDuration", checkStartThread([]byte(`{"name":"a","auto_archive_duration":30}`)), "auto_archive_duration 30"},
		{"ThreadType", checkStartThread([]byte(`{"name":"a","type":0}`)), "type 0"},
		{"ThreadUnknownField", checkStartThread([]byte(`{"name":"a","topic":"x"}`)), "unknown field"},
		{"UpdateValid", checkThreadUpdate([]byte(`{"archived":true}`)), ""},
		{"UpdateUnknownField", checkThreadUpdate([]byte(`{"archive":true}`)), "unknown field"},
		{"MessageValid", checkMessage([]byte(`{"content":"hi","components":[{"type":1,"components":[{"type":2,"style":2,"label":"1","custom_id":"ttt:col:1.0:1"}]}],"allowed_mentions":{"parse":[],"users":["800000000000000001"]}}`), nil), ""},
		{"MessageContent", checkMessage([]byte(`{"content":"`+strings.Repeat("x", 2001)+`"}`), nil), "content of 2001"},
		{"MessageRowOfSix", checkMessage([]byte(`{"components":[{"type":1,"components":[`+strings.Repeat(`{"type":2,"style":2,"custom_id":"a"},`, 5)+`{"type":2,"style":2,"custom_id":"a"}]}]}`), nil), "action row of 6"},
		{"MessageCustomID", checkMessage([]byte(`{"components":[{"type":1,"components":[{"type":2,"style":2,"custom_id":"`+long+`"}]}]}`), nil), "custom_id"},
		{"MessageEmptyEmoji", checkMessage([]byte(`{"components":[{"type":1,"components":[{"type":2,"style":2,"custom_id":"a","emoji":{}}]}]}`), nil), "empty emoji"},
		{"MessageMentionParse", checkMessage([]byte(`{"allowed_mentions":{"parse":["here"]}}`), nil), "parse \"here\""},
		{"MessageMentionUser", checkMessage([]byte(`{"allowed_mentions":{"users":["bob"]}}`), nil), "allowed_mentions id"},
		{"MessageAttachmentWithoutFile", checkMessage([]byte(`{"attachments":[{"id":"0","filename":"board.png"}]}`), map[string]string{"1": "board.png"}), "names no files[0]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(c.errs, "; ")
			switch {
			case c.wants == "" && got != "":
				t.Fatalf("a valid body refused: %s", got)
			case c.wants != "" && !strings.Contains(got, c.wants):
				t.Fatalf("errors %q, want one saying %q", got, c.wants)
			}
		})
	}
}
