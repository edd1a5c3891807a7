// Package bottest holds what the bot's tests and its transports' tests share:
// raw Discord interaction payloads (testdata/*.json, templates filled per
// test) and the users and places they act in.
package bottest

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"text/template"

	"github.com/bwmarrin/discordgo"
)

// Users and places tests act in.
const (
	Guild   = "900000000000000001"
	Channel = "910000000000000001"
	Alice   = "800000000000000001"
	Bob     = "800000000000000002"
	Carol   = "800000000000000003"
	Mod     = "800000000000000009"
)

//go:embed testdata/*.json
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

var templates sync.Map // file → *template.Template

// Raw renders testdata/file with fields: the bytes Discord sends.
func Raw(tb testing.TB, file string, fields map[string]any) []byte {
	tb.Helper()
	t, ok := templates.Load(file)
	if !ok {
		raw, err := payloads.ReadFile("testdata/" + file)
		if err != nil {
			tb.Fatal(err)
		}
		t, _ = templates.LoadOrStore(file, template.Must(template.New(file).Parse(string(raw))))
	}
	var buf bytes.Buffer
	if err := t.(*template.Template).Execute(&buf, fields); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// Interaction renders testdata/file and decodes it the way both transports
// do.
func Interaction(tb testing.TB, file string, fields map[string]any) *discordgo.Interaction {
	tb.Helper()
	raw := Raw(tb, file, fields)
	var i discordgo.Interaction
	if err := json.Unmarshal(raw, &i); err != nil {
		tb.Fatalf("%s: %v\n%s", file, err, raw)
	}
	return &i
}

// CommandFields fills command.json's template: /ttt sub with opts, by user
// in channel ch, with the member's permissions perms.
func CommandFields(ch, user, sub string, perms int64, opts []Option) map[string]any {
	optJSON, _ := json.Marshal(opts)
	if opts == nil {
		optJSON = []byte("[]")
	}
	fields := map[string]any{"ID": "1180000000000000001", "Guild": Guild, "Channel": ch, "User": user, "Sub": sub, "Options": string(optJSON), "Permissions": fmt.Sprint(perms)}
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
