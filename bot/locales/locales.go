// Package locales holds every sentence the bot says, one go-i18n JSON file a
// Discord locale (en-US.json, es-419.json, zh-TW.json…), embedded in the
// binary and looked up by key with named placeholders and CLDR plural forms.
//
// A Catalog is built once at start: one Speaker a Discord locale, each with
// its go-i18n Localizer. For picks the Speaker of a locale; an unknown or
// untranslated locale gets en-US. A message missing from a locale's file
// (or broken there) falls back to en-US and is logged; nothing here panics.
//
// To add a sentence: add its key to en-US.json (sorted; a "description" for
// translators when the English alone is ambiguous; "one"/"other" when it
// counts), call Say or SayN with its key, and the translators add it to the
// other files (TestLocaleFiles lists what each one lacks). A sentence holds
// text and named placeholders, {{.Name}}, and no template logic
// (sentence.go). Text a user typed reaches a sentence only through Code, as
// a placeholder's value.
//
// Why go-i18n rather than golang.org/x/text/message: go-i18n reads message
// files that translators edit (JSON with a description a message), picks CLDR
// plural forms by the count, and falls back to the default language per
// message with an error that can be logged; x/text/message keeps its catalog
// in Go code (or gotext's generated files) with positional printf verbs,
// which is harder to hand to translators and to check for placeholders.
package locales

