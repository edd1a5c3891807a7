package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// composeFile is compose.yaml as the test reads it.
type composeFile struct {
	Services map[string]struct {
		Image       string
		Build       any
		EnvFile     any            `yaml:"env_file"`
		Environment map[string]any // compose.yaml writes it as a map
		Ports       []string
		Healthcheck *struct{ Test []string }
		DependsOn   map[string]struct{ Condition string } `yaml:"depends_on"`
		Deploy      *struct{ Replicas int }
		Volumes     []string
	}
	Volumes map[string]any
	Configs map[string]any
}

// interpolated are the variables compose.yaml reads from .env: ${NAME…}.
var interpolated = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)`)

// TestComposeFile: compose.yaml parses, as it is and as its commented
// two-replica variant reads once uncommented as it says; both services have
// health checks, PostgreSQL keeps its data in a named volume, the bot waits
// for it to be healthy; and every variable it sets or reads is documented
// in .env.example.
func TestComposeFile(t *testing.T) {
	raw, err := os.ReadFile("compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile(".env.example")
	if err != nil {
		t.Fatal(err)
	}
	documented := func(key string) bool {
		return regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(key) + `=`).Match(example)
	}
	for _, variant := range []struct {
		name string
		text string
	}{{"OneBot", string(raw)}, {"Replicas", replicasVariant(string(raw))}} {
		t.Run(variant.name, func(t *testing.T) {
			var c composeFile
			if err := yaml.Unmarshal([]byte(variant.text), &c); err != nil {
				t.Fatalf("compose.yaml (%s) does not parse: %v\n%s", variant.name, err, variant.text)
			}
			pg, bot := c.Services["postgres"], c.Services["bot"]
			if pg.Healthcheck == nil || bot.Healthcheck == nil || !strings.Contains(strings.Join(bot.Healthcheck.Test, " "), "tttbot healthcheck") {
				t.Errorf("health checks: postgres %+v, bot %+v", pg.Healthcheck, bot.Healthcheck)
			}
			if bot.DependsOn["postgres"].Condition != "service_healthy" || bot.EnvFile != ".env" {
				t.Errorf("the bot: depends on %+v, env_file %v", bot.DependsOn, bot.EnvFile)
			}
			volume, _, _ := strings.Cut(strings.Join(pg.Volumes, ""), ":")
			if _, named := c.Volumes[volume]; !named {
				t.Errorf("PostgreSQL's data is not in a named volume: %v", pg.Volumes)
			}
			for name, s := range c.Services {
				for key := range s.Environment {
					if !documented(key) {
						t.Errorf("service %s sets %s, which .env.example does not document", name, key)
					}
				}
			}
			if variant.name == "Replicas" {
				if bot.Deploy == nil || bot.Deploy.Replicas != 2 || len(bot.Ports) != 0 || len(c.Services["lb"].Ports) != 1 || c.Configs["lb"] == nil {
					t.Errorf("the replicas variant: bot %+v, lb %+v, configs %v", bot, c.Services["lb"], c.Configs)
				}
			} else if bot.Deploy != nil || c.Services["lb"].Image != "" || len(bot.Ports) != 1 {
				t.Errorf("the one-bot file runs replicas or a load balancer: %+v", c.Services)
			}
		})
	}
	for _, m := range interpolated.FindAllStringSubmatch(string(raw), -1) {
		if !documented(m[1]) {
			t.Errorf("compose.yaml reads ${%s}, which .env.example does not document", m[1])
		}
	}
}

// replicasVariant is compose.yaml edited as its header says: the lines
// marked "one bot only" deleted, and the lines between ">>> replicas" and
// "<<< replicas" uncommented.
func replicasVariant(text string) string {
	var out []string
	in := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.Contains(line, "# one bot only"):
			continue
		case strings.HasPrefix(line, "# >>> replicas"):
			in = true
		case strings.HasPrefix(line, "# <<< replicas"):
			in = false
		case in:
			line = strings.TrimPrefix(line, "#")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
