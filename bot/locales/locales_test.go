package locales

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// message is one entry of a locale file: its forms by CLDR plural category
// ("other" for a sentence that does not count).
type message map[string]string

// readFile parses a locale file the way translators write it: a key's value
// is a string, or an object of forms with an optional description.
func readFile(tb testing.TB, locale string) map[string]message {
	tb.Helper()
	buf, err := files.ReadFile(locale + ".json")
	if err != nil {
		tb.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(buf, &raw); err != nil {
		tb.Fatalf("%s.json: %v", locale, err)
	}
	out := map[string]message{}
	for key, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[key] = message{"other": s}
			continue
		}
		var m map[string]string
		if err := json.Unmarshal(v, &m); err != nil {
			tb.Fatalf("%s.json: %s: %v", locale, key, err)
		}
		delete(m, "description")
		out[key] = m
	}
	return out
}

var placeholderRE = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

// placeholders lists the named placeholders of every form of m.
func placeholders(m message) []string {
	set := map[string]bool{}
	for _, text := range m {
		for _, p := range placeholderRE.FindAllStringSubmatch(text, -1) {
			set[p[1]] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// sample fills every placeholder of m with its own name.
func sample(m message) Data {
	d := Data{}
	for _, p := range placeholders(m) {
		d[p] = "⟨" + p + "⟩"
	}
	return d
}

// TestLocaleFiles checks every locale file against en-US.json: the same
// keys, the same placeholders, templates that parse, and every plural form
// its language's CLDR rule picks for a whole number.
func TestLocaleFiles(t *testing.T) {
	if l := load(); len(l.broken) > 0 {
		t.Errorf("unreadable locale files: %v", l.broken)
	}
	en := readFile(t, Default)
	for _, locale := range Files() {
		t.Run(locale, func(t *testing.T) {
			file := readFile(t, locale)
			for _, key := range slices.Sorted(maps.Keys(en)) {
				m, ok := file[key]
				if !ok {
					t.Errorf("%s: missing (en-US: %q)", key, en[key]["other"])
					continue
				}
				if got, want := placeholders(m), placeholders(en[key]); !slices.Equal(got, want) {
					t.Errorf("%s: placeholders %v, en-US has %v", key, got, want)
				}
				for form, text := range m {
					if _, err := (sentenceParser{}).Parse(text, "", ""); err != nil {
						t.Errorf("%s.%s: %v", key, form, err)
					}
				}
			}
			for key := range file {
				if _, ok := en[key]; !ok {
					t.Errorf("%s: not in en-US.json (renamed or removed?)", key)
				}
			}
			// Through go-i18n itself, as the bot asks: every key says
			// something in this locale without an error (a missing plural
			// form is an error there), for counts 0–199. For Discord's
			// languages CLDR's integer rules look at n, n%10 and n%100
			// (and n%1000000, which only a million meets), so from 100 on
			// the forms repeat every hundred: 0–199 meets every form that
			// 0–1000 does, at a fifth of the time under -race.
			s := New(nil).For(locale)
			if s.Locale() != locale {
				t.Fatalf("For(%q) speaks %s", locale, s.Locale())
			}
			for key := range file {
				if _, plural := en[key]["one"]; !plural {
					_, tag, err := s.localize(&i18n.LocalizeConfig{MessageID: key, TemplateData: map[string]any(sample(en[key]))})
					if err != nil {
						t.Errorf("%s: %v", key, err)
					} else if tag.String() != locale {
						t.Errorf("%s: said in %s", key, tag)
					}
					continue
				}
				for n := range 200 {
					data := sample(en[key])
					data["Count"] = n
					_, tag, err := s.localize(&i18n.LocalizeConfig{MessageID: key, TemplateData: map[string]any(data), PluralCount: n})
					if err != nil {
						t.Errorf("%s: count %d: %v (the language's plural rule needs a form this file lacks)", key, n, err)
						break
					}
					if tag.String() != locale {
						t.Errorf("%s: said in %s", key, tag)
						break
					}
				}
			}
		})
	}
}

// TestEveryDiscordLocaleHasAFile fails while a Discord locale has no file.
func TestEveryDiscordLocaleHasAFile(t *testing.T) {
	var missing []string
	for _, locale := range Discord {
		if !slices.Contains(Files(), locale) {
			missing = append(missing, locale)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("no file for %v", missing)
	}
}

// TestEveryKeyRenders: every en-US sentence fills from its named data.
func TestEveryKeyRenders(t *testing.T) {
	en := readFile(t, Default)
	s := English()
	for _, key := range Keys() {
		got := s.SayN(key, 2, sample(en[key]))
		if got == key || strings.Contains(got, "{{") || strings.Contains(got, "<no value>") {
			t.Errorf("%s renders as %q", key, got)
		}
	}
	if got := s.Say("no.such.key", nil); got != "no.such.key" {
		t.Errorf("an unknown key renders as %q", got)
	}
}

// TestEnglishFileIsSorted keeps en-US.json one object with sorted keys, so
// the engineers adding keys at once merge without conflicts in one place.
func TestEnglishFileIsSorted(t *testing.T) {
	buf, _ := files.ReadFile(Default + ".json")
	var keys []string
	for _, line := range strings.Split(string(buf), "\n") {
		if strings.HasPrefix(line, "\t\"") {
			keys = append(keys, strings.SplitN(line, "\"", 3)[1])
		}
	}
	if len(keys) != len(Keys()) {
		t.Fatalf("en-US.json: %d top-level lines, %d keys: keep one key a line at one tab", len(keys), len(Keys()))
	}
	if !slices.IsSorted(keys) {
		t.Error("en-US.json: keys are not sorted")
	}
}

func TestSayN(t *testing.T) {
	s := English()
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1, "Waiting for 1 more player: `/ttt join` to take a seat."},
		{3, "Waiting for 3 more players: `/ttt join` to take a seat."},
		{0, "Waiting for 0 more players: `/ttt join` to take a seat."},
	} {
		if got := s.SayN("lobby.waiting", tc.n, nil); got != tc.want {
			t.Errorf("%d: %q, want %q", tc.n, got, tc.want)
		}
	}
	if got := s.SayN("stats.games", 1, nil); got != "1 game" {
		t.Errorf("stats.games 1 = %q", got)
	}
}

// TestUnknownLocaleSpeaksEnglish: an unknown or empty locale gets en-US.
func TestUnknownLocaleSpeaksEnglish(t *testing.T) {
	c := New(nil)
	for _, locale := range []string{"", "xx", "tlh", "en", "EN-us"} {
		if got := c.For(locale).Locale(); got != Default {
			t.Errorf("For(%q) speaks %s", locale, got)
		}
	}
}

// TestMissingMessageFallsBack: a message a locale lacks is said in en-US and
// logged; a broken one too; a file for no Discord locale is refused.
func TestMissingMessageFallsBack(t *testing.T) {
	en, _ := files.ReadFile(Default + ".json")
	fsys := fstest.MapFS{
		"en-US.json": {Data: en},
		"de.json":    {Data: []byte(`{"button.join": "Beitreten", "button.rematch": "{{.Broken", "button.newer": "{{if .X}}Neuer{{end}}"}`)},
		"xx.json":    {Data: []byte(`{}`)},
	}
	var logs bytes.Buffer
	c := newCatalog(parse(fsys), slog.New(slog.NewTextHandler(&logs, nil)))
	de := c.For("de")
	for _, tc := range []struct{ key, want string }{
		{"button.join", "Beitreten"},
		{"help.title", "**Tic-tac-toe, any size** — one game per channel or thread."}, // missing in de
		{"button.rematch", "Rematch"}, // broken in de
		{"button.newer", "Newer"},     // logic in de
	} {
		if got := de.Say(tc.key, nil); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.key, got, tc.want)
		}
	}
	if got := de.SayN("stats.games", 1, nil); got != "1 game" {
		t.Errorf("plural fallback: %q", got)
	}
	for _, want := range []string{"locale=de key=help.title", "locale=de key=button.rematch", "locale=de key=button.newer", "locale=xx"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
	de.Say("help.title", nil)
	if n := strings.Count(logs.String(), "key=help.title"); n != 1 {
		t.Errorf("a missing message logged %d times", n)
	}
	if got := c.For("xx").Locale(); got != Default {
		t.Errorf("xx speaks %s", got)
	}
}
