package ai

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsOnlyTheEngine keeps ai a library on top of game alone.
func TestImportsOnlyTheEngine(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep != "github.com/tttbot/tttbot/ai" && dep != "github.com/tttbot/tttbot/game" {
			t.Errorf("ai depends on %s", dep)
		}
	}
}
