package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tttbot/tttbot/table"
)

// Route is what an interaction asks for: a /ttt subcommand or a button.
type Route uint8

// Routes: the subcommands, then the buttons. RouteNone is an interaction no
// route takes. The values only index routeTable (nothing stores them), so a
// new route goes in its group.
const (
	RouteNone Route = iota

	RouteNew
	RouteJoin
	RouteMove
	RouteBoard
	RouteRematch
	RouteResign
	RouteEnd
	RouteCheck
	RouteStats
	RouteLeaderboard
	RouteHistory
	RouteReplay
	RouteHelp
	RouteTournamentNew
	RouteTournamentJoin
	RouteTournamentLeave
	RouteTournamentStart
	RouteTournamentStandings
	RoutePuzzle

	ButtonCell
	ButtonColumn
	ButtonJoin
	ButtonRematch
	ButtonHistory
	ButtonAccept
	ButtonDecline
	ButtonPuzzleColumn
	ButtonPuzzleCell

	routeCount // the number of routes: keep last
)

// String names the route as metrics and logs show it: "/ttt move",
// "button cell".
func (r Route) String() string {
	if int(r) < len(routeNames) && routeNames[r] != "" {
		return routeNames[r]
	}
	return "none"
}

// routeNames are the routes' names (String), written once: every request's
// metrics name its route.
var routeNames [routeCount]string

// subcommand is the route's /ttt subcommand name ("tournament new" in a
// group); "" for a button.
func (r Route) subcommand() string { return routeTable[r].command }

// tableHandler acts on a channel's table under its lock. cur is the
// channel's table (nil when it never had one). It returns the table to save
// (nil: nothing changed, and the reply is about cur), and the reply. It must
// check everything before it changes anything, and return an error for any
// refusal.
type tableHandler func(b *Bot, ctx context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error)

// queryHandler answers without touching a channel's table.
type queryHandler func(b *Bot, ctx context.Context, in *Interaction) (Response, error)

// recordHandler acts on a document, not a channel's table: the invoking
// person's puzzle record, the channel's tournament. With deliver, the interaction's ID is
// recorded as handled with the change it makes, and recorded says whether
// it was (as table.Tables.Deliver does for a table).
type recordHandler func(b *Bot, ctx context.Context, in *Interaction, deliver bool) (resp Response, recorded bool, err error)

// routeEntry declares one route: a subcommand name or a custom_id pattern,
// and its handler, which is a table, a query or a record handler.
type routeEntry struct {
	route   Route
	command string // the /ttt subcommand; "" for a button
	// button is the custom_id pattern: segments separated by ':', literal,
	// {name} (kept as text) or {name int} (parsed once, here). A custom_id
	// matches only with exactly as many segments.
	button string
	table  tableHandler
	query  queryHandler
	record recordHandler
}

// routeTable is everything /ttt answers, in one table, indexed by Route.
//
// A button's custom_id carries a stamp of the state it was drawn for (the
// table's game number, and for moves "<game>.<moves made>"), so a click on
// an outdated board is refused and a double click never applies twice. The
// formats are the ones boards already posted carry; a custom_id under the
// "ttt:" prefix that matches none of them is from an older (or newer) board,
// and is refused with words saying so. Change a format only by adding a
// pattern with a new kind ("cell2"), never by changing one in place.
var routeTable [routeCount]routeEntry

// commandRoutes finds a subcommand's route by name.
var commandRoutes = map[string]Route{}

