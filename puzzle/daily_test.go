package puzzle

import (
	"testing"
	"time"
)

func TestDailyStableForADate(t *testing.T) {
	for _, k := range Kinds() {
		day := time.Date(2026, 11, 26, 0, 0, 1, 0, time.UTC)
		want := Daily(k, day)
		for _, at := range []time.Time{
			day.Add(23 * time.Hour),
			time.Date(2026, 11, 26, 23, 59, 59, 0, time.UTC),
			time.Date(2026, 11, 26, 20, 0, 0, 0, time.FixedZone("UTC−5", -5*3600)).Add(-2 * time.Hour), // 13:00 UTC
		} {
			if got := Daily(k, at); got.ID != want.ID {
				t.Errorf("%s: %v gives %s, the day's start %s", k, at, got.ID, want.ID)
			}
		}
		if next := Daily(k, day.Add(24*time.Hour)); next.ID == want.ID {
			t.Errorf("%s: %s two days running", k, want.ID)
		}
	}
}

// TestDailyEveryDay walks a year: every day has a puzzle of the weekday's
// difficulty, and no two days in a row share one.
func TestDailyEveryDay(t *testing.T) {
	for _, k := range Kinds() {
		prev := ""
		for day := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC); day.Year() == 2026; day = day.AddDate(0, 0, 1) {
			p := Daily(k, day)
			if p.Kind != k || p.Difficulty != dailyDifficulty(day.Weekday()) {
				t.Fatalf("%s %v: %s is %s %s", k, day, p.ID, p.Kind, p.Difficulty)
			}
			if p.ID == prev {
				t.Fatalf("%s %v: %s again", k, day, p.ID)
			}
			prev = p.ID
		}
	}
}

// TestDailyIsFixed pins one date's choice: it depends only on the date
// and the pool, not on the process (a map's order, a random seed, the
// time zone), so replicas and restarts of one build agree. A new pool.txt
// changes it: update the IDs here with it.
func TestDailyIsFixed(t *testing.T) {
	day := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC) // a Wednesday: medium
	for k, want := range map[Kind]string{ConnectFour: "c4-44433353424413300222225111161555", Classic: "t443-036abed"} {
		p := Daily(k, day)
		if p.ID != want || p.Difficulty != Medium {
			t.Errorf("%s on %v: %s (%s), want %s (medium)", k, day, p.ID, p.Difficulty, want)
		}
	}
}
