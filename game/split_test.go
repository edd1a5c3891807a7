package game

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// splitNumbersFields is splitNumbers as it was written first, with
// strings.Fields: the reference the scan must agree with, number for
// number and error for error.
func splitNumbersFields(s string) ([]int, error) {
	t := strings.TrimSpace(s)
	if len(t) >= 2 && (t[0] == '(' && t[len(t)-1] == ')' || t[0] == '[' && t[len(t)-1] == ']') {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	if t == "" {
		return nil, fmt.Errorf("%w: empty", ErrBadPosition)
	}
	if strings.Count(t, ",") > 1 {
		return nil, fmt.Errorf("%w: %q has more than one comma", ErrBadPosition, s)
	}
	fields := strings.Fields(strings.Replace(t, ",", " , ", 1))
	var nums []int
	for i, f := range fields {
		if f == "," {
			if i == 0 || i == len(fields)-1 {
				return nil, fmt.Errorf("%w: %q: a number is missing around the comma", ErrBadPosition, s)
			}
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%w: %q is not a number", ErrBadPosition, f)
		}
		nums = append(nums, n)
	}
	if len(nums) > 2 {
		return nil, fmt.Errorf("%w: %q has more than two numbers", ErrBadPosition, s)
	}
	return nums, nil
}

// checkSplit fails when splitNumbers and splitNumbersFields disagree on s.
func checkSplit(t *testing.T, s string) {
	t.Helper()
	nums, n, err := splitNumbers(s)
	want, wantErr := splitNumbersFields(s)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: error %v, want %v", s, err, wantErr)
	}
	if err == nil && (n != len(want) || fmt.Sprint(nums[:n]) != fmt.Sprint(want)) {
		t.Fatalf("%q: %v, want %v", s, nums[:n], want)
	}
}

func TestSplitNumbersAsFields(t *testing.T) {
	for _, s := range []string{
		"", " ", "3", " 3 ", "1,2", "1 , 2", "(1, 2)", "[1 2]", "(1,2", "1,", ",1", " , ", ",", "1,2,3",
		"1 2 3", "1 2 x", "x", "1 x", "x,1", "1,x", "-1", "+2", "1\t2", "1\u00a02", "1\u30002", "1\u00852",
		"1,\u00a0", "\u00a0,1", "1 ,2", "1, 2 ,", "()", "[]", "( )", "(,)", "1,,2", "\xff", "1\xff2", "1 \xff",
		"99999999999999999999", "1 2 3 4 x", "a b", ",x", "x,",
	} {
		checkSplit(t, s)
	}
}

func FuzzSplitNumbers(f *testing.F) {
	for _, s := range []string{"1,2", "(3, 4)", "5", " , 1", "1 2 3", "\u00a01\u00852"} {
		f.Add(s)
	}
	f.Fuzz(checkSplit)
}
