package config

import (
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
		if c.Token != "abc.def" || !c.Gateway() || c.Interactions() || c.APIURL.String() != DefaultAPIURL || c.CDNURL.String() != DefaultCDNURL ||
			c.Database != (Database{Kind: SQLite, Path: "./data/tttbot.db"}) || c.IdleTimeout != 0 || c.LogLevel != slog.LevelInfo || c.LogFormat != LogText {
			t.Errorf("defaults: %+v", c)
		}
	})
	t.Run("HTTPOnly", func(t *testing.T) {
		c, err := parse(env("HTTP_ADDR", ":8080", "DISCORD_PUBLIC_KEY", publicKey, "DISCORD_API_URL", "http://127.0.0.1:9999/api/v9/",
			"GAME_IDLE_TIMEOUT", "90m", "CHALLENGE_TIMEOUT", "5m", "LOG_LEVEL", "debug", "LOG_FORMAT", "json", "DATABASE_URL", "postgres://u:secret@db/tttbot"))
		if err != nil {
			t.Fatal(err)
		}
		if c.Gateway() || !c.Interactions() || c.APIURL.String() != "http://127.0.0.1:9999/api/v9" || c.IdleTimeout != 90*time.Minute || c.ChallengeTimeout != 5*time.Minute || c.LogLevel != slog.LevelDebug || c.LogFormat != LogJSON ||
			c.Database != (Database{Kind: Postgres, DSN: "postgres://u:secret@db/tttbot"}) {
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
			"HTTP_ADDR", "8080", "DATABASE_URL", "mysql://x", "GAME_IDLE_TIMEOUT", "-1h", "CHALLENGE_TIMEOUT", "soon", "LOG_LEVEL", "loud"),
			[]string{"DISCORD_APP_ID", "DISCORD_GUILD_ID", "DISCORD_API_URL", "HTTP_ADDR", "DATABASE_URL", "GAME_IDLE_TIMEOUT", "CHALLENGE_TIMEOUT", "LOG_LEVEL"}},
		{"EveryKeyAtOnce", env("DISCORD_TOKEN", "two words", "DISCORD_APP_ID", "1", "DISCORD_PUBLIC_KEY", publicKey[:62],
			"DISCORD_GUILD_ID", "x", "DISCORD_API_URL", "/api/v9", "HTTP_ADDR", ":99999", "DATABASE_URL", "sqlite://",
			"GAME_IDLE_TIMEOUT", "0s", "LOG_LEVEL", "verbose", "LOG_FORMAT", "xml"),
			[]string{"DISCORD_TOKEN: holds spaces", "DISCORD_APP_ID: \"1\"", "DISCORD_PUBLIC_KEY: want the 64 hex", "DISCORD_GUILD_ID: \"x\"",
				"DISCORD_API_URL: \"/api/v9\" is not an absolute", "HTTP_ADDR: \":99999\" has no port number", "DATABASE_URL: sqlite:// has no path",
				"GAME_IDLE_TIMEOUT: \"0s\"", "LOG_LEVEL: \"verbose\"", "LOG_FORMAT: \"xml\" is not a format"}},
		{"EmptySQLitePath", env("DISCORD_TOKEN", "t", "DATABASE_URL", "sqlite://"), []string{"DATABASE_URL: sqlite:// has no path", DefaultDatabaseURL}},
		{"HTTPAddrNoPort", env("HTTP_ADDR", "localhost:http", "DISCORD_PUBLIC_KEY", publicKey), []string{"HTTP_ADDR: \"localhost:http\" has no port number", "e.g. :8080"}},
		{"APIURLRelative", env("DISCORD_TOKEN", "t", "DISCORD_API_URL", "discord.com/api/v9"), []string{"DISCORD_API_URL", "absolute http(s) URL"}},
		{"CDNURLRelative", env("DISCORD_TOKEN", "t", "DISCORD_CDN_URL", "cdn.discordapp.com"), []string{"DISCORD_CDN_URL", "absolute http(s) URL", DefaultCDNURL}},
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

// TestEnvExampleDocumentsEveryKey keeps .env.example in step with parse.
func TestEnvExampleDocumentsEveryKey(t *testing.T) {
	raw, err := os.ReadFile("../.env.example")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"DISCORD_TOKEN", "DISCORD_APP_ID", "DISCORD_PUBLIC_KEY", "DISCORD_GUILD_ID", "DISCORD_API_URL", "DISCORD_CDN_URL", "HTTP_ADDR", "DATABASE_URL", "GAME_IDLE_TIMEOUT", "CHALLENGE_TIMEOUT", "LOG_LEVEL", "LOG_FORMAT"} {
		if !strings.Contains(string(raw), key+"=") {
			t.Errorf(".env.example lacks %s", key)
		}
	}
}

// TestHealthzURL reads .env from the working directory as
// `tttbot healthcheck` does, so a container's health check agrees with the
// bot about HTTP_ADDR.
func TestHealthzURL(t *testing.T) {
	for _, tt := range []struct {
		name, file, env, want string
	}{
		{"FromDotEnv", "HTTP_ADDR=:8089\n", "", "http://127.0.0.1:8089/healthz"},
		{"EnvironmentWins", "HTTP_ADDR=:8089\n", "127.0.0.1:9000", "http://127.0.0.1:9000/healthz"},
		{"WildcardHostAskedOnLoopback", "HTTP_ADDR=0.0.0.0:8080\n", "", "http://127.0.0.1:8080/healthz"},
		{"IPv6Wildcard", "HTTP_ADDR=[::]:8080\n", "", "http://127.0.0.1:8080/healthz"},
		{"NamedHost", "HTTP_ADDR=bot.internal:8080\n", "", "http://bot.internal:8080/healthz"},
		{"OtherKeysIgnored", "HTTP_ADDR=:8080\nDATABASE_URL=sqlite://\n", "", "http://127.0.0.1:8080/healthz"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if err := os.WriteFile(".env", []byte(tt.file), 0o600); err != nil {
				t.Fatal(err)
			}
			if tt.env != "" {
				t.Setenv("HTTP_ADDR", tt.env)
			} else {
				unsetenv(t, "HTTP_ADDR")
			}
			got, err := HealthzURL(".env")
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("HealthzURL = %q, want %q", got, tt.want)
			}
		})
	}
	for _, tt := range []struct {
		name, file string
		want       []string
	}{
		{"Unset", "DISCORD_TOKEN=x\n", []string{"HTTP_ADDR is not set", "HTTP_ADDR=:8080"}},
		{"NoPort", "HTTP_ADDR=localhost\n", []string{"HTTP_ADDR", "is not host:port", ":8080"}},
		{"BrokenFile", "HTTP_ADDR='unclosed\n", []string{".env is not a valid .env file"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if err := os.WriteFile(".env", []byte(tt.file), 0o600); err != nil {
				t.Fatal(err)
			}
			unsetenv(t, "HTTP_ADDR")
			_, err := HealthzURL(".env")
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestBrokenEnvFileNotQuoted: godotenv quotes the broken line, which may
// hold the token (here "=" is missing).
func TestBrokenEnvFileNotQuoted(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	if err := os.WriteFile(path, []byte("HTTP_ADDR=:8080\nDISCORD_TOKEN tok.secret.value\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil {
		t.Fatal("a broken .env loaded")
	}
	if strings.Contains(err.Error(), "tok.secret") {
		t.Errorf("error quotes the file: %v", err)
	}
}

// unsetenv unsets key for the test and restores it after.
func unsetenv(t *testing.T, key string) {
	t.Helper()
	t.Setenv(key, "") // registers the restore
	os.Unsetenv(key)
}
