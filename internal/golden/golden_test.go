package golden

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDiff(t *testing.T) {
	got := Diff("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nD\ne\nf\ng\nh\n")
	want := "@@ line 1\n a\n b\n c\n-d\n+D\n e\n f\n g\n"
	if got != want {
		t.Fatalf("Diff:\n%s\nwant:\n%s", got, want)
	}
	if Diff("same\n", "same\n") != "" {
		t.Fatal("equal texts have a diff")
	}
}

func TestCheckUpdateThenCompare(t *testing.T) {
	path := filepath.Join(t.TempDir(), "testdata", "x.golden")
	Check(t, path, []byte("one\n"), true)
	if b, _ := os.ReadFile(path); string(b) != "one\n" {
		t.Fatalf("update wrote %q", b)
	}
	Check(t, path, []byte("one\n"), false)
}
