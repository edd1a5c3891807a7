package progress

import "time"

// dayFormat writes a UTC day as a record keeps it.
const dayFormat = time.DateOnly

// dayOf is the UTC day t falls on.
func dayOf(t time.Time) string { return t.UTC().Format(dayFormat) }

// nextDay is the UTC day after day ("" for a day that does not read).
func nextDay(day string) string {
	t, err := time.Parse(dayFormat, day)
	if err != nil {
		return ""
	}
	return t.AddDate(0, 0, 1).Format(dayFormat)
}

// solvedDaily counts the daily puzzle of day (a UTC day) solved: the streak
// grows when the last daily solve was the day before, stays when it was
// this day already (the other kind's daily), and starts again at 1 after a
// gap. The day is the puzzle's own, the one it was the daily puzzle of, so
// a try begun before midnight and solved after it still counts for its day.
func (r *Record) solvedDaily(day string) {
	switch {
	case r.LastDaily == day:
		return
	case r.LastDaily != "" && nextDay(r.LastDaily) == day:
		r.Streak++
	case r.LastDaily != "" && day < r.LastDaily:
		return // an older day's puzzle finished late: the streak has passed it
	default:
		r.Streak = 1
	}
	r.LastDaily = day
	r.Best = max(r.Best, r.Streak)
}

// CurrentStreak is the streak as it stands at now: the run ending on
// LastDaily while it can still grow (LastDaily is today or yesterday),
// else 0.
func (r Record) CurrentStreak(now time.Time) int {
	today := dayOf(now)
	if r.LastDaily == today || nextDay(r.LastDaily) == today {
		return r.Streak
	}
	return 0
}
