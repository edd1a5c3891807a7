package render

import "image/color"

// PlayerColor is the colour player p (0-based) has in the board's pictures,
// for anything that should match them (the bot's board messages take it as
// their accent). Ten players have ten colours; p wraps past them.
func PlayerColor(p int) color.RGBA {
	return playerColors[((p%len(playerColors))+len(playerColors))%len(playerColors)]
}
