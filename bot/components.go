package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/game"
)

// Discord's limits on buttons.
const (
	buttonsPerRow = 5
	maxRows       = 5
	maxGridSide   = 5  // free boards up to 5×5 get a button per cell
	maxColumns    = 25 // gravity boards up to 25 columns get a button per column
)

// customIDPrefix namespaces the bot's buttons.
const customIDPrefix = "ttt"

// A button's custom_id is "ttt:<kind>:<stamp>[:<args>]". The stamp pins the
// state the button was drawn for — the table's game number, and for moves the
// number of moves made — so a click on an outdated board is refused and a
// double click is never applied twice.
const (
	clickCell    = "cell"    // ttt:cell:<game>.<moves>:<row>:<col>
	clickColumn  = "col"     // ttt:col:<game>.<moves>:<col>
	clickJoin    = "join"    // ttt:join:<game>
	clickRematch = "rematch" // ttt:rematch:<game>
)

// stamp is the state a button belongs to.
func stamp(t *Table) string {
	if t.game == nil {
		return strconv.Itoa(t.Number)
	}
	return strconv.Itoa(t.Number) + "." + strconv.Itoa(t.game.MoveCount())
}

func customID(kind string, t *Table, args ...int) string {
	parts := []string{customIDPrefix, kind, stamp(t)}
	if kind == clickJoin || kind == clickRematch {
		parts[2] = strconv.Itoa(t.Number)
	}
	for _, a := range args {
		parts = append(parts, strconv.Itoa(a))
	}
	return strings.Join(parts, ":")
}

// click is a parsed custom_id.
type click struct {
	kind  string
	stamp string
	args  []int
}

func parseCustomID(id string) (click, error) {
	parts := strings.Split(id, ":")
	if len(parts) < 3 || parts[0] != customIDPrefix {
		return click{}, fmt.Errorf("%w: button %q", ErrUnknown, id)
	}
	c := click{kind: parts[1], stamp: parts[2]}
	for _, p := range parts[3:] {
		n, err := strconv.Atoi(p)
		if err != nil {
			return click{}, fmt.Errorf("%w: button %q", ErrUnknown, id)
		}
		c.args = append(c.args, n)
	}
	want := map[string]int{clickCell: 2, clickColumn: 1, clickJoin: 0, clickRematch: 0}
	if n, ok := want[c.kind]; !ok || n != len(c.args) {
		return click{}, fmt.Errorf("%w: button %q", ErrUnknown, id)
	}
	return c, nil
}

// playerStyles colour taken cells by player; Discord has four styles.
var playerStyles = []discordgo.ButtonStyle{discordgo.PrimaryButton, discordgo.DangerButton, discordgo.SuccessButton, discordgo.SecondaryButton}

// components returns the buttons for a table's public message.
func components(t *Table) []discordgo.MessageComponent {
	switch {
	case t.Phase == Lobby:
		return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: buttonJoin, Style: discordgo.SuccessButton, CustomID: customID(clickJoin, t)},
		}}}
	case t.game == nil || t.Phase == Ended:
		return nil
	case t.Phase == Over:
		rows := []discordgo.MessageComponent{}
		if !t.Rules.Gravity && t.Rules.Rows < maxRows && t.Rules.Cols <= maxGridSide {
			rows = cellRows(t, true)
		}
		return append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: buttonRematch, Style: discordgo.PrimaryButton, CustomID: customID(clickRematch, t)},
		}})
	case t.Rules.Gravity && t.Rules.Cols <= maxColumns:
		return columnRows(t)
	case !t.Rules.Gravity && t.Rules.Rows <= maxGridSide && t.Rules.Cols <= maxGridSide:
		return cellRows(t, false)
	}
	return nil
}

// cellRows lays out a button per cell as the board: row r of buttons is row
// r of the board.
func cellRows(t *Table, disabled bool) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	for r := 0; r < t.Rules.Rows; r++ {
		var row []discordgo.MessageComponent
		for c := 0; c < t.Rules.Cols; c++ {
			btn := discordgo.Button{Label: "\u200b", Style: discordgo.SecondaryButton, CustomID: customID(clickCell, t, r, c), Disabled: disabled}
			if p := t.game.At(game.Coord{Row: r, Col: c}); p != game.NoPlayer {
				btn.Label = string(t.game.Token(p))
				btn.Style = playerStyles[p%len(playerStyles)]
				btn.Disabled = true
			}
			row = append(row, btn)
		}
		rows = append(rows, discordgo.ActionsRow{Components: row})
	}
	return rows
}

// columnRows has a button per column that is not full, labelled with the
// number a player would type, five to a row.
func columnRows(t *Table) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	var row []discordgo.MessageComponent
	for c := 0; c < t.Rules.Cols; c++ {
		if t.game.ColumnFull(c) {
			continue
		}
		row = append(row, discordgo.Button{Label: strconv.Itoa(c), Style: discordgo.SecondaryButton, CustomID: customID(clickColumn, t, c)})
		if len(row) == buttonsPerRow {
			rows = append(rows, discordgo.ActionsRow{Components: row})
			row = nil
		}
	}
	if len(row) > 0 {
		rows = append(rows, discordgo.ActionsRow{Components: row})
	}
	return rows
}

// clickRequest turns a button click into the request its subcommand takes,
// and returns the table handler that checks the button is still current.
func clickRequest(req *Request, c click) tableHandler {
	var h tableHandler
	switch c.kind {
	case clickCell:
		req.Sub = "move"
		req.setString(optPosition, fmt.Sprintf("%d,%d", c.args[0], c.args[1]))
		h = handleMove
	case clickColumn:
		req.Sub = "move"
		req.setString(optPosition, strconv.Itoa(c.args[0]))
		h = handleMove
	case clickJoin:
		req.Sub = "join"
		h = handleJoin
	case clickRematch:
		req.Sub = "rematch"
		h = handleRematch
	}
	return func(ctx context.Context, b *Bot, req *Request, cur *Table) (change, error) {
		if cur == nil || !stillCurrent(cur, c) {
			return change{}, ErrStale
		}
		ch, err := h(ctx, b, req, cur)
		if err == nil && c.kind != clickRematch {
			// Moves and joins redraw the message that was clicked; a rematch
			// is a new game and gets a message of its own.
			ch.resp.Type = discordgo.InteractionResponseUpdateMessage
		}
		return ch, err
	}
}

// stillCurrent reports whether the state a button was drawn for is the
// table's state now.
func stillCurrent(t *Table, c click) bool {
	switch c.kind {
	case clickJoin:
		return c.stamp == strconv.Itoa(t.Number) && t.Phase == Lobby
	case clickRematch:
		return c.stamp == strconv.Itoa(t.Number)
	}
	return t.Phase == Playing && c.stamp == stamp(t)
}
