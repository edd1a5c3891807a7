package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
)

// The bodies the bot sends, checked as Discord's OpenAPI description
// (discord-api-spec, openapi.json) declares them, read by hand: starting a
// thread (CreateTextThreadWithoutMessageRequest), updating one
// (UpdateThreadRequestPartial), a new message (MessageCreateRequest) and an
// edit (IncomingWebhookUpdateRequestPartial, MessageEditRequestPartial), with
// their allowed mentions (MessageAllowedMentionsRequest), action rows
// (ActionRowComponentForMessageRequest), buttons
// (ButtonComponentForMessageRequest) and attachments
// (MessageAttachmentRequest). Each check returns what breaks the schema.

var snowflake = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

// Limits from the description.
const (
	maxThreadName   = 100   // CreateTextThreadWithoutMessageRequest.name maxLength (minLength 1)
	maxContent      = 2000  // the bot's contract; MessageCreateRequest allows 4000, edits 2000
	maxComponents   = 40    // components maxItems
	maxRowItems     = 5     // an action row's components maxItems (minItems 1)
	maxCustomID     = 100   // custom_id maxLength (minLength 1)
	maxLabel        = 80    // a button's label maxLength
	maxMentionUsers = 100   // allowed_mentions.users maxItems
	maxAttachments  = 10    // attachments maxItems
	maxFilename     = 1024  // an attachment's filename maxLength (minLength 1)
	maxSlowmode     = 21600 // rate_limit_per_user maximum
)

// autoArchiveDurations is ThreadAutoArchiveDuration's values, in minutes.
var autoArchiveDurations = []int{60, 1440, 4320, 10080}

// threadTypes are the types a thread may be started with (10, 11, 12).
var threadTypes = []int{10, 11, 12}

// checkStartThread checks POST /channels/{id}/threads's body.
func checkStartThread(raw []byte) []string {
	var b struct {
		Name                *string `json:"name"`
		AutoArchiveDuration *int    `json:"auto_archive_duration"`
		RateLimitPerUser    *int    `json:"rate_limit_per_user"`
		Type                *int    `json:"type"`
		Invitable           *bool   `json:"invitable"`
	}
	var errs []string
	if err := strictDecode(raw, &b); err != nil {
		return []string{err.Error()}
	}
	switch {
	case b.Name == nil:
		errs = append(errs, "name is required")
	case len([]rune(*b.Name)) < 1 || len([]rune(*b.Name)) > maxThreadName:
		errs = append(errs, fmt.Sprintf("name of %d characters, want 1–%d", len([]rune(*b.Name)), maxThreadName))
	}
	if b.AutoArchiveDuration != nil && !slices.Contains(autoArchiveDurations, *b.AutoArchiveDuration) {
		errs = append(errs, fmt.Sprintf("auto_archive_duration %d, want one of %v", *b.AutoArchiveDuration, autoArchiveDurations))
	}
	if b.Type != nil && !slices.Contains(threadTypes, *b.Type) {
		errs = append(errs, fmt.Sprintf("type %d, want one of %v", *b.Type, threadTypes))
	}
	if r := b.RateLimitPerUser; r != nil && (*r < 0 || *r > maxSlowmode) {
		errs = append(errs, fmt.Sprintf("rate_limit_per_user %d", *r))
	}
	return errs
}

// checkThreadUpdate checks PATCH /channels/{thread}'s body, as far as the
// fields a thread's update takes.
func checkThreadUpdate(raw []byte) []string {
	var b struct {
		Name                *string `json:"name"`
		Archived            *bool   `json:"archived"`
		Locked              *bool   `json:"locked"`
		Invitable           *bool   `json:"invitable"`
		AutoArchiveDuration *int    `json:"auto_archive_duration"`
		RateLimitPerUser    *int    `json:"rate_limit_per_user"`
		Flags               *int    `json:"flags"`
	}
	if err := strictDecode(raw, &b); err != nil {
		return []string{err.Error()}
	}
	var errs []string
	if b.Name != nil && len([]rune(*b.Name)) > maxThreadName {
		errs = append(errs, "name over 100 characters")
	}
	if b.AutoArchiveDuration != nil && !slices.Contains(autoArchiveDurations, *b.AutoArchiveDuration) {
		errs = append(errs, fmt.Sprintf("auto_archive_duration %d", *b.AutoArchiveDuration))
	}
	return errs
}

