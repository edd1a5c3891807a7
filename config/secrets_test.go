package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/redact"
)

// Every secret a configuration can hold, each distinct so a grep finds it.
const (
	secretToken     = "MTA5.Gx7Tok3n.SeCrEt-value"
	secretDBPass    = "pg/Pa$$w0rd" // needs escaping in a URL
	secretQueryPass = "qPassw0rdInQuery"
	secretSSLPass   = "sslKeyPassphrase9"
	secretAPIUser   = "proxyuser77"
	secretAPIPass   = "proxyPass88"
	secretCDNUser   = "cdnuser55"
	secretCDNPass   = "cdnPass66"
)

var allSecrets = []string{secretToken, secretDBPass, url.QueryEscape(secretDBPass), url.PathEscape(secretDBPass),
	strings.TrimPrefix(url.UserPassword("", secretDBPass).String(), ":"), secretQueryPass, secretSSLPass, secretAPIUser, secretAPIPass, secretCDNUser, secretCDNPass}

func everySecretSet(t testing.TB) Config {
	t.Helper()
	dsn := "postgres://tttbot:" + url.QueryEscape(secretDBPass) + "@db:5432/tttbot?sslmode=verify-full&password=" +
		secretQueryPass + "&sslpassword=" + secretSSLPass
	c, err := parse(env(
		"DISCORD_TOKEN", "Bot "+secretToken,
		"DISCORD_APP_ID", "123456789012345678",
		"DISCORD_PUBLIC_KEY", publicKey,
		"DISCORD_GUILD_ID", "123456789012345679",
		"DISCORD_API_URL", "https://"+secretAPIUser+":"+secretAPIPass+"@proxy.example/api/v9",
		"DISCORD_CDN_URL", "https://"+secretCDNUser+":"+secretCDNPass+"@cdn-proxy.example",
		"HTTP_ADDR", ":8080",
		"DATABASE_URL", dsn,
		"GAME_IDLE_TIMEOUT", "1h",
		"LOG_LEVEL", "debug",
	))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func checkNoSecret(t testing.TB, where, out string) {
	t.Helper()
	for _, s := range allSecrets {
		if strings.Contains(out, s) {
			t.Errorf("%s holds secret %q:\n%s", where, s, out)
		}
	}
}

// TestSecretsNeverLogged starts as main does (a redacting handler built
// from the config's secrets), logs the config and errors carrying every
// secret in every form a driver or an HTTP client prints them, at every
// level, then greps the output for each secret.
func TestSecretsNeverLogged(t *testing.T) {
	c := everySecretSet(t)
	dsn := c.Database.DSN
	driverErrs := []error{
		fmt.Errorf("postgres: %w", fmt.Errorf("failed to connect to `%s`: password authentication failed", dsn)),
		fmt.Errorf("postgres: cannot parse `host=db user=tttbot password=%s sslpassword='%s' dbname=tttbot`", secretDBPass, secretSSLPass),
		errors.Join(errors.New("gateway"), fmt.Errorf("GET %s/gateway/bot: 401, Authorization: Bot %s", c.APIURL, secretToken)),
		&url.Error{Op: "Get", URL: c.APIURL.String() + "/users/@me", Err: errors.New("EOF")},
		fmt.Errorf("decoded %s, escaped %s, %s, %s, query %s", secretDBPass, url.QueryEscape(secretDBPass),
			url.PathEscape(secretDBPass), url.UserPassword("", secretDBPass), secretQueryPass),
	}
	for _, lv := range []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError} {
		t.Run(lv.String(), func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(redact.NewHandler(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: c.LogLevel}), c.Secrets()...))
			ctx := context.Background()
			log.Log(ctx, lv, "starting", "config", c)
			log.Log(ctx, lv, "database", "db", c.Database, "api", c.APIURL, "token", c.Token)
			for _, err := range driverErrs {
				log.Log(ctx, lv, "store failed: "+err.Error(), "err", err)
				log.With("err", err).WithGroup("g").Log(ctx, lv, "wrapped", "err", fmt.Errorf("open: %w", err))
			}
			out := buf.String()
			if n := strings.Count(out, "\n"); n != 2+2*len(driverErrs) {
				t.Fatalf("want %d lines, got %d:\n%s", 2+2*len(driverErrs), n, out)
			}
			checkNoSecret(t, "log", out)
		})
	}
	// The application's logger in each LOG_FORMAT: text quotes and escapes
	// values differently from JSON, and neither may let a secret through.
	for _, format := range []LogFormat{LogText, LogJSON} {
		t.Run("Logger/"+format.String(), func(t *testing.T) {
			c := c
			c.LogFormat = format
			var buf bytes.Buffer
			log := c.Logger(&buf)
			log.Debug("starting", "config", c, "err", driverErrs[0])
			log.Error("token "+secretToken, "err", driverErrs[2])
			log.With("db", c.Database).WithGroup("store").Warn("retry", "err", driverErrs[1], "url", c.APIURL)
			if n := strings.Count(buf.String(), "\n"); n != 3 {
				t.Fatalf("want 3 lines at LOG_LEVEL=debug, got:\n%s", buf.String())
			}
			checkNoSecret(t, "log", buf.String())
			if json := strings.HasPrefix(buf.String(), "{"); json != (format == LogJSON) {
				t.Errorf("LOG_FORMAT=%s wrote:\n%s", format, buf.String())
			}
		})
	}
	t.Run("LogValueWithoutHandler", func(t *testing.T) {
		var buf bytes.Buffer
		slog.New(slog.NewTextHandler(&buf, nil)).Info("starting", "config", c)
		checkNoSecret(t, "log", buf.String())
		for _, want := range []string{"proxy.example/api/v9", "@db:5432/tttbot", "gateway=true"} {
			if !strings.Contains(buf.String(), want) {
				t.Errorf("log lacks %q: %s", want, buf.String())
			}
		}
	})
	t.Run("Formatted", func(t *testing.T) {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			checkNoSecret(t, verb, fmt.Sprintf(verb, c))
		}
	})
	t.Run("RedactorOnError", func(t *testing.T) {
		for _, err := range driverErrs {
			checkNoSecret(t, "error", c.Redactor().Error(err).Error())
		}
	})
}

