package bot

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/fakediscord"
	"github.com/tttbot/tttbot/store"
)

// lapseNotices counts the lapse notices posted in channel.
func lapseNotices(discord *fakediscord.Server, channel string) int {
	n := 0
	for _, m := range discord.Messages(channel) {
		if strings.Contains(string(m.Body), "tournament lapsed") {
			n++
		}
	}
	return n
}

// noTourney asserts the channel holds no tournament: the stored one (if
// any) is closed, and a new one may open.
func (h *harness) noTourney(ch string) {
	h.tb.Helper()
	d, err := h.bot.loadTourney(context.Background(), ch)
	if err != nil || d != nil {
		h.tb.Fatalf("channel %s still holds a tournament: %+v, %v", ch, d, err)
	}
}

// TestTournamentCalledOff: before the start, the organiser's leave calls
// the tournament off and frees the channel; anyone else's leave only takes
// them out, and one who may manage events and messages cannot leave for
// another.
func TestTournamentCalledOff(t *testing.T) {
	h := newHarness(t)
	h.withThreads(t)
	h.openTournament("round-robin", []string{bob, carol})
	manager := interaction(t, "command.json", commandFields(channel, mod, "tournament leave", discordgo.PermissionManageEvents|discordgo.PermissionManageMessages, nil))
	refused(t, h.bot.Handle(t.Context(), manager), "not in this tournament")
	if text := publicText(t, h.as(bob, "tournament leave")); !strings.Contains(text, "left the tournament") {
		t.Fatalf("bob leaving: %s", text)
	}
	if d := h.tourneyOf(channel); len(d.T.Players) != 1 || d.T.Players[0].ID != carol {
		t.Fatalf("after bob left: %+v", d.T.Players)
	}
	// alice organises but never joined: her leave is still hers to call off.
	resp := h.as(alice, "tournament leave")
	text := publicText(t, resp)
	if !strings.Contains(text, "<@"+alice+"> called off the tournament") {
		t.Fatalf("calling it off: %s", text)
	}
	if pinged := resp.Data.AllowedMentions.Users; len(pinged) != 0 {
		t.Fatalf("calling it off pings %v", pinged)
	}
	h.noTourney(channel)
	refused(t, h.as(carol, "tournament join"), "No tournament is open")
	refused(t, h.as(alice, "tournament leave"), "No tournament is open")
	// The channel hosts the next one, opened by someone else.
	publicText(t, h.as(bob, "tournament new", opt(optFormat, "swiss")))
	if d := h.tourneyOf(channel); d.Organiser != bob || d.T.Started || len(d.T.Players) != 0 {
		t.Fatalf("the next tournament: %+v", d)
	}
}

// TestTournamentOrganiserLeavesAfterStart: once started, the organiser's
// leave is anyone's: they forfeit their games, and the tournament goes on.
func TestTournamentOrganiserLeavesAfterStart(t *testing.T) {
	h := newHarness(t)
	h.withThreads(t)
	h.openTournament("round-robin", []string{alice, bob, carol, dave})
	publicText(t, h.as(alice, "tournament start"))
	h.settle()
	if text := publicText(t, h.as(alice, "tournament leave")); !strings.Contains(text, "forfeits") {
		t.Fatalf("the organiser leaving after the start: %s", text)
	}
	h.settle()
	d := h.tourneyOf(channel)
	if d.Closed != "" || !d.T.Started {
		t.Fatalf("the tournament after its organiser left: closed %q, started %v", d.Closed, d.T.Started)
	}
	refused(t, h.as(bob, "tournament new", opt(optFormat, "swiss")), "already open")
}

