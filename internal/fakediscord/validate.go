package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The bodies the bot sends, checked as Discord's OpenAPI description
// (discord-api-spec, openapi.json) declares them, read by hand: starting a
// thread (CreateTextThreadWithoutMessageRequest), updating one
// (UpdateThreadRequestPartial), a new message (MessageCreateRequest) and an
// edit (IncomingWebhookUpdateRequestPartial, MessageEditRequestPartial), with
// their allowed mentions (MessageAllowedMentionsRequest), action rows
// (ActionRowComponentForMessageRequest), buttons
// (ButtonComponentForMessageRequest) and attachments
// (MessageAttachmentRequest), and the Components V2 layout a board message
// takes: the flag IS_COMPONENTS_V2 (1<<15), containers
// (ContainerComponentForMessageRequest), text displays
// (TextDisplayComponentForMessageRequest) and media galleries
// (MediaGalleryComponentForMessageRequest, MediaGalleryItemRequest,
// UnfurledMediaRequest), with the rules Discord states beside the schema: a
// V2 message carries no content and no embeds, at most 40 components
// counting nested ones, and 4000 characters across its text displays; a
// classic message only action rows. Each check returns what breaks the
// schema.

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
	maxV2Text       = 4000  // a text display's content maxLength, and all of a V2 message's text displays together
	maxGalleryItems = 10    // a media gallery's items maxItems (minItems 1)
	maxMediaURL     = 2048  // UnfurledMediaRequest.url maxLength
	maxAccent       = 0xFFFFFF
	maxDescription  = 1024 // a gallery item's description maxLength
)

// Message flags the bot may send (MessageCreateRequest.flags and the
// interaction's), and the Components V2 one.
const (
	flagSuppressEmbeds        = 1 << 2
	flagEphemeral             = 1 << 6
	flagSuppressNotifications = 1 << 12
	flagComponentsV2          = 1 << 15
	sendableFlags             = flagSuppressEmbeds | flagEphemeral | flagSuppressNotifications | flagComponentsV2
)

