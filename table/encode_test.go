package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
)

// checkEncoding holds t's encoding to json.Marshal's, byte for byte, and a
// table json.Marshal refuses to the same error.
func checkEncoding(tb testing.TB, t *Table) {
	tb.Helper()
	got, err := t.encode() // sets Moves from the game, as json.Marshal then sees them
	want, werr := json.Marshal(t)
	switch {
	case werr != nil || err != nil:
		if werr == nil || err == nil || err.Error() != werr.Error() {
			tb.Fatalf("encode error %v, json.Marshal's %v", err, werr)
		}
	case !bytes.Equal(got, want):
		tb.Fatalf("encode:\n%s\njson.Marshal:\n%s", got, want)
	}
}

// rulesForTest are the kinds of game the bot offers, and odd ones.
var rulesForTest = []game.Rules{
	game.Classic(),
	{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2},
	{Rows: 15, Cols: 15, Win: 5, Players: 3},
	{Rows: 4, Cols: 4, Win: 3, Players: 4},
	{Rows: 10, Cols: 12, Win: 4, Gravity: true, Players: 3},
	{Rows: 3, Cols: 3, Win: 3, Gravity: true, Players: 2},
	{Rows: 100, Cols: 100, Win: 25, Players: 10},
}

// tokensForTest are tokens people pick: letters, digits, symbols, Unicode
// emoji (with modifiers and joiners), custom emoji markup, whose < and >
// encoding/json escapes.
var tokensForTest = []string{"", "", "", "Z", "7", "#", "Ω", "🦊", "👍🏽", "👨‍👩‍👧", "🇫🇷", "<:fox:1180000000000000099>", "<a:dance:1180000000000000098>", "❤️"}

func snowflake(rng *rand.Rand) string { return strconv.FormatUint(1<<60+rng.Uint64N(1<<59), 10) }

// randomGame plays a table through its methods from a random start: a
// challenge or an open lobby, the computer's seats, a clock, a thread, a
// tournament, moves, resignations, clocks running out, the end; check sees
// it after every step.
func randomGame(tb testing.TB, rng *rand.Rand, check func(*Table)) {
	tb.Helper()
	r := rulesForTest[rng.IntN(len(rulesForTest))]
	now := start.Add(time.Duration(rng.Int64N(int64(365 * 24 * time.Hour))))
	guild := snowflake(rng)
	if rng.IntN(5) == 0 {
		guild = "" // a DM
	}
	users := make([]string, r.Players)
	for i := range users {
		users[i] = snowflake(rng)
	}
	var t *Table
	var err error
	if r.Players == 2 && rng.IntN(6) == 0 {
		g := TournamentGame{Channel: snowflake(rng), Tournament: strconv.Itoa(rng.IntN(5)), Game: fmt.Sprintf("r%d-g%d", rng.IntN(4), rng.IntN(8))}
		t, err = NewTournamentGame(guild, snowflake(rng), snowflake(rng), g, r, Clocks[rng.IntN(len(Clocks))], users[0], users[1], now)
		if err != nil {
			tb.Fatal(err)
		}
	} else {
		if t, err = New(nil, guild, snowflake(rng), users[0], r, game.Engines()[rng.IntN(2)], now); err != nil {
			tb.Fatal(err)
		}
		t.Number = rng.IntN(1000) + 1
		if rng.IntN(3) == 0 {
			t.PlaceInThread(snowflake(rng))
		}
		if rng.IntN(3) == 0 {
			_ = t.SetClock(Clocks[rng.IntN(len(Clocks))])
		}
		check(t)
		if err := t.Join(users[0], tokensForTest[rng.IntN(len(tokensForTest))]); err != nil {
			if err := t.Join(users[0], ""); err != nil { // a token the rules refuse: the first free one
				tb.Fatal(err)
			}
		}
		if rng.IntN(3) == 0 {
			n := 1 + rng.IntN(r.Players-1)
			_ = t.Invite(users[1:1+n], now.Add(DefaultChallengeTimeout))
			check(t)
			switch rng.IntN(4) {
			case 0:
				_ = t.Decline(users[1], now)
			case 1:
				t.lapse()
			}
			check(t)
		}
		for i := 1; i < r.Players && t.Phase == Lobby; i++ {
			if rng.IntN(4) == 0 && !t.Invited(users[i]) {
				err = t.SeatComputer(Computers()[rng.IntN(3)])
			} else {
				err = t.Join(users[i], tokensForTest[rng.IntN(len(tokensForTest))])
			}
			if err != nil { // a token taken: the next free one
				err = t.Join(users[i], "")
			}
			if err != nil && t.Phase == Lobby {
				tb.Fatalf("seat %d: %v", i, err)
			}
			check(t)
		}
	}
	if t.Phase != Playing {
		return
	}
	for step := 0; t.Phase == Playing && step < r.Cells()+r.Players; step++ {
		now = now.Add(time.Duration(rng.Int64N(int64(time.Minute))))
		t.Updated = now
		t.ArmClock(now)
		switch rng.IntN(30) {
		case 0:
			if !t.Deadline.IsZero() {
				t.timeUp()
			}
		case 1:
			_, _ = t.Resign(users[rng.IntN(r.Players)])
			t.FinishIfOver()
		case 2:
			t.ShowBoard(Shown{App: snowflake(rng), Token: "aW50ZXJhY3Rpb246" + snowflake(rng), At: now, Message: snowflake(rng), Locale: []string{"", "en-US", "de", "pt-BR"}[rng.IntN(4)]})
		case 3:
			if rng.IntN(10) == 0 {
				_ = t.End(users[0], true)
			}
		default:
			c := game.Coord{Row: rng.IntN(r.Rows), Col: rng.IntN(r.Cols)}
			if k, ok := t.ComputerToMove(); ok && k.Computer() {
				_, _, _ = t.PlayComputer(c)
			} else {
				_, _, _ = t.Place(users[t.game.Turn()], c)
			}
			t.FinishIfOver()
		}
		t.armArchive(now)
		check(t)
	}
	if t.Tournament != nil && rng.IntN(2) == 0 {
		t.Reported = true
		check(t)
	}
	if t.Parent != "" && !t.ArchiveAt.IsZero() {
		t.ArchiveTries = rng.IntN(maxArchiveTries + 1)
		t.Archived = rng.IntN(2) == 0
		check(t)
	}
}

