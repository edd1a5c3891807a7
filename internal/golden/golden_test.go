package golden

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// TestCheckWithFails: a comparison that finds a difference fails the test
// and leaves the actual output to look at; one that finds none passes.
func TestCheckWithFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	Check(t, path, []byte("one\n"), true)
	var rec recorder
	CheckWith(&rec, path, []byte("two\n"), false, func(want, got []byte) error {
		if string(want) != "one\n" || string(got) != "two\n" {
			t.Errorf("compared %q with %q", want, got)
		}
		return errors.New("they differ")
	})
	if !rec.failed || !strings.Contains(rec.msg, "they differ") {
		t.Fatalf("a difference did not fail: %+v", rec)
	}
	if b, err := os.ReadFile(rec.kept(t)); err != nil || string(b) != "two\n" {
		t.Errorf("the actual output kept: %q, %v", b, err)
	}
	rec = recorder{}
	Check(&rec, path, []byte("one\n"), false)
	if rec.failed {
		t.Fatalf("equal output failed: %s", rec.msg)
	}
	Check(&rec, path, []byte("one\nmore\n"), false)
	if !rec.failed || !strings.Contains(rec.msg, "+more") {
		t.Fatalf("a changed output did not fail with its diff: %+v", rec)
	}
	rec.kept(t)
}

// recorder is a testing.TB that keeps a failure instead of failing.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

// kept is where the failure says the actual output is; the test removes
// it when it ends.
func (r *recorder) kept(t *testing.T) string {
	_, after, ok := strings.Cut(r.msg, "actual output: ")
	path, _, _ := strings.Cut(after, ";")
	if !ok || !strings.Contains(path, "golden-") {
		t.Fatalf("no actual output named in %q", r.msg)
	}
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(path)) })
	return path
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
}
