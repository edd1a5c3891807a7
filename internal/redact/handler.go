package redact

import (
	"context"
	"log/slog"
)

// Handler is a slog.Handler that scrubs every record before the next
// handler sees it: the message, every attribute key and value (also those
// added with WithAttrs, inside groups, and those a slog.LogValuer or an
// error produces), and group names.
type Handler struct {
	next slog.Handler
	r    *Redactor
}

// NewHandler wraps next so that none of secrets, nor any URL user info or
// password=… pair, reaches it.
func NewHandler(next slog.Handler, secrets ...string) *Handler {
	return &Handler{next: next, r: New(secrets...)}
}

// Enabled reports whether the next handler handles records at level.
func (h *Handler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

// Handle scrubs rec and passes it on.
func (h *Handler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.String(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

// WithAttrs scrubs attrs once and hands them to the next handler.
func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = h.attr(a)
	}
	return &Handler{next: h.next.WithAttrs(clean), r: h.r}
}

// WithGroup opens a group on the next handler.
func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{next: h.next.WithGroup(h.r.String(name)), r: h.r}
}

func (h *Handler) attr(a slog.Attr) slog.Attr {
	a.Key = h.r.String(a.Key)
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(h.r.String(v.String()))
	case slog.KindGroup:
		group := v.Group()
		clean := make([]slog.Attr, len(group))
		for i, g := range group {
			clean[i] = h.attr(g)
		}
		a.Value = slog.GroupValue(clean...)
	case slog.KindAny:
		if x, changed := h.r.any(v.Any()); changed {
			a.Value = slog.AnyValue(x)
		} else {
			a.Value = v
		}
	default:
		a.Value = v
	}
	return a
}
