package config

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const publicKey = "e9bd6d4a0ce9a5b8d63a8d1e5b3c2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b"

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestParse(t *testing.T) {
	t.Run("GatewayDefaults", func(t *testing.T) {
		c, err := parse(env("DISCORD_TOKEN", "Bot abc.def"))
		if err != nil {
			t.Fatal(err)
		}
		if c.Token != "abc.def" || !c.Gateway() || c.Interactions() || c.APIURL.String() != DefaultAPIURL ||
			c.DatabaseURL != DefaultDatabaseURL || c.IdleTimeout != 24*time.Hour || c.LogLevel != slog.LevelInfo {
			t.Errorf("defaults: %+v", c)
		}
	})
	t.Run("HTTPOnly", func(t *testing.T) {
		c, err := parse(env("HTTP_ADDR", ":8080", "DISCORD_PUBLIC_KEY", publicKey, "DISCORD_API_URL", "http://127.0.0.1:9999/api/v9/",
			"GAME_IDLE_TIMEOUT", "90m", "LOG_LEVEL", "debug", "DATABASE_URL", "postgres://u:secret@db/tttbot"))
		if err != nil {
			t.Fatal(err)
		}
		if c.Gateway() || !c.Interactions() || c.APIURL.String() != "http://127.0.0.1:9999/api/v9" || c.IdleTimeout != 90*time.Minute || c.LogLevel != slog.LevelDebug {
			t.Errorf("%+v", c)
		}
	})
	for _, tt := range []struct {
		name string
		env  func(string) string
		want []string // every key named in the error
	}{
		{"Empty", env(), []string{"nothing to run"}},
		{"HTTPWithoutKey", env("HTTP_ADDR", ":8080"), []string{"DISCORD_PUBLIC_KEY is not"}},
		{"BadKey", env("HTTP_ADDR", ":8080", "DISCORD_PUBLIC_KEY", "xyz"), []string{"DISCORD_PUBLIC_KEY: want the 64 hex"}},
		{"Many", env("DISCORD_TOKEN", "t", "DISCORD_APP_ID", "my-app", "DISCORD_GUILD_ID", "12", "DISCORD_API_URL", "ftp://x",
			"HTTP_ADDR", "8080", "DATABASE_URL", "mysql://x", "GAME_IDLE_TIMEOUT", "-1h", "LOG_LEVEL", "loud"),
			[]string{"DISCORD_APP_ID", "DISCORD_GUILD_ID", "DISCORD_API_URL", "HTTP_ADDR", "DATABASE_URL", "GAME_IDLE_TIMEOUT", "LOG_LEVEL"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(tt.env)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestLoadFileAndEnvironmentWins(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	os.WriteFile(path, []byte("# comment\nDISCORD_TOKEN=from-file\nDISCORD_GUILD_ID=123456789012345678\n"), 0o600)
	t.Setenv("DISCORD_TOKEN", "from-env")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Token != "from-env" || c.GuildID != "123456789012345678" {
		t.Errorf("token %q guild %q", c.Token, c.GuildID)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.env")); err != nil {
		t.Errorf("a missing .env should be fine: %v", err)
	}
}

func TestSecretsNeverLogged(t *testing.T) {
	c, err := parse(env("DISCORD_TOKEN", "super-secret-token", "HTTP_ADDR", ":1", "DISCORD_PUBLIC_KEY", publicKey, "DATABASE_URL", "postgres://u:hunter2@db/x"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("config", "config", c)
	for _, secret := range []string{"super-secret-token", "hunter2"} {
		if strings.Contains(buf.String(), secret) {
			t.Errorf("log line holds %q: %s", secret, buf.String())
		}
	}
}

// TestEnvExampleDocumentsEveryKey keeps .env.example in step with parse.
func TestEnvExampleDocumentsEveryKey(t *testing.T) {
	raw, err := os.ReadFile("../.env.example")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"DISCORD_TOKEN", "DISCORD_APP_ID", "DISCORD_PUBLIC_KEY", "DISCORD_GUILD_ID", "DISCORD_API_URL", "HTTP_ADDR", "DATABASE_URL", "GAME_IDLE_TIMEOUT", "LOG_LEVEL"} {
		if !strings.Contains(string(raw), key+"=") {
			t.Errorf(".env.example lacks %s", key)
		}
	}
}