// Component types (MessageComponentTypes) a message may hold.
const (
	typeActionRow    = 1
	typeButton       = 2
	typeSection      = 9
	typeTextDisplay  = 10
	typeMediaGallery = 12
	typeFile         = 13
	typeSeparator    = 14
	typeContainer    = 17
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
	Embeds          []json.RawMessage `json:"embeds"`
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

// CheckMessage checks a message's body as the fake checks every one it
// receives (a reply's data, a new message, an edit), for tests that hold a
// body the fake never sees, such as the HTTP endpoint's inline replies.
// files are the multipart parts files[n]'s names by n (nil: JSON alone).
func CheckMessage(body []byte, files map[string]string) []string { return checkMessage(body, files) }

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
	if m.Flags != nil && *m.Flags&^sendableFlags != 0 {
		errs = append(errs, fmt.Sprintf("flags %d set bits a message may not", *m.Flags))
	}
	if len(m.Components) > maxComponents {
		errs = append(errs, fmt.Sprintf("%d components", len(m.Components)))
	}
	if m.Flags != nil && *m.Flags&flagComponentsV2 != 0 {
		errs = append(errs, checkV2(m, attachedNames(m, files))...)
	} else {
		for _, c := range m.Components {
			errs = append(errs, checkActionRow(c)...)
		}
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

// attachedNames are the file names a message's attachments name, which
// its media may refer to as attachment://name; nil when the body came
// without files (an edit may refer to the message's earlier ones).
func attachedNames(m message, files map[string]string) map[string]bool {
	if files == nil {
		return nil
	}
	names := map[string]bool{}
	for _, a := range m.Attachments {
		if a.ID != nil && files[*a.ID] != "" {
			names[files[*a.ID]] = true
		}
	}
	return names
}

// checkV2 checks a message flagged IS_COMPONENTS_V2: no content and no
// embeds (absent or null; null is what makes a classic message V2 in an
// edit); every top-level component one of a message's (ActionRow,
// Container, File, MediaGallery, Section, Separator, TextDisplay); at most
// maxComponents of them counting nested ones; at most maxV2Text characters
// across its text displays. attached are the files sent with it (nil: not
// known).
func checkV2(m message, attached map[string]bool) []string {
	var errs []string
	if m.Content != nil {
		errs = append(errs, "content beside the IS_COMPONENTS_V2 flag")
	}
	if len(m.Embeds) > 0 {
		errs = append(errs, "embeds beside the IS_COMPONENTS_V2 flag")
	}
	if len(m.Components) == 0 {
		errs = append(errs, "a Components V2 message without components")
	}
	v := &v2Walk{attached: attached}
	for _, c := range m.Components {
		v.top(c, false)
	}
	if v.count > maxComponents {
		v.errs = append(v.errs, fmt.Sprintf("%d components counting nested ones, over %d", v.count, maxComponents))
	}
	if v.text > maxV2Text {
		v.errs = append(v.errs, fmt.Sprintf("%d characters across the text displays, over %d", v.text, maxV2Text))
	}
	return append(errs, v.errs...)
}

// v2Walk checks a Components V2 message's components, counting them and
// their text as it goes.
type v2Walk struct {
	attached map[string]bool
	count    int // components, nested ones counted
	text     int // characters across text displays
	errs     []string
}

// top checks one component of a message, or of a container (inContainer):
// the same kinds but a container, which holds none.
func (v *v2Walk) top(raw json.RawMessage, inContainer bool) {
	var head struct {
		Type *int `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil || head.Type == nil {
		v.errs = append(v.errs, "a component without a type")
		return
	}
	v.count++
	switch *head.Type {
	case typeActionRow:
		errs := checkActionRow(raw)
		v.errs = append(v.errs, errs...)
		var row struct {
			Components []json.RawMessage `json:"components"`
		}
		json.Unmarshal(raw, &row)
		v.count += len(row.Components)
	case typeTextDisplay:
		var t struct {
			Type    int     `json:"type"`
			ID      *int    `json:"id"`
			Content *string `json:"content"`
		}
		if err := strictDecode(raw, &t); err != nil {
			v.errs = append(v.errs, "text display: "+err.Error())
			return
		}
		switch n := len([]rune(deref(t.Content))); {
		case t.Content == nil:
			v.errs = append(v.errs, "a text display without content")
		case n < 1 || n > maxV2Text:
			v.errs = append(v.errs, fmt.Sprintf("a text display of %d characters", n))
		default:
			v.text += n
		}
	case typeMediaGallery:
		v.gallery(raw)
	case typeContainer:
		if inContainer {
			v.errs = append(v.errs, "a container in a container")
			return
		}
		v.container(raw)
	case typeSection, typeFile, typeSeparator:
		v.errs = append(v.errs, fmt.Sprintf("component type %d: valid, but the bot sends none and this fake does not check it", *head.Type))
	default:
		v.errs = append(v.errs, fmt.Sprintf("component type %d is not one a message's components may be", *head.Type))
	}
}

// container checks a container and what it holds.
func (v *v2Walk) container(raw json.RawMessage) {
	var c struct {
		Type        int               `json:"type"`
		ID          *int              `json:"id"`
		AccentColor *int              `json:"accent_color"`
		Spoiler     *bool             `json:"spoiler"`
		Components  []json.RawMessage `json:"components"`
	}
	if err := strictDecode(raw, &c); err != nil {
		v.errs = append(v.errs, "container: "+err.Error())
		return
	}
	if a := c.AccentColor; a != nil && (*a < 0 || *a > maxAccent) {
		v.errs = append(v.errs, fmt.Sprintf("accent_color %d", *a))
	}
	if n := len(c.Components); n < 1 || n > maxComponents {
		v.errs = append(v.errs, fmt.Sprintf("a container of %d components", n))
	}
	for _, inner := range c.Components {
		v.top(inner, true)
	}
}

// gallery checks a media gallery: 1–10 items, each a media URL that is a
// URI, and an attachment://name that names a file sent with the message.
func (v *v2Walk) gallery(raw json.RawMessage) {
	var g struct {
		Type  int  `json:"type"`
		ID    *int `json:"id"`
		Items []struct {
			Media *struct {
				URL *string `json:"url"`
			} `json:"media"`
			Description *string `json:"description"`
			Spoiler     *bool   `json:"spoiler"`
		} `json:"items"`
	}
	if err := strictDecode(raw, &g); err != nil {
		v.errs = append(v.errs, "media gallery: "+err.Error())
		return
	}
	if n := len(g.Items); n < 1 || n > maxGalleryItems {
		v.errs = append(v.errs, fmt.Sprintf("a media gallery of %d items", n))
	}
	for _, it := range g.Items {
		if it.Description != nil && (len([]rune(*it.Description)) < 1 || len([]rune(*it.Description)) > maxDescription) {
			v.errs = append(v.errs, "a gallery item's description")
		}
		if it.Media == nil || it.Media.URL == nil {
			v.errs = append(v.errs, "a gallery item without media.url")
			continue
		}
		u := *it.Media.URL
		name, isAttachment := strings.CutPrefix(u, "attachment://")
		switch {
		case len(u) > maxMediaURL || !uri.MatchString(u):
			v.errs = append(v.errs, fmt.Sprintf("media url %q", u))
		case isAttachment && v.attached != nil && !v.attached[name]:
			v.errs = append(v.errs, fmt.Sprintf("media %q names no file sent with the message", u))
		}
	}
}

// uri is a URI's scheme and rest (format "uri").
var uri = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$`)

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
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
