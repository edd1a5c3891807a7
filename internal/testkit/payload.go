package testkit

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"text/template"

	"github.com/bwmarrin/discordgo"
)

// Users and places the payloads act in.
const (
	Guild   = "900000000000000001"
	Channel = "910000000000000001"
	Alice   = "800000000000000001"
	Bob     = "800000000000000002"
	Carol   = "800000000000000003"
	Mod     = "800000000000000009"
)

// payloads are interactions as Discord sends them, templates whose fields a
// test or the load tool fills (see CommandFields and ComponentFields).
//
//go:embed payloads/*.json
var payloads embed.FS

// Option is one slash-command option as Discord sends it.
type Option struct {
	Type  discordgo.ApplicationCommandOptionType `json:"type"`
	Name  string                                 `json:"name"`
	Value any                                    `json:"value"`
	Bot   bool                                   `json:"-"` // a user option's resolved user is a bot account
}

// Opt builds an option, its type following the Go value.
func Opt(name string, v any) Option {
	switch v.(type) {
	case int:
		return Option{Type: discordgo.ApplicationCommandOptionInteger, Name: name, Value: v}
	case bool:
		return Option{Type: discordgo.ApplicationCommandOptionBoolean, Name: name, Value: v}
	}
	return Option{Type: discordgo.ApplicationCommandOptionString, Name: name, Value: v}
}

// UserOpt is a user option; isBot marks the resolved user as a bot account.
func UserOpt(name, id string, isBot bool) Option {
	return Option{Type: discordgo.ApplicationCommandOptionUser, Name: name, Value: id, Bot: isBot}
}

var templates sync.Map // file name → *template.Template

// Payload renders payloads/file with fields: the bytes Discord sends.
func Payload(file string, fields map[string]any) ([]byte, error) {
	t, ok := templates.Load(file)
	if !ok {
		raw, err := payloads.ReadFile("payloads/" + file)
		if err != nil {
			return nil, err
		}
		parsed, err := template.New(file).Parse(string(raw))
		if err != nil {
			return nil, err
		}
		t, _ = templates.LoadOrStore(file, parsed)
	}
	var filled, compact bytes.Buffer
	if err := t.(*template.Template).Execute(&filled, fields); err != nil {
		return nil, err
	}
	// Discord sends JSON without white space; a template that fills to
	// something else than JSON fails here.
	if err := json.Compact(&compact, filled.Bytes()); err != nil {
		return nil, fmt.Errorf("%s does not fill to JSON: %v", file, err)
	}
	return compact.Bytes(), nil
}

// Failer is the part of testing.TB the helpers here use, so that the load
// tool, a command, can use this package without linking testing.
type Failer interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Raw is Payload for a test: a failure ends it.
func Raw(tb Failer, file string, fields map[string]any) []byte {
	tb.Helper()
	raw, err := Payload(file, fields)
	if err != nil {
		tb.Fatalf("payload %s: %v", file, err)
	}
	return raw
}

// Interaction renders payloads/file and decodes it as discordgo does (the
// gateway's decoding).
func Interaction(tb Failer, file string, fields map[string]any) *discordgo.Interaction {
	tb.Helper()
	raw := Raw(tb, file, fields)
	var i discordgo.Interaction
	if err := json.Unmarshal(raw, &i); err != nil {
		tb.Fatalf("%s: %v\n%s", file, err, raw)
	}
	return &i
}

// CommandFields fills command.json (or dm_command.json): /ttt sub with opts,
// by user in channel ch, with the member's permissions perms. A sub of two
// words ("tournament new") is a subcommand of a group. Every user option's
// user is resolved, as Discord does.
func CommandFields(ch, user, sub string, perms int64, opts []Option) map[string]any {
	optJSON, _ := json.Marshal(opts)
	if opts == nil {
		optJSON = []byte("[]")
	}
	group, inGroup, grouped := strings.Cut(sub, " ")
	if grouped {
		sub = inGroup
	} else {
		group = ""
	}
	fields := map[string]any{"ID": "1180000000000000001", "Guild": Guild, "Channel": ch, "User": user, "Group": group, "Sub": sub, "Options": string(optJSON), "Permissions": fmt.Sprint(perms)}
	users := map[string]any{}
	for _, o := range opts {
		if o.Type == discordgo.ApplicationCommandOptionUser {
			users[o.Value.(string)] = map[string]any{"id": o.Value, "username": "someone", "discriminator": "0", "bot": o.Bot}
		}
	}
	if len(users) > 0 {
		res, _ := json.Marshal(map[string]any{"users": users})
		fields["Resolved"] = string(res)
	}
	return fields
}

// ComponentFields fills component.json (or dm_component.json): user presses
// the button customID in channel ch. The message the button sits on says
// "(the board message)" and has no components unless the fields
// MessageContent (a JSON string) and MessageComponents (a JSON array) say
// what it holds, as the bot sent it.
func ComponentFields(ch, user, customID string) map[string]any {
	return map[string]any{"ID": "1180000000000000002", "Guild": Guild, "Channel": ch, "User": user, "CustomID": customID}
}
