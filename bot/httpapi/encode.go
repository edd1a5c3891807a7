package httpapi

import (
	"encoding/json"

	"github.com/tttbot/tttbot/bot"
)

// appendResponse appends resp's inline wire form (no files) to dst.
func appendResponse(dst []byte, resp bot.Response) ([]byte, error) {
	body, err := json.Marshal(resp.InteractionResponse(false))
	return append(dst, body...), err
}
