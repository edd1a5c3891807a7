package table

import (
	"strconv"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/internal/jsonstr"
)

// The stored table is encoding/json's output for Table, byte for byte: its
// fields in declaration order (the embedded parts' fields where they are
// embedded), the omitempty and omitzero ones left out as encoding/json
// leaves them out, strings escaped as it escapes them (HTML characters
// too), times in RFC 3339 with nanoseconds. appendTable writes that
// without reflection, since a table is saved on every move: tables stay
// readable by every binary that reads encoding/json's, and
// TestAppendTableIsEncodingJSON ties the two over many tables. A table
// json.Marshal would refuse (a year past 9999) is left to json.Marshal,
// for its error.

// appendTable appends t as json.Marshal encodes it; ok is false, with dst
// unusable, when a time cannot be written in RFC 3339.
func appendTable(dst []byte, t *Table) (_ []byte, ok bool) {
	b := append(dst, `{"guild":`...)
	b = jsonstr.Append(b, t.Guild)
	b = append(b, `,"channel":`...)
	b = jsonstr.Append(b, t.Channel)
	b = append(b, `,"creator":`...)
	b = jsonstr.Append(b, t.Creator)
	b = append(b, `,"rules":`...)
	b = appendRules(b, t.Rules)
	b = append(b, `,"engine":`...)
	b = strconv.AppendInt(b, int64(t.Engine), 10)
	b = append(b, `,"seats":`...)
	if t.Seats == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range t.Seats {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendSeat(b, s)
		}
		b = append(b, ']')
	}
	b = append(b, `,"phase":`...)
	b = jsonstr.Append(b, string(t.Phase))
	if len(t.Moves) > 0 {
		b = append(b, `,"moves":`...)
		b = appendHistory(b, t.Moves)
	}
	if t.EndReason != NotEnded {
		b = append(b, `,"end_reason":`...)
		b = jsonstr.Append(b, t.EndReason.String())
	}
	b = append(b, `,"number":`...)
	b = strconv.AppendInt(b, int64(t.Number), 10)
	b = append(b, `,"created":`...)
	if b, ok = appendTime(b, t.Created); !ok {
		return b, false
	}
	b = append(b, `,"updated":`...)
	if b, ok = appendTime(b, t.Updated); !ok {
		return b, false
	}
	if b, ok = t.challenge.appendFields(b); !ok {
		return b, false
	}
	if b, ok = t.clockState.appendFields(b); !ok {
		return b, false
	}
	if b, ok = t.threadState.appendFields(b); !ok {
		return b, false
	}
	b = t.tournamentState.appendFields(b)
	return append(b, '}'), true
}

func appendRules(b []byte, r game.Rules) []byte {
	b = append(b, `{"Rows":`...)
	b = strconv.AppendInt(b, int64(r.Rows), 10)
	b = append(b, `,"Cols":`...)
	b = strconv.AppendInt(b, int64(r.Cols), 10)
	b = append(b, `,"Win":`...)
	b = strconv.AppendInt(b, int64(r.Win), 10)
	b = append(b, `,"Gravity":`...)
	b = strconv.AppendBool(b, r.Gravity)
	b = append(b, `,"Players":`...)
	b = strconv.AppendInt(b, int64(r.Players), 10)
	return append(b, '}')
}

// appendSeat appends s as Seat.MarshalJSON does (storedSeat).
func appendSeat(b []byte, s Seat) []byte {
	b = append(b, '{')
	if s.User != "" {
		b = append(b, `"user":`...)
		b = jsonstr.Append(b, s.User)
		b = append(b, ',')
	}
	if s.Kind.Computer() {
		b = append(b, `"ai":`...)
		b = jsonstr.Append(b, s.Kind.String())
		b = append(b, ',')
	}
	b = append(b, `"token":`...)
	b = jsonstr.Append(b, s.Token)
	if s.Agreed {
		b = append(b, `,"agreed":true`...)
	}
	return append(b, '}')
}

// appendHistory appends h's text (History.MarshalText) as a JSON string:
// digits, dots, spaces and "!", which need no escaping.
func appendHistory(b []byte, h game.History) []byte {
	b = append(b, '"')
	b, _ = h.AppendText(b) // never fails
	return append(b, '"')
}

