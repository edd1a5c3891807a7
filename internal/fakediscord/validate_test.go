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
		{"CardValid", checkMessage([]byte(card(`{"type":10,"content":"**X** to move"},{"type":12,"items":[{"media":{"url":"attachment://board.png"}}]},`+buttons(1))), map[string]string{"0": "board.png"}), ""},
		{"CardAt40", checkMessage([]byte(card(strings.Repeat(`{"type":10,"content":"x"},`, 3)+buttons(6))), nil), ""},
		{"CardEditWithoutFiles", checkMessage([]byte(card(`{"type":10,"content":"x"}`)), nil), ""},
		{"CardNullContent", checkMessage([]byte(`{"content":null,"embeds":null,"flags":32768,"components":[{"type":10,"content":"x"}]}`), nil), ""},
		{"CardWithContent", checkMessage([]byte(`{"content":"","flags":32768,"components":[{"type":10,"content":"x"}]}`), nil), "content beside"},
		{"CardWithEmbeds", checkMessage([]byte(`{"embeds":[{"title":"x"}],"flags":32768,"components":[{"type":10,"content":"x"}]}`), nil), "embeds beside"},
		{"CardOver40", checkMessage([]byte(card(strings.Repeat(`{"type":10,"content":"x"},`, 4)+buttons(6))), nil), "41 components counting nested"},
		{"CardTextOver4000", checkMessage([]byte(card(`{"type":10,"content":"`+strings.Repeat("x", 2500)+`"},{"type":10,"content":"`+strings.Repeat("y", 1501)+`"}`)), nil), "4001 characters across"},
		{"CardEmptyText", checkMessage([]byte(card(`{"type":10,"content":""}`)), nil), "text display of 0"},
		{"CardNestedContainer", checkMessage([]byte(card(`{"type":17,"components":[{"type":10,"content":"x"}]}`)), nil), "container in a container"},
		{"CardAccent", checkMessage([]byte(`{"flags":32768,"components":[{"type":17,"accent_color":16777216,"components":[{"type":10,"content":"x"}]}]}`), nil), "accent_color"},
		{"CardUnknownField", checkMessage([]byte(`{"flags":32768,"components":[{"type":17,"colour":1,"components":[{"type":10,"content":"x"}]}]}`), nil), "unknown field"},
		{"CardGalleryNamesNoFile", checkMessage([]byte(card(`{"type":12,"items":[{"media":{"url":"attachment://other.png"}}]}`)), map[string]string{"0": "board.png"}), "names no file"},
		{"CardEmptyGallery", checkMessage([]byte(card(`{"type":12,"items":[]}`)), nil), "gallery of 0 items"},
		{"V2ComponentsWithoutFlag", checkMessage([]byte(`{"components":[{"type":17,"components":[{"type":10,"content":"x"}]}]}`), nil), "not an action row"},
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

// card is a Components V2 message of one container holding inner, with an
// attachment board.png as files[0].
func card(inner string) string {
	return `{"flags":32768,"allowed_mentions":{"parse":[]},"attachments":[{"id":"0","filename":"board.png"}],"components":[{"type":17,"accent_color":2062260,"spoiler":false,"components":[` + inner + `]}]}`
}

// buttons is n action rows of five buttons each.
func buttons(n int) string {
	row := `{"type":1,"components":[` + strings.TrimSuffix(strings.Repeat(`{"type":2,"style":2,"label":"1","custom_id":"ttt:col:1.0:1"},`, 5), ",") + `]}`
	return strings.TrimSuffix(strings.Repeat(row+",", n), ",")
}
