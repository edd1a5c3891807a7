package puzzle

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestPickNeverReturnsASeenPuzzle(t *testing.T) {
	for _, k := range Kinds() {
		for _, d := range Difficulties() {
			seen := map[string]bool{}
			for range Pool(k, d) {
				p, err := Pick(k, d, func(id string) bool { return seen[id] }, 7)
				if err != nil {
					t.Fatal(err)
				}
				if seen[p.ID] || p.Kind != k || p.Difficulty != d {
					t.Fatalf("%s %s: picked %s (%s %s), seen %v", k, d, p.ID, p.Kind, p.Difficulty, seen[p.ID])
				}
				seen[p.ID] = true
			}
		}
	}
}

// TestPickGeneratesWhenThePoolIsSeen: with the whole pool seen, Pick makes
// a new puzzle within its budget, proved like the pool's.
func TestPickGeneratesWhenThePoolIsSeen(t *testing.T) {
	inPool := map[string]bool{}
	for _, p := range Pool(ConnectFour, Easy) {
		inPool[p.ID] = true
	}
	start := time.Now()
	p, err := Pick(ConnectFour, Easy, func(id string) bool { return inPool[id] }, 11)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generated %s in %v", p.ID, time.Since(start))
	if inPool[p.ID] || p.Kind != ConnectFour || p.Difficulty != Easy {
		t.Fatalf("generated %+v", p)
	}
	checkProof(t, p)
	q, err := Parse(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if q.WinIn != p.WinIn || q.Difficulty != p.Difficulty || len(q.Line) != len(p.Line) {
		t.Errorf("Parse(%s) = %+v, generated %+v", p.ID, q, p)
	}
}

func TestPickRefusesUnknown(t *testing.T) {
	none := func(string) bool { return false }
	if _, err := Pick("chess", Easy, none, 1); !errors.Is(err, ErrUnknown) {
		t.Errorf("chess: %v", err)
	}
	if _, err := Pick(ConnectFour, "impossible", none, 1); !errors.Is(err, ErrUnknown) {
		t.Errorf("impossible: %v", err)
	}
}

func TestParse(t *testing.T) {
	ctx := context.Background()
	p := Pool(Classic, Medium)[0]
	if q, err := Parse(ctx, p.ID); err != nil || q.ID != p.ID {
		t.Fatalf("Parse(%s) = %v, %v", p.ID, q.ID, err)
	}
	for _, id := range []string{"", "c4", "c4-9", "t999-0", "x-1", "c4-0000000"} {
		if _, err := Parse(ctx, id); !errors.Is(err, ErrUnknown) {
			t.Errorf("Parse(%q): %v, want ErrUnknown", id, err)
		}
	}
	if _, err := Parse(ctx, "t333-"); !errors.Is(err, ErrNotPuzzle) {
		t.Errorf("the empty 3×3 board: %v, want ErrNotPuzzle", err)
	}
	start := time.Now()
	if _, err := Parse(ctx, "c4-"); !errors.Is(err, ErrNotPuzzle) || time.Since(start) > time.Second {
		t.Errorf("the empty Connect Four board: %v after %v, want ErrNotPuzzle at once", err, time.Since(start))
	}
}

// TestPickImage: once pool and self-play are exhausted, Pick turns pool
// puzzles; each image is a proved puzzle of the same length, unseen, and
// when every image is seen too, the answer is ErrNoPuzzle.
func TestPickImage(t *testing.T) {
	ctx := context.Background()
	for _, k := range Kinds() {
		ps := Pool(k, Easy)[:2]
		seen := map[string]bool{}
		for _, p := range ps {
			seen[p.ID] = true
		}
		n := 0
		for {
			p, err := pickImage(ctx, ps, []int{1, 0}, func(id string) bool { return seen[id] })
			if errors.Is(err, ErrNoPuzzle) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if seen[p.ID] || p.Kind != k || p.Difficulty != Easy {
				t.Fatalf("%s: image %s (%s, seen %v)", k, p.ID, p.Difficulty, seen[p.ID])
			}
			if key := positionKey(p.Rules, p.Moves); key != positionKey(ps[0].Rules, ps[0].Moves) && key != positionKey(ps[1].Rules, ps[1].Moves) {
				t.Fatalf("%s: %s is no image of %s or %s", k, p.ID, ps[0].ID, ps[1].ID)
			}
			checkProof(t, p)
			seen[p.ID] = true
			n++
		}
		want := len(images(ps[0])) + len(images(ps[1]))
		if n != want || n == 0 {
			t.Errorf("%s: %d images of 2 puzzles, want %d", k, n, want)
		}
	}
}

// TestGenerateIsSeeded: one seed, one puzzle, on any machine: the IDs are
// pinned (a change to self-play or to the proof changes them: update
// them with it, and make the pool again).
func TestGenerateIsSeeded(t *testing.T) {
	ctx := context.Background()
	for _, want := range []struct {
		k  Kind
		d  Difficulty
		id string
	}{
		{ConnectFour, Medium, "c4-32556422433233"},
		{Classic, Medium, "t443-4c9e"},
	} {
		p, err := Generate(ctx, want.k, want.d, 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.ID != want.id || p.Difficulty != want.d || p.Kind != want.k {
			t.Errorf("%s %s, seed 5: %s (%s), want %s", want.k, want.d, p.ID, p.Difficulty, want.id)
		}
	}
	if _, err := Generate(ctx, "chess", Easy, 1, nil); !errors.Is(err, ErrUnknown) {
		t.Errorf("chess: %v, want ErrUnknown", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Generate(cancelled, ConnectFour, Hard, 1, nil); !errors.Is(err, ErrNoPuzzle) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want ErrNoPuzzle and context.Canceled", err)
	}
}

func TestPickWithNothingSeen(t *testing.T) {
	p, err := Pick(Classic, Hard, nil, 3)
	if err != nil || p.Difficulty != Hard || p.Kind != Classic {
		t.Fatalf("%+v, %v", p, err)
	}
}
