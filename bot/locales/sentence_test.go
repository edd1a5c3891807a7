package locales

import (
	"bytes"
	"strings"
	"testing"
	"text/template"
)

func TestSentence(t *testing.T) {
	for _, c := range []struct {
		src  string
		data map[string]any
		want string
	}{
		{"plain", nil, "plain"},
		{"", nil, ""},
		{"{{.A}}", map[string]any{"A": "x"}, "x"},
		{"{{ .A }} and {{.B}}!", map[string]any{"A": "x", "B": 7}, "x and 7!"},
		{"{{.N}} of {{.N}}", map[string]any{"N": int64(-3)}, "-3 of -3"},
		{"{{.F}} {{.B}}", map[string]any{"F": 1.5, "B": true}, "1.5 true"},
		{"a {{.Missing}} b", map[string]any{}, "a <no value> b"},
		{"no data {{.A}}", nil, "no data <no value>"},
		{"}} stays", nil, "}} stays"},
		// A value that looks like a placeholder is text: the sentence is
		// filled once, never parsed again.
		{"{{.A}}", map[string]any{"A": "{{.B}}"}, "{{.B}}"},
	} {
		p, err := sentenceParser{}.Parse(c.src, "", "")
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if got, err := p.Execute(c.data); err != nil || got != c.want {
			t.Errorf("%q with %v = %q, %v; want %q", c.src, c.data, got, err, c.want)
		}
	}
}

func TestSentenceRefusesLogic(t *testing.T) {
	for _, src := range []string{
		"{{if .A}}x{{end}}",
		`{{printf "%d" .A}}`,
		"{{.A | html}}",
		"{{.A.B}}",
		"{{.}}",
		"{{.1A}}",
		"{{A}}",
		"{{- .A -}}",
		"open {{.A",
		"{{template \"x\"}}",
	} {
		if _, err := (sentenceParser{}).Parse(src, "", ""); err == nil {
			t.Errorf("%q parsed", src)
		}
	}
	if p, err := (sentenceParser{}).Parse("<<.A>> {{.A}}", "<<", ">>"); err != nil {
		t.Errorf("own delimiters: %v", err)
	} else if got, _ := p.Execute(map[string]any{"A": "x"}); got != "x {{.A}}" {
		t.Errorf("own delimiters: %q", got)
	}
}

// TestSentencesSayWhatTemplatesSaid holds every form of every locale file
// to what text/template, go-i18n's default, makes of it with the same data.
func TestSentencesSayWhatTemplatesSaid(t *testing.T) {
	for _, locale := range Files() {
		for key, m := range readFile(t, locale) {
			for form, text := range m {
				data := map[string]any(sample(m))
				data["Count"] = 21
				tmpl, err := template.New(key).Option("missingkey=default").Parse(text)
				if err != nil {
					t.Fatalf("%s %s.%s: %v", locale, key, form, err)
				}
				var want bytes.Buffer
				if err := tmpl.Execute(&want, data); err != nil {
					t.Fatalf("%s %s.%s: %v", locale, key, form, err)
				}
				p, err := sentenceParser{}.Parse(text, "", "")
				if err != nil {
					t.Errorf("%s %s.%s: %v", locale, key, form, err)
					continue
				}
				if got, _ := p.Execute(data); got != want.String() {
					t.Errorf("%s %s.%s: %q, text/template says %q", locale, key, form, got, want.String())
				}
			}
		}
	}
}

func BenchmarkSay(b *testing.B) {
	s := New(nil).For("de")
	data := Data{"Seat": "**X** <@800000000000000001>", "Col": 3, "Row": 0}
	b.ReportAllocs()
	for b.Loop() {
		if out := s.Say("coord.gravity", data); strings.Contains(out, "{{") {
			b.Fatal(out)
		}
	}
}
