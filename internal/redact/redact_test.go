package redact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"testing"
)

func TestRedactorString(t *testing.T) {
	r := New("tok.en.secret", "hunter2", "", "hunter2-long")
	for _, tt := range []struct {
		name, in, want string
	}{
		{"KnownValue", "Authorization: Bot tok.en.secret failed", "Authorization: Bot REDACTED failed"},
		{"LongestFirst", "pw hunter2-long", "pw REDACTED"},
		{"URLUserInfo", "dial postgres://bob:s3cr3t@db:5432/x: refused", "dial postgres://REDACTED@db:5432/x: refused"},
		{"URLUserInfoWithAt", "postgres://bob:p@ss@db/x", "postgres://REDACTED@db/x"},
		{"URLUserOnly", "GET https://tokenish@proxy/api", "GET https://REDACTED@proxy/api"},
		{"QueryPassword", "postgres://db/x?sslmode=disable&password=s3cr3t&user=bob", "postgres://db/x?sslmode=disable&password=REDACTED&user=bob"},
		{"KeywordDSN", "host=db user=bob password=s3cr3t dbname=x", "host=db user=bob password=REDACTED dbname=x"},
		{"KeywordDSNQuoted", "host=db password='s3 cr\\'et' dbname=x", "host=db password=REDACTED dbname=x"},
		{"SSLPassword", "sslpassword = s3cr3t", "sslpassword = REDACTED"},
		{"NothingSecret", "user=bob host=db https://discord.com/api/v9 a@b", "user=bob host=db https://discord.com/api/v9 a@b"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	t.Run("NilRedactorScrubsShapes", func(t *testing.T) {
		var r *Redactor
		if got := r.String("password=x"); got != "password=REDACTED" {
			t.Errorf("got %q", got)
		}
	})
}

func TestRedactorError(t *testing.T) {
	r := New("hunter2")
	t.Run("MessageScrubbedChainKept", func(t *testing.T) {
		err := r.Error(fmt.Errorf("open db with hunter2: %w", fs.ErrPermission))
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("error holds the secret: %v", err)
		}
		if !errors.Is(err, fs.ErrPermission) {
			t.Error("errors.Is lost the wrapped sentinel")
		}
	})
	t.Run("Nil", func(t *testing.T) {
		if r.Error(nil) != nil {
			t.Error("nil became an error")
		}
	})
}

type stringer struct{ s string }

func (s stringer) String() string { return s.s }

type valuer struct{ s string }

func (v valuer) LogValue() slog.Value { return slog.GroupValue(slog.String("inner", v.s)) }

type record struct {
	Name     string
	Password string
}

// TestHandlerKeepsSecretsOut logs each secret in every place a slog record
// can carry one, at every level, through both standard handlers.
func TestHandlerKeepsSecretsOut(t *testing.T) {
	const secret = "Sup3r.S3cret.T0ken"
	levels := []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError}
	wrapped := fmt.Errorf("store: %w", fmt.Errorf("driver: auth %s rejected", secret))
	for _, tt := range []struct {
		name string
		log  func(l *slog.Logger, level slog.Level)
	}{
		{"Message", func(l *slog.Logger, lv slog.Level) { l.Log(context.Background(), lv, "token "+secret) }},
		{"StringAttr", func(l *slog.Logger, lv slog.Level) { l.Log(context.Background(), lv, "m", "token", secret) }},
		{"WrappedError", func(l *slog.Logger, lv slog.Level) { l.Log(context.Background(), lv, "m", "err", wrapped) }},
		{"JoinedError", func(l *slog.Logger, lv slog.Level) {
			l.Log(context.Background(), lv, "m", "err", errors.Join(errors.New("a"), wrapped))
		}},
		{"Stringer", func(l *slog.Logger, lv slog.Level) { l.Log(context.Background(), lv, "m", "s", stringer{secret}) }},
		{"LogValuer", func(l *slog.Logger, lv slog.Level) { l.Log(context.Background(), lv, "m", "v", valuer{secret}) }},
		{"Struct", func(l *slog.Logger, lv slog.Level) {
			l.Log(context.Background(), lv, "m", "r", record{"bob", secret})
		}},
		{"Map", func(l *slog.Logger, lv slog.Level) {
			l.Log(context.Background(), lv, "m", "m", map[string]string{"password": secret})
		}},
		{"Group", func(l *slog.Logger, lv slog.Level) {
			l.Log(context.Background(), lv, "m", slog.Group("g", slog.Group("h", "k", secret)))
		}},
		{"WithAttrs", func(l *slog.Logger, lv slog.Level) { l.With("token", secret).Log(context.Background(), lv, "m") }},
		{"WithGroup", func(l *slog.Logger, lv slog.Level) {
			l.WithGroup("g").With("e", wrapped).Log(context.Background(), lv, "m", "k", secret)
		}},
		{"Key", func(l *slog.Logger, lv slog.Level) { l.Log(context.Background(), lv, "m", secret, 1) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, mk := range []func(*bytes.Buffer) slog.Handler{
				func(b *bytes.Buffer) slog.Handler {
					return slog.NewJSONHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug})
				},
				func(b *bytes.Buffer) slog.Handler {
					return slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug})
				},
			} {
				var buf bytes.Buffer
				l := slog.New(NewHandler(mk(&buf), secret))
				for _, lv := range levels {
					tt.log(l, lv)
				}
				out := buf.String()
				if strings.Count(out, "\n") != len(levels) {
					t.Fatalf("want %d lines, got:\n%s", len(levels), out)
				}
				if strings.Contains(out, secret) {
					t.Errorf("secret reached the log:\n%s", out)
				}
				if !strings.Contains(out, Mark) {
					t.Errorf("no %s mark where the secret was:\n%s", Mark, out)
				}
			}
		})
	}
	t.Run("CleanValuesKeepTheirShape", func(t *testing.T) {
		var buf bytes.Buffer
		slog.New(NewHandler(slog.NewJSONHandler(&buf, nil), secret)).Info("m", "n", 3, "r", record{"bob", "x"})
		if !strings.Contains(buf.String(), `"n":3`) || !strings.Contains(buf.String(), `"r":{"Name":"bob","Password":"x"}`) {
			t.Errorf("clean values changed: %s", buf.String())
		}
	})
	t.Run("EnabledFollowsNext", func(t *testing.T) {
		h := NewHandler(slog.NewJSONHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelWarn}))
		if h.Enabled(context.Background(), slog.LevelInfo) || !h.Enabled(context.Background(), slog.LevelError) {
			t.Error("Enabled does not follow the wrapped handler")
		}
	})
}
