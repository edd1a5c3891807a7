package httpapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/tttbot/tttbot/internal/testkit"
)

// read is what the bot reads of an interaction (see wireInteraction).
type read struct {
	ID, AppID, Token, GuildID, ChannelID string
	Type                                 discordgo.InteractionType
	Locale, GuildLocale                  string
	HasGuildLocale, HasMember            bool
	MemberUser, User                     string
	HasMemberUser, HasUser               bool
	HasMessage                           bool
	Message                              string // its ID
	Permissions                          int64
	AppPermissions                       int64
	Owners                               map[discordgo.ApplicationIntegrationType]string
	Nick, Username, GlobalName           string // the member's, or the DM user's
	Data                                 discordgo.InteractionData
}

func readOf(i *discordgo.Interaction) read {
	r := read{ID: i.ID, AppID: i.AppID, Token: i.Token, GuildID: i.GuildID, ChannelID: i.ChannelID, Type: i.Type, Locale: string(i.Locale), Data: i.Data,
		AppPermissions: i.AppPermissions, Owners: i.AuthorizingIntegrationOwners}
	if i.GuildLocale != nil {
		r.HasGuildLocale, r.GuildLocale = true, string(*i.GuildLocale)
	}
	if i.Member != nil {
		r.HasMember, r.Permissions, r.Nick = true, i.Member.Permissions, i.Member.Nick
		if i.Member.User != nil {
			r.HasMemberUser, r.MemberUser = true, i.Member.User.ID
			r.Username, r.GlobalName = i.Member.User.Username, i.Member.User.GlobalName
		}
	}
	if i.User != nil {
		r.HasUser, r.User = true, i.User.ID
		r.Username, r.GlobalName = i.User.Username, i.User.GlobalName
	}
	if i.Message != nil {
		r.HasMessage, r.Message = true, i.Message.ID
	}
	return r
}

// pressOnBoard fills a component template for a press of a column button
// on a board reply with its rows of column buttons, as Discord sends it back.
func pressOnBoard(ch, user, customID string) map[string]any {
	var buttons []string
	for c := range 7 {
		buttons = append(buttons, fmt.Sprintf(`{"type":2,"style":2,"label":"%d","custom_id":"ttt:col:5:%d"}`, c, c))
	}
	content, _ := json.Marshal("**O** <@800000000000000002> played column 3 (row 0).\n```\n  0 1 2 3 4 5 6\n5 . . . . . . .\n4 . . . . . . .\n" +
		"3 . . . . . . .\n2 . . . . . . .\n1 . . . X . . .\n0 . . X[O]. . .\n```\nTurn: **X** <@800000000000000001>")
	f := testkit.ComponentFields(ch, user, customID)
	f["MessageContent"] = string(content)
	f["MessageComponents"] = `[{"type":1,"components":[` + strings.Join(buttons[:5], ",") + `]},{"type":1,"components":[` + strings.Join(buttons[5:], ",") + `]}]`
	return f
}

// payloads are interactions of every kind the bot serves, as Discord sends
// them.
func payloads(tb testing.TB) map[string][]byte {
	return map[string][]byte{
		"command": testkit.Raw(tb, "command.json", testkit.CommandFields(channel, alice, "new", 8192,
			[]testkit.Option{testkit.Opt("rows", 6), testkit.Opt("columns", 7), testkit.Opt("gravity", true), testkit.UserOpt("invite", bob, false)})),
		"command other locales": testkit.Raw(tb, "command.json", func() map[string]any {
			f := testkit.CommandFields(channel, bob, "move", 0, []testkit.Option{testkit.Opt("position", "3")})
			f["Locale"], f["GuildLocale"] = "de", "ja"
			return f
		}()),
		"dm command":   testkit.Raw(tb, "dm_command.json", testkit.CommandFields(channel, alice, "new", 0, nil)),
		"component":    testkit.Raw(tb, "component.json", pressOnBoard(channel, alice, "ttt:col:5:3")),
		"dm component": testkit.Raw(tb, "dm_component.json", pressOnBoard(channel, alice, "ttt:join:0")),
		"autocomplete": testkit.Raw(tb, "autocomplete.json", map[string]any{"Guild": "900000000000000001", "Channel": channel,
			"User": alice, "Permissions": "0", "Typed": "b"}),
		"ping": testkit.Raw(tb, "ping.json", nil),
	}
}