// TestAppendTableIsEncodingJSON: every table a game goes through is
// encoded as json.Marshal encodes it, over games of every kind.
func TestAppendTableIsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	games := 400
	if testing.Short() {
		games = 50
	}
	for range games {
		randomGame(t, rng, func(tb *Table) { checkEncoding(t, tb) })
	}
}

// nastyStrings are strings encoding/json escapes, and the ones it does
// not: quotes, backslashes, controls, HTML characters, the JavaScript line
// separators, invalid UTF-8, DEL, emoji.
var nastyStrings = []string{"", "x", `"`, `\`, "\b\f\n\r\t", "\x00\x01\x1f", "<script>&amp;</script>", "\u2028\u2029",
	"\xff", "a\xc3", "\xed\xa0\x80", "\x7f", "é", "👨‍👩‍👧", "<:fox:1>", "\ufffd", "\u00a0", "ok\u2027\u202a", everyASCII()}

// everyASCII is the 128 ASCII characters in order.
func everyASCII() string {
	b := make([]byte, 128)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}

// timesForTest are times every way they reach a table: UTC, zones ahead
// and behind, nanoseconds, zero, a zero instant in a zone, and years
// RFC 3339 cannot write (json.Marshal refuses them).
func timesForTest() []time.Time {
	ahead, behind := time.FixedZone("", 5*3600+30*60), time.FixedZone("X", -8*3600)
	return []time.Time{
		{}, start, start.Add(123456789), start.Add(120 * time.Millisecond), start.In(ahead), start.Add(1).In(behind),
		time.Time{}.In(ahead), time.Unix(0, 0), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		start.In(time.FixedZone("", 24*3600)), start.In(time.FixedZone("", -30*3600)), start.In(time.FixedZone("", 59)),
	}
}

// TestAppendTableFieldByField: each field, set on its own to values
// encoding/json treats specially, is encoded as json.Marshal encodes it.
func TestAppendTableFieldByField(t *testing.T) {
	var cases []func(*Table)
	for _, s := range nastyStrings {
		cases = append(cases,
			func(t *Table) { t.Guild, t.Channel, t.Creator = s, s, s },
			func(t *Table) {
				t.Seats = []Seat{{User: s, Token: s}, {Kind: ComputerMedium, User: s, Token: s, Agreed: true}}
			},
			func(t *Table) { t.Phase = Phase(s) },
			func(t *Table) { t.Invitees, t.Challenged = []string{s, s}, []string{s} },
			func(t *Table) { t.Shown = Shown{App: s, Token: s, Message: s, Locale: s} },
			func(t *Table) { t.Shown = Shown{Locale: s} },
			func(t *Table) { t.Parent = s },
			func(t *Table) { t.Tournament = &TournamentGame{Channel: s, Tournament: s, Game: s} },
		)
	}
	for _, at := range timesForTest() {
		cases = append(cases,
			func(t *Table) { t.Created, t.Updated = at, at },
			func(t *Table) { t.InviteExpires, t.Deadline, t.ArchiveAt = at, at, at },
			func(t *Table) { t.TimedOut = []Timeout{{Seat: 1, At: at}, {}} },
			func(t *Table) { t.Shown = Shown{At: at} },
		)
	}
	for _, n := range []int{0, 1, -1, 1 << 40, -1 << 62} {
		cases = append(cases,
			func(t *Table) {
				t.Rules = game.Rules{Rows: n, Cols: n, Win: n, Gravity: n != 0, Players: n}
				t.Engine = game.Engine(n)
			},
			func(t *Table) { t.Number, t.Clock, t.ClockAt, t.ArchiveTries = n, n, n, n },
		)
	}
	cases = append(cases,
		func(t *Table) { t.Seats = []Seat{} },
		func(t *Table) { t.Seats = []Seat{{Kind: SeatKind(9), Token: "X"}} },
		func(t *Table) {
			t.Invitees, t.Challenged, t.TimedOut, t.Moves = []string{}, []string{}, []Timeout{}, game.History{}
		},
		func(t *Table) { t.EndReason = EndReason(200) },
		func(t *Table) { t.EndReason = Unanswered },
		func(t *Table) { t.Archived, t.Reported = true, true },
		func(t *Table) {
			t.Moves = game.History{{Kind: game.Resign, Player: 2}, {Player: 1, At: game.Coord{Row: 14, Col: 99}}}
		},
	)
	for i, set := range cases {
		tbl := &Table{}
		set(tbl)
		t.Run(strconv.Itoa(i), func(t *testing.T) { checkEncoding(t, tbl) })
	}
}

// TestAppendTableKnowsEveryField: a field added to Table (or to a part it
// embeds) that appendTable does not write fails here, set alone and with
// every other field, before a table loses it in the store.
func TestAppendTableKnowsEveryField(t *testing.T) {
	all := &Table{}
	fill(reflect.ValueOf(all).Elem())
	checkEncoding(t, all)
	fields := 0
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Table]()) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		tbl := &Table{}
		v := reflect.ValueOf(tbl).Elem().FieldByIndex(f.Index)
		if !v.CanSet() {
			continue
		}
		fill(v)
		fields++
		t.Run(f.Name, func(t *testing.T) { checkEncoding(t, tbl) })
	}
	if fields < 25 {
		t.Fatalf("only %d of Table's stored fields were found", fields)
	}
}

// fill sets v, and every exported field within it, to something other
// than its zero value.
func fill(v reflect.Value) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(start.Add(1500 * time.Millisecond)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("<x>")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(3)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range v.Len() {
			fill(v.Index(i))
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				fill(f)
			}
		}
	}
}

// FuzzAppendTable: a table built from any strings, numbers and times is
// encoded as json.Marshal encodes it.
func FuzzAppendTable(f *testing.F) {
	for i, s := range nastyStrings {
		f.Add(s, "X", int64(i), uint16(i), int64(start.UnixNano()), int16(i*60))
	}
	f.Fuzz(func(t *testing.T, s, tok string, n int64, flags uint16, nanos int64, zoneMinutes int16) {
		at := time.Unix(0, nanos).In(time.FixedZone("", int(zoneMinutes)*60))
		tbl := &Table{Guild: s, Channel: tok, Creator: s + tok, Number: int(n), Created: at, Updated: at.Add(time.Duration(n)),
			Rules:  game.Rules{Rows: int(n), Cols: int(flags), Win: int(zoneMinutes), Gravity: flags&1 != 0, Players: int(n >> 3)},
			Engine: game.Engine(flags >> 8), Phase: Phase(tok), EndReason: EndReason(flags >> 1 & 7)}
		tbl.Seats = []Seat{{User: s, Token: tok, Agreed: flags&2 != 0}, {Kind: SeatKind(flags >> 2 & 3), Token: s}}
		if flags&4 != 0 {
			tbl.Invitees, tbl.Challenged, tbl.InviteExpires = []string{s, tok}, []string{tok}, at
		}
		if flags&8 != 0 {
			tbl.Clock, tbl.Deadline, tbl.ClockAt = int(n>>1), at, int(zoneMinutes)
			tbl.TimedOut = []Timeout{{Seat: int(flags), At: at}}
		}
		if flags&16 != 0 {
			tbl.Shown = Shown{App: tok, Token: s, At: at, Message: s, Locale: tok}
		}
		if flags&32 != 0 {
			tbl.Parent, tbl.ArchiveAt, tbl.Archived, tbl.ArchiveTries = s, at, flags&64 != 0, int(zoneMinutes)
		}
		if flags&128 != 0 {
			tbl.Tournament, tbl.Reported = &TournamentGame{Channel: s, Tournament: tok, Game: s}, flags&256 != 0
		}
		if flags&512 != 0 {
			tbl.Moves = game.History{{Player: int(n), At: game.Coord{Row: int(flags), Col: int(zoneMinutes)}}, {Kind: game.Resign, Player: 1}}
		}
		checkEncoding(t, tbl)
	})
}
