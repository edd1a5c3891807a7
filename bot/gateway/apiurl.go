package gateway

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// apiTransport sends discordgo's REST calls to another base URL (a REST
// proxy, or a fake Discord in tests). discordgo computes its endpoint URLs
// once at start-up from package variables, so rewriting each request is the
// way to redirect one Session without touching globals other Sessions share.
type apiTransport struct {
	base http.RoundTripper
	from string   // discordgo's API prefix, e.g. https://discord.com/api/v9/
	to   *url.URL // the configured base, e.g. http://127.0.0.1:8080/api/v9
}

// APIClient returns an HTTP client for discordgo's Session.Client whose
// requests to Discord's API go to apiURL instead. base nil means
// http.DefaultTransport.
func APIClient(apiURL *url.URL, base http.RoundTripper) *http.Client {
	if base == nil {
		base = http.DefaultTransport
	}
	return &http.Client{Transport: &apiTransport{base: base, from: discordgo.EndpointAPI, to: apiURL}}
}

func (t *apiTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	u := req.URL.String()
	if t.to == nil || !strings.HasPrefix(u, t.from) {
		return t.base.RoundTrip(req)
	}
	target, err := url.Parse(strings.TrimSuffix(t.to.String(), "/") + "/" + strings.TrimPrefix(u, t.from))
	if err != nil {
		return nil, err
	}
	out := req.Clone(req.Context())
	out.URL = target
	out.Host = target.Host
	return t.base.RoundTrip(out)
}
