package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot"
)

// MaxFiles is how many attachments one message may carry (Discord's
// attachments maxItems).
const MaxFiles = 10

// callback answers interaction i with resp, files attached, through
// Discord's REST endpoint: a multipart POST to
// {APIURL}/interactions/{id}/{token}/callback with the message in the part
// payload_json and file n in the part files[n]. Discord takes files only
// this way (an inline response body cannot carry them); the HTTP request is
// then answered 202 with no body. Rendering and the POST stay within ctx,
// inside Discord's 3 s window, so when they fail the interaction is still
// unanswered and can be answered inline.
func (h *interactionsHandler) callback(ctx context.Context, i *discordgo.Interaction, resp bot.Response) error {
	if i.ID == "" || i.Token == "" {
		return errors.New("interaction without id or token")
	}
	wire := resp.InteractionResponse(true)
	if wire.Data == nil || len(wire.Data.Files) == 0 {
		return errors.New("no file could be rendered")
	}
	files := wire.Data.Files
	if len(files) > MaxFiles {
		return fmt.Errorf("%d files, more than a message takes", len(files))
	}
	// payload_json is wire's JSON, whose attachments list names the files.
	contentType, body, err := discordgo.MultipartBodyWithJSON(wire, files)
	if err != nil {
		return err
	}
	u := h.api + "/interactions/" + url.PathEscape(i.ID) + "/" + url.PathEscape(i.Token) + "/callback"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return errors.New("callback URL: unusable") // the URL holds the interaction's token: not logged
	}
	req.Header.Set("Content-Type", contentType)
	res, err := h.opt.Client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL holds the interaction's token: not logged
		}
		return fmt.Errorf("callback: %w", err)
	}
	defer res.Body.Close()
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("callback: Discord answered %s", res.Status)
	}
	return nil
}
