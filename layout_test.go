package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportsPointOneWay enforces DESIGN.md's layout: game uses only the
// standard library; ai and render build on game alone; store knows game but
// not bot; nothing but main imports bot.
func TestImportsPointOneWay(t *testing.T) {
	const mod = "github.com/tttbot/tttbot"
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	own := func(pkg string) []string { // the project's packages pkg depends on, itself excluded
		var out []string
		for _, d := range deps(pkg) {
			if strings.HasPrefix(d, mod) && d != mod+"/"+strings.TrimPrefix(pkg, "./") {
				out = append(out, strings.TrimPrefix(d, mod+"/"))
			}
		}
		return out
	}
	if d := deps("./game"); len(d) != 1 {
		t.Errorf("game must use only the standard library; it depends on %v", d)
	}
	for pkg, allowed := range map[string][]string{
		"./ai":     {"game"},
		"./render": {"game"},
		"./store":  {"game", "table"},
		"./table":  {"game", "rating"},
		"./cli":    {"game", "render"},
		"./config": {},
	} {
		for _, d := range own(pkg) {
			if !slices.Contains(allowed, d) {
				t.Errorf("%s imports %s; it may import only %v", pkg, d, allowed)
			}
		}
	}
	for _, pkg := range []string{"./game", "./ai", "./render", "./store", "./cli", "./config"} {
		if slices.Contains(deps(pkg), mod+"/bot") {
			t.Errorf("%s imports bot; only main may", pkg)
		}
	}
}