// appendTime appends t quoted as time.Time.MarshalJSON does, or ok=false
// where it fails: a year outside 0–9999, a zone offset of a day or more.
func appendTime(b []byte, t time.Time) (_ []byte, ok bool) {
	b = append(b, '"')
	n0 := len(b)
	b = t.AppendFormat(b, time.RFC3339Nano)
	if len(b) < n0+len("9999-") || b[n0+len("9999")] != '-' {
		return b, false
	}
	if b[len(b)-1] != 'Z' {
		c := b[len(b)-len("Z07:00")]
		hh := b[len(b)-len("07:00"):]
		if '0' <= c && c <= '9' || 10*(hh[0]-'0')+hh[1]-'0' >= 24 {
			return b, false
		}
	}
	return append(b, '"'), true
}

func (c *challenge) appendFields(b []byte) (_ []byte, ok bool) {
	if len(c.Invitees) > 0 {
		b = append(b, `,"invitees":`...)
		b = jsonstr.AppendArray(b, c.Invitees)
	}
	if !c.InviteExpires.IsZero() {
		b = append(b, `,"invite_expires":`...)
		if b, ok = appendTime(b, c.InviteExpires); !ok {
			return b, false
		}
	}
	if len(c.Challenged) > 0 {
		b = append(b, `,"challenged":`...)
		b = jsonstr.AppendArray(b, c.Challenged)
	}
	return b, true
}

func (c *clockState) appendFields(b []byte) (_ []byte, ok bool) {
	if c.Clock != 0 {
		b = append(b, `,"clock":`...)
		b = strconv.AppendInt(b, int64(c.Clock), 10)
	}
	if !c.Deadline.IsZero() {
		b = append(b, `,"deadline":`...)
		if b, ok = appendTime(b, c.Deadline); !ok {
			return b, false
		}
	}
	if c.ClockAt != 0 {
		b = append(b, `,"clock_at":`...)
		b = strconv.AppendInt(b, int64(c.ClockAt), 10)
	}
	if len(c.TimedOut) > 0 {
		b = append(b, `,"timed_out":[`...)
		for i, to := range c.TimedOut {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"seat":`...)
			b = strconv.AppendInt(b, int64(to.Seat), 10)
			b = append(b, `,"at":`...)
			if b, ok = appendTime(b, to.At); !ok {
				return b, false
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if c.Shown != (Shown{}) {
		b = append(b, `,"shown":`...)
		if b, ok = c.Shown.append(b); !ok {
			return b, false
		}
	}
	return b, true
}

// append appends s as an object; its leading comma is written only after
// a field, as every field may be left out.
func (s *Shown) append(b []byte) (_ []byte, ok bool) {
	b = append(b, '{')
	n0 := len(b)
	field := func(name string) {
		if len(b) > n0 {
			b = append(b, ',')
		}
		b = append(b, name...)
	}
	if s.App != "" {
		field(`"app":`)
		b = jsonstr.Append(b, s.App)
	}
	if s.Token != "" {
		field(`"token":`)
		b = jsonstr.Append(b, s.Token)
	}
	if !s.At.IsZero() {
		field(`"at":`)
		if b, ok = appendTime(b, s.At); !ok {
			return b, false
		}
	}
	if s.Message != "" {
		field(`"message":`)
		b = jsonstr.Append(b, s.Message)
	}
	if s.Locale != "" {
		field(`"locale":`)
		b = jsonstr.Append(b, s.Locale)
	}
	return append(b, '}'), true
}

func (th *threadState) appendFields(b []byte) (_ []byte, ok bool) {
	if th.Parent != "" {
		b = append(b, `,"thread_parent":`...)
		b = jsonstr.Append(b, th.Parent)
	}
	if !th.ArchiveAt.IsZero() {
		b = append(b, `,"archive_at":`...)
		if b, ok = appendTime(b, th.ArchiveAt); !ok {
			return b, false
		}
	}
	if th.Archived {
		b = append(b, `,"archived":true`...)
	}
	if th.ArchiveTries != 0 {
		b = append(b, `,"archive_tries":`...)
		b = strconv.AppendInt(b, int64(th.ArchiveTries), 10)
	}
	return b, true
}

func (ts *tournamentState) appendFields(b []byte) []byte {
	if g := ts.Tournament; g != nil {
		b = append(b, `,"tournament":{"channel":`...)
		b = jsonstr.Append(b, g.Channel)
		b = append(b, `,"tournament":`...)
		b = jsonstr.Append(b, g.Tournament)
		b = append(b, `,"game":`...)
		b = jsonstr.Append(b, g.Game)
		b = append(b, '}')
	}
	if ts.Reported {
		b = append(b, `,"reported":true`...)
	}
	return b
}