// TestTournamentLapses: a tournament nobody starts lapses the idle timeout
// (an hour in the harness) after it was opened or last joined, when the
// scheduler finds it due: it is closed, the channel is told, and a new one
// may open. One started in time never lapses.
func TestTournamentLapses(t *testing.T) {
	h := newHarness(t)
	discord := h.withThreads(t)
	h.openTournament("round-robin", []string{alice})
	h.advance(50 * time.Minute)
	publicText(t, h.as(bob, "tournament join")) // the lapse moves on
	h.advance(50 * time.Minute)
	h.settle()
	h.tourneyOf(channel)
	if n := lapseNotices(discord, channel); n != 0 {
		t.Fatalf("%d lapse notices before the lapse", n)
	}
	h.advance(11 * time.Minute)
	h.settle()
	h.noTourney(channel)
	if n := lapseNotices(discord, channel); n != 1 {
		t.Fatalf("%d lapse notices, want 1", n)
	}
	h.advance(2 * time.Hour)
	h.settle() // nothing more falls due
	if n := lapseNotices(discord, channel); n != 1 {
		t.Fatalf("%d lapse notices, want 1", n)
	}
	// The next one starts in time: it never lapses.
	h.openTournament("round-robin", []string{alice, bob, carol})
	publicText(t, h.as(alice, "tournament start"))
	h.advance(2 * time.Hour) // its games' clocks run out meanwhile
	h.settle()
	if d := h.tourneyOf(channel); d.Closed != "" {
		t.Fatalf("a started tournament closed: %q", d.Closed)
	}
	if n := lapseNotices(discord, channel); n != 1 {
		t.Fatalf("%d lapse notices, want 1", n)
	}
}

// TestTournamentLapseRefused: the lapse closes the tournament even when
// Discord refuses its notice.
func TestTournamentLapseRefused(t *testing.T) {
	h := newHarness(t)
	discord := h.withThreads(t)
	h.openTournament("round-robin", []string{alice})
	discord.MissingPermissions(fakediscord.PostMessage)
	h.advance(61 * time.Minute)
	h.settle()
	h.noTourney(channel)
	if n := lapseNotices(discord, channel); n != 0 {
		t.Fatalf("%d lapse notices got past the refusal", n)
	}
}

// TestTournamentLapsesOnce: two processes on one store run their
// schedulers at once when a tournament lapses: it is closed once, and the
// channel told once.
func TestTournamentLapsesOnce(t *testing.T) {
	st := store.NewMemory()
	a := newHarnessOn(t, st, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	discord := a.withThreads(t)
	b := restarted(t, a, st)
	b.now = a.now // one clock for both
	a.openTournament("round-robin", []string{alice, bob})
	a.advance(61 * time.Minute)
	var wg sync.WaitGroup
	for _, h := range []*harness{a, b} {
		wg.Go(func() { h.scheduler().RunDue(context.Background()) })
	}
	wg.Wait()
	a.settle()
	b.settle()
	a.noTourney(channel)
	if n := lapseNotices(discord, channel); n != 1 {
		t.Fatalf("%d lapse notices, want 1", n)
	}
}

// TestTournamentDeadline: a tournament's deadline is the earlier of its
// work's and its lapse's, zero meaning none.
func TestTournamentDeadline(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		a, b, want time.Time
	}{
		{time.Time{}, time.Time{}, time.Time{}},
		{now, time.Time{}, now},
		{time.Time{}, now, now},
		{now, now.Add(time.Hour), now},
		{now.Add(time.Hour), now, now},
	} {
		if got := earliest(c.a, c.b); !got.Equal(c.want) {
			t.Errorf("earliest(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	h := newHarness(t)
	h.withThreads(t)
	h.openTournament("round-robin", []string{alice})
	d := h.tourneyOf(channel)
	if got, want := d.due(h.clock(), time.Hour), h.clock().Add(time.Hour); !got.Equal(want) {
		t.Fatalf("an open tournament is due at %v, want its lapse at %v", got, want)
	}
	d.Closed = closedLapsed
	if got := d.due(h.clock(), time.Hour); !got.IsZero() {
		t.Fatalf("a closed tournament is due at %v", got)
	}
}