// message is the part of a new message or an edit the checks read.
type message struct {
	Content         *string           `json:"content"`
	Components      []json.RawMessage `json:"components"`
	AllowedMentions *struct {
		Parse       []string `json:"parse"`
		Users       []string `json:"users"`
		Roles       []string `json:"roles"`
		RepliedUser *bool    `json:"replied_user"`
	} `json:"allowed_mentions"`
	Attachments []struct {
		ID       *string `json:"id"`
		Filename *string `json:"filename"`
	} `json:"attachments"`
	Flags *int `json:"flags"`
}

// checkMessage checks a new message's or an edit's body; files are the
// multipart parts files[n] by n ("" when the body was JSON alone).
func checkMessage(raw []byte, files map[string]string) []string {
	var m message
	if err := json.Unmarshal(raw, &m); err != nil {
		return []string{err.Error()}
	}
	var errs []string
	if m.Content != nil && len([]rune(*m.Content)) > maxContent {
		errs = append(errs, fmt.Sprintf("content of %d characters", len([]rune(*m.Content))))
	}
	if len(m.Components) > maxComponents {
		errs = append(errs, fmt.Sprintf("%d components", len(m.Components)))
	}
	for _, c := range m.Components {
		errs = append(errs, checkActionRow(c)...)
	}
	if am := m.AllowedMentions; am != nil {
		if len(am.Users) > maxMentionUsers {
			errs = append(errs, fmt.Sprintf("%d users in allowed_mentions", len(am.Users)))
		}
		for _, p := range am.Parse {
			if p != "users" && p != "roles" && p != "everyone" {
				errs = append(errs, fmt.Sprintf("allowed_mentions.parse %q", p))
			}
		}
		for _, u := range append(slices.Clone(am.Users), am.Roles...) {
			if !snowflake.MatchString(u) {
				errs = append(errs, fmt.Sprintf("allowed_mentions id %q", u))
			}
		}
		if hasDuplicates(am.Users) || hasDuplicates(am.Parse) {
			errs = append(errs, "allowed_mentions items are not unique")
		}
	}
	if len(m.Attachments) > maxAttachments {
		errs = append(errs, fmt.Sprintf("%d attachments", len(m.Attachments)))
	}
	for _, a := range m.Attachments {
		switch {
		case a.ID == nil || !snowflake.MatchString(*a.ID):
			errs = append(errs, "an attachment without a snowflake id")
		case a.Filename != nil && (len(*a.Filename) < 1 || len(*a.Filename) > maxFilename):
			errs = append(errs, fmt.Sprintf("attachment filename %q", *a.Filename))
		case files != nil && files[*a.ID] == "":
			errs = append(errs, fmt.Sprintf("attachment %s names no files[%s] part", *a.ID, *a.ID))
		}
	}
	if len(files) > 0 && len(m.Attachments) != len(files) {
		errs = append(errs, fmt.Sprintf("%d files but %d attachments", len(files), len(m.Attachments)))
	}
	return errs
}

// checkActionRow checks one top-level component: the bot sends action rows
// of buttons.
func checkActionRow(raw json.RawMessage) []string {
	var row struct {
		Type       *int `json:"type"`
		Components []struct {
			Type     *int    `json:"type"`
			Style    *int    `json:"style"`
			CustomID *string `json:"custom_id"`
			Label    *string `json:"label"`
			Emoji    *struct {
				ID   *string `json:"id"`
				Name *string `json:"name"`
			} `json:"emoji"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &row); err != nil {
		return []string{err.Error()}
	}
	if row.Type == nil || *row.Type != 1 {
		return []string{"a top-level component that is not an action row"}
	}
	var errs []string
	if n := len(row.Components); n < 1 || n > maxRowItems {
		errs = append(errs, fmt.Sprintf("an action row of %d components", n))
	}
	for _, b := range row.Components {
		switch {
		case b.Type == nil || *b.Type != 2:
			errs = append(errs, "a row item that is not a button")
		case b.Style == nil || *b.Style < 1 || *b.Style > 6:
			errs = append(errs, "a button without a valid style")
		case b.CustomID != nil && (len(*b.CustomID) < 1 || len(*b.CustomID) > maxCustomID):
			errs = append(errs, fmt.Sprintf("custom_id %q", *b.CustomID))
		case b.Label != nil && len([]rune(*b.Label)) > maxLabel:
			errs = append(errs, fmt.Sprintf("label %q", *b.Label))
		case b.Emoji != nil && b.Emoji.ID == nil && b.Emoji.Name == nil:
			errs = append(errs, "an empty emoji object")
		}
	}
	return errs
}

func hasDuplicates(s []string) bool {
	seen := map[string]bool{}
	for _, v := range s {
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	return false
}

// strictDecode decodes raw into v, refusing fields v does not name: a
// field the description does not declare for the request.
func strictDecode(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
