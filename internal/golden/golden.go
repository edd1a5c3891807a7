// Package golden compares test output with a golden file in testdata, in the
// manner of go/printer's tests: on a mismatch it reports a readable line
// diff naming both sides (or, for files compared by meaning, what differs),
// and with update set it rewrites the golden file instead, so a deliberate
// change is one reviewed diff.
package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check compares got with the golden file at path, byte for byte, and shows
// a line diff when they differ; with update it writes got there instead.
func Check(tb testing.TB, path string, got []byte, update bool) {
	tb.Helper()
	CheckWith(tb, path, got, update, func(want, got []byte) error {
		if bytes.Equal(want, got) {
			return nil
		}
		return fmt.Errorf("output differs (-want +got):\n%s", Diff(string(want), string(got)))
	})
}

// CheckWith compares got with the golden file at path by same, which says
// how they differ (nil when they match), for files compared by meaning, not
// bytes (pictures whose encoder may change); with update it writes got there
// instead. On a mismatch got is kept in a new temporary directory, to be
// looked at.
func CheckWith(tb testing.TB, path string, got []byte, update bool, same func(want, got []byte) error) {
	tb.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run the test with -update to create it)", err)
	}
	if err := same(want, got); err != nil {
		tb.Errorf("%s: %v\n(actual output: %s; -update rewrites the golden file)", path, err, keep(path, got))
	}
}

// keep writes got to a new directory that outlives the test (a test's
// TempDir does not) and returns where, or why it could not.
func keep(path string, got []byte) string {
	dir, err := os.MkdirTemp("", "golden-")
	if err != nil {
		return err.Error()
	}
	actual := filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(actual, got, 0o644); err != nil {
		return err.Error()
	}
	return actual
}

// contextLines is how many equal lines a diff shows around each change.
const contextLines = 3

// Diff returns a line diff of a and b: lines only in a start with "-", only
// in b with "+", shared context with " ", and "@@ line N" opens each hunk
// (N counts lines of a). It is a longest-common-subsequence diff, quadratic
// in lines, which is plenty for golden files.
func Diff(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	// lcs[i][j] is the length of the longest common subsequence of x[i:], y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
		at   int // line number in a
	}
	var lines []line
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			lines = append(lines, line{' ', x[i], i + 1})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', x[i], i + 1}) // deletions before insertions
			i++
		default:
			lines = append(lines, line{'+', y[j], i + 1})
			j++
		}
	}
	// Show changes with a few lines of context; elide the rest.
	show := make([]bool, len(lines))
	for k, l := range lines {
		if l.op != ' ' {
			for c := max(0, k-contextLines); c <= min(len(lines)-1, k+contextLines); c++ {
				show[c] = true
			}
		}
	}
	var sb strings.Builder
	for k, l := range lines {
		if !show[k] {
			continue
		}
		if k == 0 || !show[k-1] {
			fmt.Fprintf(&sb, "@@ line %d\n", l.at)
		}
		fmt.Fprintf(&sb, "%c%s\n", l.op, l.text)
	}
	return sb.String()
}
