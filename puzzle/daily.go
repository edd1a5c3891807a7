package puzzle

import (
	"hash/fnv"
	"math/rand/v2"
	"time"
)

// The daily puzzle of a kind is a pool puzzle chosen by the UTC date alone,
// so every replica and every restart of one build agrees. The week gets
// harder as it goes: easy on Monday and Tuesday, medium Wednesday to
// Friday, hard at the weekend. Within a difficulty the days walk through
// the pool in an order shuffled once by the kind and difficulty, so no
// puzzle comes back before the others of its difficulty have had their
// day. A new pool (another build) changes the choice.

// dailyDifficulty is the difficulty of a weekday's puzzle.
func dailyDifficulty(wd time.Weekday) Difficulty {
	switch wd {
	case time.Monday, time.Tuesday:
		return Easy
	case time.Saturday, time.Sunday:
		return Hard
	}
	return Medium
}

// Daily returns kind k's puzzle of day's UTC date (the time of day and
// the zone of day do not matter beyond the date they make in UTC). It
// panics if the pool holds no puzzle of k at that difficulty, which
// TestDailyEveryDay rules out for the embedded pool.
func Daily(k Kind, day time.Time) Puzzle {
	day = day.UTC()
	d := dailyDifficulty(day.Weekday())
	loadPool()
	ps := pool[k][d]
	if len(ps) == 0 {
		panic("puzzle: no " + string(d) + " " + string(k) + " puzzles in the pool")
	}
	h := fnv.New64a()
	h.Write([]byte(string(k) + "/" + string(d)))
	order := rand.New(rand.NewPCG(h.Sum64(), 0)).Perm(len(ps))
	days := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400
	return ps[order[int(days%int64(len(ps)))]].clone()
}
