package game

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly keeps the engine reusable: nothing outside the
// standard library may creep into its dependencies.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep != "github.com/tttbot/tttbot/game" {
			t.Errorf("game depends on %s, outside the standard library", dep)
		}
	}
}
