package locales

import (
	"maps"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// viaGoI18n is what Say and SayN said when each call asked go-i18n to fill
// the sentence: the general path the found sentences (loaded.said, find)
// stand in for.
func viaGoI18n(s *Speaker, key string, count any, data Data) string {
	cfg := &i18n.LocalizeConfig{MessageID: key, TemplateData: map[string]any(data), PluralCount: count}
	if data == nil {
		cfg.TemplateData = map[string]any{}
	}
	text, _, err := s.localize(cfg)
	if err == nil || text != "" {
		return text
	}
	if s.fallback != nil {
		return viaGoI18n(s.fallback, key, count, data)
	}
	return key
}

// TestSayAsGoI18nSaid holds Say and SayN to go-i18n's own filling, for
// every key of every locale (and of a file with missing, broken and
// logic-bearing messages), without data, with every placeholder, and for
// counts that meet every plural form.
func TestSayAsGoI18nSaid(t *testing.T) {
	en, _ := files.ReadFile(Default + ".json")
	broken := fstest.MapFS{
		"en-US.json": {Data: en},
		"de.json":    {Data: []byte(`{"button.join": "Beitreten", "button.rematch": "{{.Broken", "button.newer": "{{if .X}}Neuer{{end}}", "lobby.waiting": {"one": "{{.Count", "other": "{{.Count}} fehlen"}, "stats.games": {"other": "{{.Count}} Spiele"}, "only.here": "nur hier"}`)},
	}
	catalogs := map[string]*Catalog{"embedded": New(nil), "broken": Load(broken, nil)}
	keys := append(Keys(), "only.here", "no.such.key")
	enFile := readFile(t, Default)
	for name, c := range catalogs {
		for _, locale := range slices.Sorted(maps.Keys(c.speakers)) {
			s := c.For(locale)
			for _, key := range keys {
				for _, data := range []Data{nil, sample(enFile[key])} {
					if got, want := s.Say(key, data), viaGoI18n(s, key, nil, data); got != want {
						t.Errorf("%s %s Say(%s, %v) = %q, go-i18n says %q", name, locale, key, data, got, want)
					}
				}
				if _, plural := enFile[key]["one"]; !plural && key != "lobby.waiting" {
					continue
				}
				for n := range 112 { // 0–111 meets every form CLDR's integer rules give these languages
					data := sample(enFile[key])
					full := maps.Clone(data) // what SayN fills: data and the count
					if full == nil {
						full = Data{}
					}
					full["Count"] = n
					want := viaGoI18n(s, key, n, full)
					if got := s.SayN(key, n, data); got != want {
						t.Errorf("%s %s SayN(%s, %d) = %q, go-i18n says %q", name, locale, key, n, got, want)
					}
				}
			}
		}
	}
}

// TestSayArgsAsSay: SayArgs says what Say says with the same values, text
// or numbers, for every key of every locale and for a key none has.
func TestSayArgsAsSay(t *testing.T) {
	enFile := readFile(t, Default)
	c := New(nil)
	for _, locale := range c.Locales() {
		s := c.For(locale)
		for _, key := range append(Keys(), "no.such.key") {
			names := placeholders(enFile[key])
			texts, nums := Data{}, Data{}
			var textArgs, numArgs []Arg
			for i, name := range names {
				texts[name], nums[name] = "⟨"+name+"⟩", 1000*i-7
				textArgs, numArgs = append(textArgs, Text(name, "⟨"+name+"⟩")), append(numArgs, Num(name, 1000*i-7))
			}
			for _, tc := range []struct {
				data Data
				args []Arg
			}{{texts, textArgs}, {nums, numArgs}, {nil, nil}, {Data{"Other": "x"}, []Arg{Text("Other", "x")}}} {
				if got, want := s.SayArgs(key, tc.args...), s.Say(key, tc.data); got != want {
					t.Errorf("%s %s: SayArgs %q, Say %q", locale, key, got, want)
				}
			}
		}
	}
}