// TestDecodeKeepsWhatTheBotReads: the HTTP endpoint's decoding gives the
// bot what discordgo's own decoding (the gateway's) does.
func TestDecodeKeepsWhatTheBotReads(t *testing.T) {
	for name, body := range payloads(t) {
		var want discordgo.Interaction
		if err := json.Unmarshal(body, &want); err != nil {
			t.Fatalf("%s: discordgo: %v\n%s", name, err, body)
		}
		if name == "component" && (want.Message == nil || len(want.Message.Components) != 2) {
			t.Fatalf("component: the payload carries no board message")
		}
		got, _, err := decodeInteraction(body)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if g, w := readOf(got), readOf(&want); !reflect.DeepEqual(g, w) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, g, w)
		}
	}
}

// TestDecodeFromThread: the channel's type says whether the interaction
// was sent from a thread (discordgo's Interaction has no place for it).
func TestDecodeFromThread(t *testing.T) {
	for body, want := range map[string]bool{
		`{"type":2,"data":{},"channel":{"id":"1","type":11,"parent_id":"2"}}`: true,
		`{"type":2,"data":{},"channel":{"id":"1","type":12}}`:                 true,
		`{"type":2,"data":{},"channel":{"id":"1","type":10}}`:                 true,
		`{"type":2,"data":{},"channel":{"id":"1","type":0}}`:                  false,
		`{"type":2,"data":{},"channel":{"type":"11"}}`:                        false, // broken: skipped, as discordgo does
		`{"type":2,"data":{}}`:                                                false,
	} {
		_, got, err := decodeInteraction([]byte(body))
		if err != nil || got != want {
			t.Errorf("%s: from a thread %v (%v), want %v", body, got, err, want)
		}
	}
	if _, got, _ := decodeInteraction(payloads(t)["command"]); got {
		t.Error("the test kit's command, from a text channel, read as from a thread")
	}
}

// TestDecodeRefuses: what discordgo refuses in the fields the bot reads,
// decodeInteraction refuses too.
func TestDecodeRefuses(t *testing.T) {
	for _, body := range []string{
		``, `{`, `[]`, `"x"`, `{"type":2}`, `{"type":3}`, `{"type":2,"data":[]}`, `{"type":"2"}`, `{"id":5}`,
		`{"type":1,"member":{"permissions":"x"}}`, `{"type":1,"member":{"permissions":8}}`, `{"type":1,"user":{"id":1}}`,
		`{"type":2,"data":{"options":[{"type":"1"}]}}`, `{"type":1} trailing`,
	} {
		var full discordgo.Interaction
		if json.Unmarshal([]byte(body), &full) == nil {
			t.Errorf("%q: discordgo decodes it (fix the case)", body)
		}
		if _, _, err := decodeInteraction([]byte(body)); err == nil {
			t.Errorf("%q decoded", body)
		}
	}
}

