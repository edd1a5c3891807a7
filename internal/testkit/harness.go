package testkit

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Build compiles the module in dir into the file out, with the environment
// and flags of the Dockerfile in dir: what is measured or tested is what the
// image ships.
func Build(ctx context.Context, dir, out string) error {
	env, flags, err := dockerBuild(filepath.Join(dir, "Dockerfile"))
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", append(append([]string{"build"}, flags...), "-o", out, ".")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, msg)
	}
	return nil
}

// dockerBuildLine is the Dockerfile's go build, its flags in the group.
var dockerBuildLine = regexp.MustCompile(`go build (.*?) -o `)

// dockerBuild reads the go build environment and flags from the Dockerfile
// at path. The image is static (distroless has no libc), so a Dockerfile
// that no longer sets CGO_ENABLED=0 is an error, not a detail.
func dockerBuild(path string) (env, flags []string, err error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	text := string(raw)
	if !strings.Contains(text, "ENV CGO_ENABLED=0") {
		return nil, nil, fmt.Errorf("%s no longer builds with CGO_ENABLED=0", path)
	}
	m := dockerBuildLine.FindStringSubmatch(text)
	if m == nil {
		return nil, nil, fmt.Errorf("%s has no go build line", path)
	}
	return []string{"CGO_ENABLED=0"}, shellFields(m[1]), nil
}

// shellFields splits s at spaces outside double quotes and drops the quotes,
// as the Dockerfile's shell does for -ldflags="-s -w".
func shellFields(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, started := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, started = !quoted, true
		case r == ' ' && !quoted:
			if started {
				out = append(out, cur.String())
				cur.Reset()
				started = false
			}
		default:
			cur.WriteRune(r)
			started = true
		}
	}
	if started {
		out = append(out, cur.String())
	}
	return out
}

// FreeAddr is a 127.0.0.1 address with a port nothing listens on now.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// BotEnv is the environment the bot needs to serve HTTP interactions on
// addr, signed by the key publicHex, on databaseURL; it logs warnings and
// errors only.
func BotEnv(addr, publicHex, databaseURL string) []string {
	return []string{"HTTP_ADDR=" + addr, "DISCORD_PUBLIC_KEY=" + publicHex, "DATABASE_URL=" + databaseURL, "LOG_LEVEL=warn"}
}

// Start runs name with args in dir with exactly env, its output to log.
func Start(dir string, env []string, log io.Writer, name string, args ...string) (*exec.Cmd, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, log, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return cmd, nil
}

// WaitHealthy polls http://addr/healthz until it answers 200, for at most
// patience.
func WaitHealthy(ctx context.Context, c *http.Client, addr string, patience time.Duration) error {
	deadline := time.Now().Add(patience)
	for {
		res, err := c.Get("http://" + addr + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
			err = errors.New(res.Status)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s never answered /healthz: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop asks a process to finish (SIGTERM: the bot finishes the replies in
// flight and closes its store) and waits for it, killing it after 15 s.
func Stop(cmd *exec.Cmd) {
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}

// Kill sends SIGKILL, giving the process no chance to flush or finish
// anything, and waits for it; a process already waited for is left alone.
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil && cmd.ProcessState == nil {
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
	}
}

// Metrics reads http://addr/metrics: each sample without labels, by name.
func Metrics(c *http.Client, addr string) (map[string]float64, error) {
	res, err := c.Get("http://" + addr + "/metrics")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("/metrics: %s", res.Status)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(name, "#") || strings.Contains(name, "{") {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return nil, fmt.Errorf("/metrics: %q: %v", sc.Text(), err)
		}
		out[name] = v
	}
	return out, sc.Err()
}
