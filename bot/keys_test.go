package bot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/table"
)

// Message keys as the source writes them: a dotted key ("refuse.no_game"),
// and the start of a key that code completes at run time ("finish.").
var (
	dottedKey = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$`)
	keyPrefix = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*\.$`)
)

// notKeys are the package's literals shaped like a dotted key that are no
// message key.
var notKeys = map[string]bool{
	"board.png":     true, // a board picture's file name
	"bracket.png":   true, // a knockout's bracket picture
	"standings.png": true, // a tournament's standings picture
}

// builtKeys are the values each run-time key prefix is completed with,
// taken from the types the code completes them from.
func builtKeys() map[string][]string {
	var finishes []string // every table.Finish: each reads back from its key
	for f := table.Finish(0); ; f++ {
		if back, ok := table.ParseFinish(f.String()); !ok || back != f {
			break
		}
		finishes = append(finishes, f.String())
	}
	return map[string][]string{
		"finish.": finishes,             // history.go: how a game ended for a player
		"kind.":   names(table.Kinds()), // standings.go: a kind of game
	}
}

// TestMessageKeys: every message key the code can ask for is in
// en-US.json, and so in every locale file (bot/locales holds each file to
// en-US's keys); and every key there is one the code asks for. A key
// reaches a Speaker through variables, tables and returns, so the code's
// keys are read from its source: every string literal shaped like a dotted
// key, the literal key of every Say, SayN and SayArgs, every key built at run time
// from a literal prefix (completed by builtKeys), and the schema's keys.
func TestMessageKeys(t *testing.T) {
	used, prefixes := sourceKeys(t)
	built := builtKeys()
	for prefix, where := range prefixes {
		values, ok := built[prefix]
		if !ok {
			t.Errorf("%s: a key is built at run time from %q: add what completes it to builtKeys", where, prefix)
		}
		for _, v := range values {
			used[prefix+v] = where
		}
	}
	for prefix := range built {
		if _, ok := prefixes[prefix]; !ok {
			t.Errorf("builtKeys completes %q, which no code builds a key from", prefix)
		}
	}
	for _, key := range schemaKeys(command()) {
		used[key] = "schema.go (command)"
	}

	catalog := locales.Keys()
	for _, key := range slices.Sorted(maps.Keys(used)) {
		if _, found := slices.BinarySearch(catalog, key); !found {
			t.Errorf("%s: key %q is not in en-US.json", used[key], key)
		}
	}
	for _, key := range catalog {
		if _, ok := used[key]; !ok {
			t.Errorf("en-US.json has %q, which no code asks for", key)
		}
	}
}

// sourceKeys reads the package's non-test files for the message keys they
// name (key → where) and the prefixes of keys they build at run time
// (prefix → where). A Say, SayN or SayArgs whose key is neither a literal, a
// variable, a literal prefix plus a value, nor a schema key is reported: the
// test could not tell which keys it asks for.
func sourceKeys(t *testing.T) (keys, prefixes map[string]string) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	keys, prefixes = map[string]string{}, map[string]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if s, ok := stringLit(n); ok && dottedKey.MatchString(s) && !notKeys[s] {
					keys[s] = fset.Position(n.Pos()).String()
				}
			case *ast.BinaryExpr:
				if lit, ok := n.X.(*ast.BasicLit); ok && n.Op == token.ADD {
					if s, ok := stringLit(lit); ok && keyPrefix.MatchString(s) {
						prefixes[s] = fset.Position(n.Pos()).String()
					}
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "Say" && sel.Sel.Name != "SayN" && sel.Sel.Name != "SayArgs") || len(n.Args) == 0 {
					return true
				}
				where := fset.Position(n.Args[0].Pos()).String()
				switch arg := n.Args[0].(type) {
				case *ast.BasicLit: // also a key without a dot ("seat")
					if s, ok := stringLit(arg); ok {
						keys[s] = where
					}
				case *ast.Ident: // its values are literals, seen where they are written
				case *ast.BinaryExpr:
					if _, ok := arg.X.(*ast.BasicLit); !ok {
						t.Errorf("%s: %s's key is built in a way this test cannot follow", where, sel.Sel.Name)
					}
				case *ast.CallExpr:
					if fn, ok := arg.Fun.(*ast.Ident); !ok || (fn.Name != "choiceKey" && fn.Name != "descriptionKey") {
						t.Errorf("%s: %s's key is built in a way this test cannot follow", where, sel.Sel.Name)
					}
				default:
					t.Errorf("%s: %s's key is built in a way this test cannot follow", where, sel.Sel.Name)
				}
			}
			return true
		})
	}
	return keys, prefixes
}

func stringLit(l *ast.BasicLit) (string, bool) {
	if l.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(l.Value)
	return s, err == nil
}

// schemaKeys are the keys localize looks up for cmd: the description of the
// command, of every subcommand and option, and every choice's name. The
// choices the code says outside the schema (an ai: level, a clock) are
// among them, since the choice lists come from the same types.
func schemaKeys(cmd *discordgo.ApplicationCommand) []string {
	keys := []string{descriptionKey()}
	for _, o := range cmd.Options {
		if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			keys = append(keys, descriptionKey(o.Name))
		}
	}
	for _, sub := range subcommands(cmd) {
		path := strings.Fields(sub.name)
		keys = append(keys, descriptionKey(path...))
		for _, o := range sub.opt.Options {
			keys = append(keys, descriptionKey(append(path, o.Name)...))
			for _, ch := range o.Choices {
				keys = append(keys, choiceKey(strings.Join(path, "."), o.Name, ch.Value))
			}
		}
	}
	return keys
}