import (
	"embed"
	"errors"
	"io/fs"
	"log/slog"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Default is the locale every other falls back to, and the language of the
// command's default descriptions.
const Default = "en-US"

// Discord lists Discord's locales, in Discord's documented order: one file
// each, named by the code (en-US.json).
var Discord = []string{
	"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR",
	"ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
}

//go:embed *.json
var files embed.FS

// Data fills a sentence's named placeholders.
type Data map[string]any

// loaded is the parsed files, once a process: the bundle, the locales that
// have a file, and the files that could not be read (their locales speak
// en-US).
type loaded struct {
	bundle *i18n.Bundle
	have   map[string]bool
	broken map[string]error
	keys   []string // en-US's message IDs, sorted
	// said is, by locale with a file and by en-US key, what go-i18n finds
	// for a sentence said without a count: found once here, not at every
	// Say (go-i18n's lookup, language matching and plural rule cost more
	// than filling the sentence).
	said map[string]map[string]found
}

// found is what go-i18n finds for a key (find): the sentence to fill, nil
// when there is none (missing everywhere, or broken), and the error it
// reports with it (missing in the locale, so en-US's; broken).
type found struct {
	sentence *sentence
	err      error
}

var load = sync.OnceValue(func() *loaded { return parse(files) })

// parse reads the locale files of fsys.
func parse(fsys fs.FS) *loaded {
	l := &loaded{bundle: i18n.NewBundle(language.MustParse(Default)), have: map[string]bool{}, broken: map[string]error{}}
	names, _ := fs.Glob(fsys, "*.json")
	// en-US first: the bundle's default must be in it before the rest.
	slices.SortStableFunc(names, func(a, b string) int {
		if a == Default+".json" {
			return -1
		} else if b == Default+".json" {
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, name := range names {
		locale := strings.TrimSuffix(path.Base(name), ".json")
		if !slices.Contains(Discord, locale) {
			l.broken[locale] = errors.New("not a Discord locale")
			continue
		}
		buf, err := fs.ReadFile(fsys, name)
		if err == nil {
			var f *i18n.MessageFile
			f, err = l.bundle.ParseMessageFileBytes(buf, name)
			if err == nil && locale == Default {
				for _, m := range f.Messages {
					l.keys = append(l.keys, m.ID)
				}
				slices.Sort(l.keys)
			}
		}
		if err != nil {
			l.broken[locale] = err
			continue
		}
		l.have[locale] = true
	}
	l.said = make(map[string]map[string]found, len(l.have))
	for locale := range l.have {
		loc := i18n.NewLocalizer(l.bundle, locale)
		said := make(map[string]found, len(l.keys))
		for _, key := range l.keys {
			said[key] = find(loc, key, nil)
		}
		l.said[locale] = said
	}
	return l
}

// find asks go-i18n which sentence loc says for key and count (nil: a
// sentence that does not count), with the error it reports, without
// filling it: go-i18n's own lookup, fallback to en-US and choice of
// plural form, so the sentence filled is the one it would have filled.
func find(loc *i18n.Localizer, key string, count any) found {
	p := &probe{}
	_, _, err := loc.LocalizeWithTag(&i18n.LocalizeConfig{MessageID: key, TemplateData: p, PluralCount: count, TemplateParser: sentenceParser{}})
	return found{p.found, err}
}

// Catalog is every locale's Speaker, built once at start.
type Catalog struct {
	speakers map[string]*Speaker
	fallback *Speaker
}

// Speaker says sentences in one locale.
type Speaker struct {
	locale   string
	loc      *i18n.Localizer
	log      *slog.Logger
	fallback *Speaker         // en-US, for a message this locale cannot say; nil for en-US
	missed   *sync.Map        // keys already logged as missing
	said     map[string]found // what go-i18n finds for each en-US key said without a count (loaded.said)
}

// New builds the catalog: a Speaker for each Discord locale that has a file,
// logging to log (nil discards) each message a locale lacks when it is
// asked for, and here each file that could not be read.
func New(log *slog.Logger) *Catalog { return newCatalog(load(), log) }

// Load builds a catalog from the locale files in fsys instead of the
// embedded ones (tests; trying a translation without a rebuild). Files are
// named by Discord locale; en-US.json must be among them.
func Load(fsys fs.FS, log *slog.Logger) *Catalog { return newCatalog(parse(fsys), log) }

func newCatalog(l *loaded, log *slog.Logger) *Catalog {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	for locale, err := range l.broken {
		log.Error("locale file unreadable; it speaks en-US", "locale", locale, "err", err)
	}
	en := &Speaker{locale: Default, loc: i18n.NewLocalizer(l.bundle, Default), log: log, missed: &sync.Map{}, said: l.said[Default]}
	c := &Catalog{speakers: map[string]*Speaker{Default: en}, fallback: en}
	for locale := range l.have {
		if locale != Default {
			c.speakers[locale] = &Speaker{locale: locale, loc: i18n.NewLocalizer(l.bundle, locale), log: log, fallback: en, missed: &sync.Map{}, said: l.said[locale]}
		}
	}
	return c
}

// For returns the Speaker of a Discord locale; en-US for an unknown locale,
// or one without a file yet.
func (c *Catalog) For(locale string) *Speaker {
	if s, ok := c.speakers[locale]; ok {
		return s
	}
	return c.fallback
}

// Locales lists the locales with a file, sorted.
func (c *Catalog) Locales() []string { return slices.Sorted(maps.Keys(c.speakers)) }

// english is a Speaker of en-US that logs nowhere, for tests and callers
// with no catalog at hand.
var english = sync.OnceValue(func() *Speaker { return New(nil).For(Default) })

// English returns the en-US Speaker of a catalog that logs nowhere.
func English() *Speaker { return english() }

// Locale is the Discord locale the Speaker speaks.
func (s *Speaker) Locale() string { return s.locale }

// Say returns the sentence key with data filled in.
func (s *Speaker) Say(key string, data Data) string {
	return s.say(key, nil, data, nil)
}

// SayArgs is Say with the placeholders' values given as args instead of a
// Data map: the same sentence, filled the same way, for the sentences
// every board reply says, without the map (and the boxing of each value)
// that Data costs.
func (s *Speaker) SayArgs(key string, args ...Arg) string {
	if args == nil {
		args = []Arg{} // args, not data, even when there are none
	}
	return s.say(key, nil, nil, args)
}

// SayN returns the plural form of key for count, by the locale's CLDR
// rule, with data and {{.Count}} filled in.
func (s *Speaker) SayN(key string, count int, data Data) string {
	d := make(Data, len(data)+1)
	maps.Copy(d, data)
	d["Count"] = count
	return s.say(key, count, d, nil)
}

// say fills the sentence go-i18n finds for key and count with data, or
// with args when they are not nil (SayArgs). A
// sentence said without a count was found once, at start (loaded.said);
// one that counts is looked up each time (its plural form depends on the
// count, by go-i18n's rules), and so is a key en-US lacks.
func (s *Speaker) say(key string, count any, data Data, args []Arg) string {
	if f := s.find(key, count); f.err == nil && f.sentence != nil {
		return f.sentence.fill(data, args) // a sentence without placeholders is not copied
	}
	return string(s.appendSay(nil, key, count, data, args))
}

// AppendArgs appends SayArgs(key, args...) to dst: the sentence without a
// string of its own, for a caller that only measures it or writes it into
// a larger text.
func (s *Speaker) AppendArgs(dst []byte, key string, args ...Arg) []byte {
	if args == nil {
		args = []Arg{} // args, not data, even when there are none
	}
	return s.appendSay(dst, key, nil, nil, args)
}

// appendSay appends what say returns to dst. A message missing or broken
// in s's locale is logged, once a message, not once a reply; then en-US
// says it; a key en-US lacks is said as itself.
//
// The fallback is a loop, not a call of the fallback's appendSay: a
// function that calls itself makes the compiler keep dst on the heap, and
// a caller's buffer on its stack would move there.
func (s *Speaker) appendSay(dst []byte, key string, count any, data Data, args []Arg) []byte {
	start := len(dst)
	for sp := s; sp != nil; sp = sp.fallback {
		f := sp.find(key, count)
		if f.sentence != nil {
			dst = f.sentence.appendFill(dst, data, args)
		}
		if f.err == nil {
			return dst
		}
		// go-i18n already fell back to en-US for a message this locale
		// lacks, and returned its text with the error; a broken template
		// returns none.
		if _, seen := sp.missed.LoadOrStore(key, true); !seen {
			sp.log.Warn("message missing or broken", "locale", sp.locale, "key", key, "err", f.err)
		}
		if len(dst) > start {
			return dst
		}
	}
	// A key en-US lacks is a bug in the code that asks for it (package
	// bot's TestMessageKeys catches it); showing the key tells a reader
	// which sentence is missing.
	return append(dst, key...)
}

// find is what go-i18n finds for key and count (loaded.said, or asked).
func (s *Speaker) find(key string, count any) found {
	if f, ok := s.said[key]; ok && count == nil {
		return f
	}
	return find(s.loc, key, count)
}

// localize asks go-i18n for a sentence, parsed as a sentence (sentence.go)
// rather than as a text/template.
func (s *Speaker) localize(cfg *i18n.LocalizeConfig) (string, language.Tag, error) {
	cfg.TemplateParser = sentenceParser{}
	return s.loc.LocalizeWithTag(cfg)
}

// Keys lists every key of en-US.json, sorted.
func Keys() []string { return slices.Clone(load().keys) }

// Files lists the locales that have a file, sorted.
func Files() []string { return slices.Sorted(maps.Keys(load().have)) }

// Lookup returns the sentence key in this locale only, without data and
// without falling back to en-US: ok is false when the locale's file lacks
// it (or it is broken there). The command schema uses it, so that a
// locale without a translation shows Discord's default rather than a copy.
func (s *Speaker) Lookup(key string) (text string, ok bool) {
	text, tag, err := s.localize(&i18n.LocalizeConfig{MessageID: key, TemplateData: map[string]any{}})
	if err != nil || tag.String() != s.locale {
		return "", false
	}
	return text, true
}