// init fills the route table: in a function, because handlers refer back to
// the table (to write custom_ids), which a package-level initializer cannot.
func init() {
	routeTable = [...]routeEntry{
		RouteNone:        {},
		RouteNew:         {route: RouteNew, command: "new", table: (*Bot).newGame},
		RouteJoin:        {route: RouteJoin, command: "join", table: (*Bot).join},
		RouteMove:        {route: RouteMove, command: "move", table: (*Bot).move},
		RouteBoard:       {route: RouteBoard, command: "board", table: (*Bot).board},
		RouteRematch:     {route: RouteRematch, command: "rematch", table: (*Bot).rematch},
		RouteResign:      {route: RouteResign, command: "resign", table: (*Bot).resign},
		RouteEnd:         {route: RouteEnd, command: "end", table: (*Bot).end},
		RouteCheck:       {route: RouteCheck, command: "check", query: (*Bot).check},
		RouteStats:       {route: RouteStats, command: "stats", query: (*Bot).stats},
		RouteLeaderboard: {route: RouteLeaderboard, command: "leaderboard", query: (*Bot).leaderboard},
		RouteHistory:     {route: RouteHistory, command: "history", query: (*Bot).history},
		RouteReplay:      {route: RouteReplay, command: "replay", query: (*Bot).replay},
		RouteHelp:        {route: RouteHelp, command: "help", query: (*Bot).help},
		// The tournament group: each acts on the channel's tournament
		// document (tournament.go), not on a table; those that change it
		// record their interaction in its save, standings only reads.
		RouteTournamentNew:       {route: RouteTournamentNew, command: "tournament new", record: (*Bot).tournamentNew},
		RouteTournamentJoin:      {route: RouteTournamentJoin, command: "tournament join", record: (*Bot).tournamentJoin},
		RouteTournamentLeave:     {route: RouteTournamentLeave, command: "tournament leave", record: (*Bot).tournamentLeave},
		RouteTournamentStart:     {route: RouteTournamentStart, command: "tournament start", record: (*Bot).tournamentStart},
		RouteTournamentStandings: {route: RouteTournamentStandings, command: "tournament standings", query: (*Bot).tournamentStandings},
		ButtonCell:               {route: ButtonCell, button: "ttt:cell:{stamp}:{row int}:{col int}", table: (*Bot).clickCell},
		ButtonColumn:             {route: ButtonColumn, button: "ttt:col:{stamp}:{col int}", table: (*Bot).clickColumn},
		ButtonJoin:               {route: ButtonJoin, button: "ttt:join:{game int}", table: (*Bot).clickJoin},
		ButtonRematch:            {route: ButtonRematch, button: "ttt:rematch:{game int}", table: (*Bot).clickRematch},
		RoutePuzzle:              {route: RoutePuzzle, command: "puzzle", record: (*Bot).puzzle},
		// A page of /ttt history: whose, and how many games to skip.
		ButtonHistory: {route: ButtonHistory, button: "ttt:hist:{user}:{offset int}", query: (*Bot).clickHistory},
		// An answer to the challenge that opened the channel's game number game.
		ButtonAccept:  {route: ButtonAccept, button: "ttt:accept:{game int}", table: (*Bot).clickAccept},
		ButtonDecline: {route: ButtonDecline, button: "ttt:decline:{game int}", table: (*Bot).clickDecline},
		// A move in the presser's puzzle try number try, drawn after ply
		// moves of it (puzzle.go): a column under gravity, else a cell.
		ButtonPuzzleColumn: {route: ButtonPuzzleColumn, button: "ttt:pzcol:{try int}:{ply int}:{col int}", record: (*Bot).clickPuzzleColumn},
		ButtonPuzzleCell:   {route: ButtonPuzzleCell, button: "ttt:pzcell:{try int}:{ply int}:{row int}:{col int}", record: (*Bot).clickPuzzleCell},
	}
	for _, e := range routeTable {
		if e.command != "" {
			commandRoutes[e.command] = e.route
		}
		if e.button != "" {
			buttonSegs[e.route] = strings.Split(e.button, ":")
		}
		switch {
		case e.route != RouteNone && e.command != "":
			routeNames[e.route] = "/" + CommandName + " " + e.command
		case e.route != RouteNone && e.button != "":
			routeNames[e.route] = "button " + buttonSegs[e.route][1]
		}
	}
}

// buttonSegs are the buttons' custom_id patterns cut into their segments,
// once, for buttonID.
var buttonSegs [routeCount][]string

// customIDPrefix namespaces the bot's buttons.
const customIDPrefix = "ttt:"

// Vars are a custom_id's variable segments, converted by their pattern.
type Vars struct {
	ints map[string]int
	strs map[string]string
}

// Int returns an {name int} segment.
func (v Vars) Int(name string) int { return v.ints[name] }

// Text returns a {name} segment.
func (v Vars) Text(name string) string { return v.strs[name] }

// matchButton finds the route of a custom_id and reads its segments.
func matchButton(id string) (Route, Vars, error) {
	if !strings.HasPrefix(id, customIDPrefix) {
		return RouteNone, Vars{}, fmt.Errorf("%w: button %q", ErrUnknown, id)
	}
	segs := strings.Split(id, ":")
	for _, e := range routeTable {
		if e.button == "" {
			continue
		}
		if v, ok := matchPattern(e.button, segs); ok {
			return e.route, v, nil
		}
	}
	return RouteNone, Vars{}, fmt.Errorf("%w: %q", ErrOldButton, id)
}

func matchPattern(pattern string, segs []string) (Vars, bool) {
	pat := strings.Split(pattern, ":")
	if len(pat) != len(segs) {
		return Vars{}, false
	}
	v := Vars{ints: map[string]int{}, strs: map[string]string{}}
	for i, p := range pat {
		name, isVar := strings.CutPrefix(p, "{")
		if !isVar {
			if p != segs[i] {
				return Vars{}, false
			}
			continue
		}
		name = strings.TrimSuffix(name, "}")
		if name, isInt := strings.CutSuffix(name, " int"); isInt {
			n, err := strconv.Atoi(segs[i])
			if err != nil {
				return Vars{}, false
			}
			v.ints[name] = n
			continue
		}
		v.strs[name] = segs[i]
	}
	return v, true
}

// buttonID writes a custom_id for route from its pattern and values, in
// the pattern's order.
func buttonID(r Route, values ...string) string {
	// Written into a buffer on the stack, as long as Discord allows a
	// custom_id to be: the one allocation is the string.
	var stack [100]byte
	return string(appendButtonID(stack[:0], r, values...))
}

// appendButtonID appends buttonID(r, values...) to dst: a board's buttons
// write their IDs one after another into one buffer (boardIDs).
func appendButtonID(dst []byte, r Route, values ...string) []byte {
	n := 0
	for i, seg := range buttonSegs[r] {
		if i > 0 {
			dst = append(dst, ':')
		}
		if strings.HasPrefix(seg, "{") {
			dst = append(dst, values[n]...)
			n++
			continue
		}
		dst = append(dst, seg...)
	}
	return dst
}