// FuzzDecode: whatever discordgo decodes, decodeInteraction decodes to the
// same fields the bot reads (it may accept more: a broken field it skips).
func FuzzDecode(f *testing.F) {
	for _, body := range payloads(f) {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, _, err := decodeInteraction(body)
		var want discordgo.Interaction
		if json.Unmarshal(body, &want) != nil {
			return
		}
		if err != nil {
			t.Fatalf("discordgo decodes %q, decodeInteraction: %v", body, err)
		}
		if g, w := readOf(got), readOf(&want); !reflect.DeepEqual(g, w) {
			t.Fatalf("%q:\n got %+v\nwant %+v", body, g, w)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"command", "component"} {
		body := payloads(b)[name]
		b.Run(name+"/discordgo", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var i discordgo.Interaction
				if err := i.UnmarshalJSON(body); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/wire", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := decodeInteraction(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// readByTags is what wireInteraction.read stands in for: json.Unmarshal
// (the v1 API, encoding/json's rules) on wireInteraction's tags, and the
// channel's type read the same way, a channel that does not decode being
// no thread.
func readByTags(body []byte) (wireInteraction, bool, error) {
	var w struct {
		wireInteraction
		Channel jsonv1.RawMessage `json:"channel"`
	}
	if err := jsonv1.Unmarshal(body, &w); err != nil {
		return wireInteraction{}, false, err
	}
	fromThread := false
	if len(w.Channel) > 0 {
		var c struct {
			Type discordgo.ChannelType `json:"type"`
		}
		if jsonv1.Unmarshal(w.Channel, &c) == nil {
			fromThread = (&discordgo.Channel{Type: c.Type}).IsThread()
		}
	}
	return w.wireInteraction, fromThread, nil
}

// sameRead reports how read and readByTags differ on body ("" when they
// agree): both refuse it, or both fill the same fields and say the same of
// its channel, and the data readers decode its data as json.Unmarshal does.
func sameRead(body []byte) string {
	want, wantThread, wantErr := readByTags(body)
	var got wireInteraction
	gotThread, gotErr := got.read(body)
	switch {
	case (gotErr != nil) != (wantErr != nil):
		return fmt.Sprintf("read: %v, json.Unmarshal: %v", gotErr, wantErr)
	case wantErr != nil:
		return ""
	case gotThread != wantThread:
		return fmt.Sprintf("from a thread %v, json.Unmarshal says %v", gotThread, wantThread)
	case !reflect.DeepEqual(got, want):
		return fmt.Sprintf("read\n %+v\njson.Unmarshal\n %+v", got, want)
	}
	return sameData(got.Type, got.Data) // dataread_test.go
}

// readCases are bodies at the edges of encoding/json's rules for the
// fields read: names matched by case folding, duplicates, nulls, wrong
// kinds, ",string" numbers, escapes, invalid UTF-8.
var readCases = []string{
	``, `null`, `{}`, `[]`, `"x"`, `1`, `{} {}`, `{}x`, ` {} `, `{`, `{"id":"1"`, `{"id":}`,
	`{"id":"1","ID":"2"}`, `{"Id":"1"}`, `{"ıd":"1"}`, `{"\u0069d":"1"}`, `{"i\u0064":"1","id":null}`, `{"id":1}`, `{"id":["1"]}`, `{"id":{"x":1}}`,
	`{"id":"a\ud800b"}`, "{\"id\":\"a\xffb\"}", "{\"i\xffd\":\"1\"}", `{"id":"\u00e9\n"}`,
	`{"type":2}`, `{"type":255}`, `{"type":256}`, `{"type":-1}`, `{"type":1.0}`, `{"type":1e0}`, `{"type":"2"}`, `{"type":null}`, `{"type":true}`, `{"TYPE":3}`, `{"type":2,"type":3}`,
	`{"locale":"de","guild_locale":"ja"}`, `{"guild_locale":null}`, `{"guild_locale":"ja","guild_locale":null}`, `{"guild_locale":null,"guild_locale":"ja"}`, `{"guild_locale":1}`,
	`{"member":null}`, `{"member":{}}`, `{"member":[]}`, `{"member":"x"}`, `{"member":{"nick":null}}`, `{"member":{"nick":"n"}}`, `{"member":{"nick":"n"},"member":{"permissions":"8"}}`,
	`{"member":{"nick":"n"},"member":null}`, `{"member":{"user":{"id":"1","username":"u","global_name":"g","avatar":null}}}`, `{"member":{"user":null}}`, `{"member":{"user":{"id":1}}}`,
	`{"member":{"permissions":"8"}}`, `{"member":{"permissions":8}}`, `{"member":{"permissions":"x"}}`, `{"member":{"permissions":"null"}}`, `{"member":{"permissions":null}}`,
	`{"member":{"permissions":"-0"}}`, `{"member":{"permissions":"05"}}`, `{"member":{"permissions":"+5"}}`, `{"member":{"permissions":" 5"}}`, `{"member":{"permissions":"5 "}}`,
	`{"member":{"permissions":"1e3"}}`, `{"member":{"permissions":"1.0"}}`, `{"member":{"permissions":""}}`, `{"member":{"permissions":"9223372036854775808"}}`, `{"member":{"permissions":"\u0035"}}`,
	`{"member":{"permissions":"true"}}`, `{"member":{"permissions":"\"5\""}}`, `{"member":{"permissions":"nul"}}`,
	`{"app_permissions":"2248473465835073"}`, `{"app_permissions":"-1"}`, `{"app_permissions":[]}`,
	`{"user":{"id":"1"}}`, `{"user":{"id":"1"},"user":{"username":"u"}}`, `{"user":null}`, `{"user":{"id":"1"},"user":null}`, `{"user":5}`,
	`{"authorizing_integration_owners":{"0":"9"}}`, `{"authorizing_integration_owners":{}}`, `{"authorizing_integration_owners":null}`, `{"authorizing_integration_owners":{"1":null}}`,
	`{"authorizing_integration_owners":{"0":"9"},"authorizing_integration_owners":{"1":"8"}}`, `{"authorizing_integration_owners":{"0":"9"},"authorizing_integration_owners":null}`,
	`{"authorizing_integration_owners":{"x":"9"}}`, `{"authorizing_integration_owners":{"-1":"9"}}`, `{"authorizing_integration_owners":{"01":"9"}}`, `{"authorizing_integration_owners":{"+1":"9"}}`,
	`{"authorizing_integration_owners":{"1":"a","1":"b"}}`, `{"authorizing_integration_owners":{"1":5}}`, `{"authorizing_integration_owners":[]}`, `{"authorizing_integration_owners":{"18446744073709551616":"9"}}`,
	`{"message":{"id":"5","content":"x"}}`, `{"message":null}`, `{"message":{}}`, `{"message":{"id":5}}`, `{"message":{"id":"5"},"message":{"x":1}}`,
	`{"data":{"a":[1,2]}}`, `{"data":null}`, `{"data": {"a" : 1} }`, `{"data":1,"data":"x"}`, `{"DATA":[]}`,
	`{"channel":{"type":11}}`, `{"channel":{"type":0}}`, `{"channel":{"type":"11"}}`, `{"channel":{"type":11.0}}`, `{"channel":{"type":null}}`, `{"channel":null}`, `{"channel":5}`,
	`{"channel":[11]}`, `{"channel":{"type":11,"type":0}}`, `{"channel":{"type":0,"type":12}}`, `{"channel":{"type":"x","type":11}}`, `{"channel":{"TYPE":10}}`, `{"channel":{"type":11},"channel":{}}`,
	`{"channel":{"type":99999999999999999999}}`, `{"channel":{"type":11,"parent":{"type":0}}}`,
	`{"roles":[1,{"a":[]}],"id":"1"}`, `{"x":{"y":[{"z":null}]},"type":1}`, `{"x":[}`,
}

// TestReadAsUnmarshal holds the hand reader to json.Unmarshal on the
// payloads the bot serves and at the edges of the rules; FuzzRead looks
// further.
func TestReadAsUnmarshal(t *testing.T) {
	for name, body := range payloads(t) {
		if diff := sameRead(body); diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
	}
	for _, body := range readCases {
		if diff := sameRead([]byte(body)); diff != "" {
			t.Errorf("%s: %s", body, diff)
		}
	}
}

func FuzzRead(f *testing.F) {
	for _, body := range payloads(f) {
		f.Add(body)
	}
	for _, body := range readCases {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if diff := sameRead(body); diff != "" {
			t.Fatalf("%q: %s", body, diff)
		}
	})
}
