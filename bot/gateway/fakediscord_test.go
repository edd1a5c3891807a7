package gateway

import (
	"testing"

	"github.com/tttbot/tttbot/internal/fakediscord"
)

// fakeDiscord is the shared fake Discord (internal/fakediscord): the REST
// API and gateway the real discordgo Session talks to on 127.0.0.1.
type fakeDiscord struct{ *fakediscord.Server }

func newFakeDiscord(tb testing.TB) *fakeDiscord { return &fakeDiscord{fakediscord.New(tb)} }

// callback is one interaction reply the bot sent.
type callback struct{ fakediscord.Callback }

func (f *fakeDiscord) apiURL() string               { return f.APIURL() }
func (f *fakeDiscord) waitReady()                   { f.WaitReady() }
func (f *fakeDiscord) drop()                        { f.Drop() }
func (f *fakeDiscord) registered() []string         { return f.Registered() }
func (f *fakeDiscord) interact(raw []byte) callback { return callback{f.Interact(raw)} }

func (c callback) buttons() map[string]string { return c.Buttons() }
func (c callback) kind() int                  { return c.Kind() }
func (c callback) content() (string, bool)    { return c.Content() }
func (c callback) button(tb testing.TB, suffix string) string {
	tb.Helper()
	return c.Button(tb, suffix)
}
