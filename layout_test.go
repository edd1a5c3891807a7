package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/tttbot/tttbot"

// goList runs go list with a template over pkgs and returns one field list a
// package, keyed by the package's path inside the module ("" for main).
func goList(t *testing.T, format string, pkgs ...string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}} " + format}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		m[rel(f[0])] = f[1:]
	}
	return m
}

// rel is a package's path inside the module: "bot/gateway", or "" for main.
func rel(path string) string {
	return strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
}

// TestImportsPointOneWay enforces docs/architecture.md's arrows: game ← ai, render,
// table; rating ← table; table ← store, bot; bot ← transports; main wires
// them all. game uses only the standard library; main and table import no
// Discord library.
func TestImportsPointOneWay(t *testing.T) {
	// allowed lists, for each package, the project packages it may import
	// directly. A package missing here fails the test: a new package is a
	// decision about the arrows, written down here.
	allowed := map[string][]string{
		"game":                                 {},
		"rating":                               {},
		"ai":                                   {"game", "ai/internal/bitboard"},
		"ai/internal/bitboard":                 {"game"},
		"ai/internal/bookgen":                  {"ai/internal/bitboard", "game"},
		"render":                               {"game", "internal/twemoji"},
		"table":                                {"game", "rating", "token", "internal/jsonstr"},
		"store":                                {"table"},
		"store/internal/groupcommit":           {"store", "table"},
		"store/internal/sqlread":               {"store", "table"},
		"store/internal/results":               {"table"},
		"store/sqlite":                         {"store", "store/internal/groupcommit", "store/internal/sqlread", "store/internal/results", "table"},
		"store/postgres":                       {"store", "store/internal/groupcommit", "store/internal/sqlread", "store/internal/results", "table"},
		"store/storetest":                      {"game", "store", "table", "internal/testkit"},
		"config":                               {"internal/redact"},
		"internal/redact":                      {},
		"internal/jsonstr":                     {}, // JSON strings written as encoding/json writes them, for the hand encoders
		"token":                                {"game", "internal/twemoji"},
		"token/internal/confusablesgen":        {},
		"cli":                                  {"game", "render", "token"},
		"tournament":                           {}, // pairing and standings: standard library only, no Discord, no store
		"bot":                                  {"game", "ai", "render", "table", "token", "bot/locales", "tournament", "puzzle", "puzzle/progress"},
		"bot/locales":                          {},
		"internal/testkit":                     {},
		"bot/gateway":                          {"bot"},
		"bot/httpapi":                          {"bot", "internal/jsonstr"},
		"bot/discordrest":                      {}, // REST edits; bot declares the Editor it satisfies
		"bot/emojicdn":                         {}, // custom emoji pictures from Discord's CDN; render declares the Images it satisfies, main wires it
		"internal/golden":                      {},
		"internal/twemoji":                     {}, // Twemoji's pictures and the list of emoji they cover: data, for token and render
		"internal/twemoji/internal/twemojigen": {},
		"internal/fakediscord":                 {},                                                                                         // tests' Discord on 127.0.0.1: gateway and REST
		"cmd/loadtest":                         {"game", "config", "internal/testkit", "table", "store", "store/sqlite", "store/postgres"}, // drives the built binary over HTTP with the test kit; follows games with the engine; reads -db as the bot reads DATABASE_URL
		"":                                     {"bot", "bot/gateway", "bot/httpapi", "bot/discordrest", "bot/emojicdn", "cli", "config", "store", "store/sqlite", "store/postgres", "table"},
		"puzzle":                               {"ai", "game"},
		"puzzle/internal/puzzlegen":            {"puzzle"},
		"puzzle/progress":                      {"game", "puzzle", "rating"}, // people's puzzle records; the store through an interface it declares
	}
	imports := goList(t, "{{join .Imports \" \"}}", "./...")
	for pkg, imps := range imports {
		want, known := allowed[pkg]
		if !known {
			t.Errorf("package %q is not in the layout test: add it with the imports it may have", pkg)
			continue
		}
		for _, imp := range imps {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			if !slices.Contains(want, rel(imp)) {
				t.Errorf("%s imports %s; it may import only %v", orMain(pkg), rel(imp), want)
			}
		}
	}
	if _, ok := imports["bot"]; !ok {
		t.Fatal("go list did not report ./bot")
	}

	deps := goList(t, "{{join .Deps \" \"}}", "./game", "./tournament", "./table", ".")
	for _, pkg := range []string{"game", "tournament"} {
		for _, d := range deps[pkg] {
			// A standard library path has no dot in its first element.
			if first, _, _ := strings.Cut(d, "/"); strings.Contains(first, ".") {
				t.Errorf("%s must use only the standard library; it depends on %s", pkg, d)
			}
		}
	}
	for _, pkg := range []string{"table"} {
		for _, d := range deps[pkg] {
			if strings.Contains(d, "discordgo") {
				t.Errorf("%s depends on %s; the session knows no Discord", pkg, d)
			}
		}
	}
	for _, imp := range imports[""] {
		if strings.Contains(imp, "discordgo") {
			t.Errorf("main imports %s; only the transports talk to Discord", imp)
		}
	}
}

func orMain(pkg string) string {
	if pkg == "" {
		return "main"
	}
	return pkg
}

// TestNoPackageHoldsAQuarter keeps the rooms balanced: no package has more
// than a quarter of the module's non-test lines. Generated files (a "Code
// generated … DO NOT EDIT." line, like token's Unicode table) are data, not
// code anyone reads, so they do not count.
func TestNoPackageHoldsAQuarter(t *testing.T) {
	files := goList(t, "{{.Dir}} {{join .GoFiles \" \"}}", "./...")
	lines := map[string]int{}
	total := 0
	for pkg, f := range files {
		dir := f[0]
		for _, name := range f[1:] {
			src, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if generated.Match(src) {
				continue
			}
			n := bytes.Count(src, []byte("\n"))
			lines[pkg] += n
			total += n
		}
	}
	for pkg, n := range lines {
		if 4*n > total {
			t.Errorf("%s holds %d of %d non-test lines, more than a quarter", orMain(pkg), n, total)
		}
	}
}

// generated is Go's convention for a generated file (go help generate).
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)
