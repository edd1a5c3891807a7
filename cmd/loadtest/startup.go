package main

import (
	"context"
	"fmt"
	"time"

	"github.com/tttbot/tttbot/config"
	"github.com/tttbot/tttbot/internal/testkit"
)

// Startup is how the bot started: how long until it answered its first
// interaction, and how long until every clock that was due when it started
// (run out while no bot ran) had been applied by its scheduler.
type Startup struct {
	FirstAnswer time.Duration
	Due         int           // clocks due when the bot started
	DueApplied  time.Duration // from the start until none of them was due any more; 0 when none was
	DueLeft     int           // of them still due when the tool stopped waiting
}

func (s Startup) String() string {
	out := fmt.Sprintf("start-up: first answer %.0f ms after the process started", ms(s.FirstAnswer))
	if s.Due > 0 {
		out += fmt.Sprintf("; %d clocks due at start, ", s.Due)
		if s.DueLeft > 0 {
			out += fmt.Sprintf("%d still due after %.1f s", s.DueLeft, s.DueApplied.Seconds())
		} else {
			out += fmt.Sprintf("all applied %.1f s after the start", s.DueApplied.Seconds())
		}
	}
	return out
}

// dueWithin is how long the tool waits for the clocks due at start to be
// applied before it reports how many are left.
const dueWithin = 2 * time.Minute

// awaitFirstAnswer sends /ttt stats to the bot until it answers one, and
// returns the time from the process's start to that answer.
func (s *servers) awaitFirstAnswer(ctx context.Context) (time.Duration, error) {
	deadline := s.started.Add(30 * time.Second)
	ids := newIDs(time.Now())
	for {
		fields := testkit.CommandFields(testkit.Channel, testkit.Alice, "stats", 0, nil)
		fields["ID"] = fmt.Sprint(ids.Add(1))
		body, err := testkit.Payload("command.json", fields)
		if err != nil {
			return 0, err
		}
		if _, err = send(s.client, signedRequest(ctx, "http://"+s.botAddr+"/interactions", s.key, body)); err == nil {
			return time.Since(s.started), nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return 0, fmt.Errorf("the bot never answered an interaction: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// startup measures the clocks due at start (due of them) being applied,
// after the first answer.
func (s *servers) startup(ctx context.Context, db string, due []string) Startup {
	st := Startup{FirstAnswer: s.firstAnswer, Due: len(due)}
	if len(due) == 0 {
		return st
	}
	for {
		left, err := dueAt(ctx, db, s.started)
		if err != nil {
			st.DueLeft = -1
			return st
		}
		st.DueApplied, st.DueLeft = time.Since(s.started), len(left)
		if len(left) == 0 || st.DueApplied > dueWithin || ctx.Err() != nil {
			return st
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// dueNow lists the channels whose clocks are due now in the store db.
func dueNow(ctx context.Context, db string) ([]string, error) { return dueAt(ctx, db, time.Now()) }

// dueAt lists the channels whose clock deadline is at or before at.
func dueAt(ctx context.Context, db string, at time.Time) ([]string, error) {
	if d, err := config.ParseDatabaseURL(db); err == nil && d.Kind == config.Memory {
		return nil, nil
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return st.DueChannels(ctx, at, 1_000_000)
}
