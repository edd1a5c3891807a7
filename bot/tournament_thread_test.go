package bot

import (
	"testing"
)

// TestTournamentNotInThread: /ttt tournament new inside a thread is refused
// (its games, each in a thread of its own, could never open there) as
// /ttt new thread:true is there, and opens nothing: in a thread the bot
// did not start, which the transport marks (FromThread), and in a game's
// thread the bot started, which its table names.
func TestTournamentNotInThread(t *testing.T) {
	h := newHarness(t)
	fake := h.withThreads(t)
	outer := h.newThreadIn(t, channel)
	resp := h.bot.Handle(FromThread(t.Context()), h.prepare(outer, alice, "tournament new", opt(optFormat, "swiss")))
	refused(t, resp, "can't have threads")
	if d, err := h.bot.loadTourney(t.Context(), outer); d != nil || err != nil {
		t.Fatalf("a tournament was opened in the thread: %+v, %v", d, err)
	}
	if th := fake.Threads(); len(th) != 1 {
		t.Fatalf("threads %+v", th)
	}

	publicText(t, h.as(alice, "new", opt(optThread, true)))
	game := h.newestThread(t)
	refused(t, h.in(game, bob, "tournament new", opt(optFormat, "swiss")), "Threads can't hold threads")
	if d, err := h.bot.loadTourney(t.Context(), game); d != nil || err != nil {
		t.Fatalf("a tournament was opened in the game's thread: %+v, %v", d, err)
	}

	// The mark is what refuses a thread without a table: the same
	// command, unmarked, opens one (as it would in a channel).
	publicText(t, h.in(outer, alice, "tournament new", opt(optFormat, "swiss")))
}
