package main

import (
	"bytes"
	"os"
	"testing"
)

// TestTableIsGenerated fails when token's table is not what this command
// makes from the confusables.txt at $CONFUSABLES_TXT: run `go generate ./token`.
// The data file is not part of the repository, so without it the test skips.
func TestTableIsGenerated(t *testing.T) {
	path := os.Getenv("CONFUSABLES_TXT")
	if path == "" {
		t.Skip("CONFUSABLES_TXT is unset: point it at Unicode's confusables.txt to check the generated table")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := generate(f, "token")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../confusables_table.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("token/confusables_table.go is stale: run go generate ./token")
	}
}

func TestGenerateRefusesOtherFiles(t *testing.T) {
	for _, in := range []string{"", "# Version: 1\n", "# Version: 1\n0041 ; 0042\n", "# Version: 1\nzz ; 0042 ; MA\n", "# Version: 1\n0041 ; 0042 ; MA\n0041 ; 0043 ; MA\n"} {
		if _, err := generate(bytes.NewReader([]byte(in)), "token"); err == nil {
			t.Errorf("generate(%q) took it", in)
		}
	}
}
