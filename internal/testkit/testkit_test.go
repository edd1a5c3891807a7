package testkit

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func TestSignerSignsAsDiscord(t *testing.T) {
	s := NewSigner("testkit test seed")
	body := []byte(`{"type":1}`)
	at := time.Unix(1_800_000_000, 0)
	r, _ := http.NewRequest(http.MethodPost, "/interactions", nil)
	s.Sign(r.Header, body, at)
	sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
	if err != nil || r.Header.Get("X-Signature-Timestamp") != strconv.FormatInt(at.Unix(), 10) {
		t.Fatalf("headers %v (%v)", r.Header, err)
	}
	if !ed25519.Verify(s.Public, append([]byte(r.Header.Get("X-Signature-Timestamp")), body...), sig) {
		t.Fatal("the signature does not verify")
	}
	if other := NewSigner("another seed"); ed25519.Verify(other.Public, append([]byte(r.Header.Get("X-Signature-Timestamp")), body...), sig) {
		t.Fatal("another key verifies the signature")
	}
	if pub, _ := hex.DecodeString(s.PublicHex()); !slices.Equal(pub, s.Public) {
		t.Fatalf("PublicHex %s", s.PublicHex())
	}
}

// TestPayloadsDecode: every template, filled as the helpers fill it, is an
// interaction discordgo decodes, of the type its name says.
func TestPayloadsDecode(t *testing.T) {
	press := ComponentFields(Channel, Bob, "ttt:col:5:3")
	press["MessageContent"], press["MessageComponents"] = `"a board"`, `[{"type":1,"components":[{"type":2,"style":2,"label":"3","custom_id":"ttt:col:5:3"}]}]`
	for _, tc := range []struct {
		file   string
		fields map[string]any
		typ    discordgo.InteractionType
	}{
		{"command.json", CommandFields(Channel, Alice, "new", 0, []Option{Opt("rows", 4), Opt("gravity", true), Opt("position", "1,1"), UserOpt("opponent", Bob, true)}), discordgo.InteractionApplicationCommand},
		{"dm_command.json", CommandFields(Channel, Alice, "new", 0, nil), discordgo.InteractionApplicationCommand},
		{"component.json", ComponentFields(Channel, Bob, "ttt:cell:1:1:1"), discordgo.InteractionMessageComponent},
		{"component.json", press, discordgo.InteractionMessageComponent},
		{"dm_component.json", ComponentFields(Channel, Bob, "ttt:join:0"), discordgo.InteractionMessageComponent},
		{"autocomplete.json", map[string]any{"Guild": Guild, "Channel": Channel, "User": Alice, "Permissions": "0", "Typed": "1"}, discordgo.InteractionApplicationCommandAutocomplete},
		{"ping.json", nil, discordgo.InteractionPing},
	} {
		i := Interaction(t, tc.file, tc.fields)
		if i.Type != tc.typ {
			t.Errorf("%s: type %v, want %v", tc.file, i.Type, tc.typ)
		}
	}
	i := Interaction(t, "command.json", CommandFields(Channel, Alice, "new", 0, []Option{UserOpt("opponent", Bob, true)}))
	if u := i.ApplicationCommandData().Resolved.Users[Bob]; u == nil || !u.Bot {
		t.Errorf("the opponent is not resolved as a bot: %+v", u)
	}
	p := Interaction(t, "component.json", press)
	if p.Message == nil || p.Message.Content != "a board" || len(p.Message.Components) != 1 {
		t.Errorf("the press does not carry its message: %+v", p.Message)
	}
	if _, err := Payload("nothing.json", nil); err == nil {
		t.Error("a payload that does not exist rendered")
	}
	broken := CommandFields(Channel, Alice, "new", 0, nil)
	broken["Options"] = "[" // a field that breaks the JSON
	if body, err := Payload("command.json", broken); err == nil {
		t.Errorf("a payload that is not JSON rendered: %s", body)
	}
	if body := Raw(t, "ping.json", nil); bytes.ContainsAny(body, " \n") {
		t.Errorf("a payload with white space, which Discord does not send: %s", body)
	}
}

func TestDockerBuildFlags(t *testing.T) {
	env, flags, err := dockerBuild("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(env, []string{"CGO_ENABLED=0"}) || !slices.Contains(flags, "-ldflags=-s -w") {
		t.Fatalf("env %q, flags %q", env, flags)
	}
	if got := shellFields(`-trimpath  -ldflags="-s -w" -tags "a b"`); !slices.Equal(got, []string{"-trimpath", "-ldflags=-s -w", "-tags", "a b"}) {
		t.Fatalf("shellFields: %q", got)
	}
}
