package rating_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly keeps the package free of dependencies, as
// DESIGN.md's layout asks (the root layout test does not list rating yet).
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if deps := strings.Fields(string(out)); len(deps) != 1 {
		t.Errorf("rating must use only the standard library; it depends on %v", deps)
	}
}