// TestConfigErrorsNeverQuoteSecrets checks that refusing a broken value does
// not print the secret in it.
func TestConfigErrorsNeverQuoteSecrets(t *testing.T) {
	for _, tt := range []struct {
		name, key, value string
	}{
		{"TokenWithSpace", "DISCORD_TOKEN", secretToken + " x"},
		{"APIURLWrongScheme", "DISCORD_API_URL", "ftp://" + secretAPIUser + ":" + secretAPIPass + "@proxy/api"},
		{"APIURLUnparseable", "DISCORD_API_URL", "https://" + secretAPIUser + ":" + secretAPIPass + "@proxy:port/api"},
		{"CDNURLWrongScheme", "DISCORD_CDN_URL", "ftp://" + secretCDNUser + ":" + secretCDNPass + "@cdn"},
		{"CDNURLUnparseable", "DISCORD_CDN_URL", "https://" + secretCDNUser + ":" + secretCDNPass + "@cdn:port"},
		{"DatabaseNoHost", "DATABASE_URL", "postgres://u:" + secretQueryPass + "@/x?password=" + secretSSLPass},
		{"DatabaseUnknownScheme", "DATABASE_URL", "mysql://u:" + secretQueryPass + "@db/x"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(env("DISCORD_TOKEN", "t", tt.key, tt.value))
			if err == nil || !strings.Contains(err.Error(), tt.key) {
				t.Fatalf("want an error naming %s, got %v", tt.key, err)
			}
			checkNoSecret(t, "error", err.Error())
		})
	}
}
