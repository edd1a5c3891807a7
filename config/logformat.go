package config

import "fmt"

// LogFormat is how log lines are written (LOG_FORMAT).
type LogFormat int

// The log formats.
const (
	// LogText writes key=value lines (slog's text handler): for a person
	// reading a terminal or `docker compose logs`. The default.
	LogText LogFormat = iota
	// LogJSON writes one JSON object a line (slog's JSON handler): for a log
	// shipper (Loki, Elasticsearch, a cloud's log service).
	LogJSON
)

// String returns the format as LOG_FORMAT spells it.
func (f LogFormat) String() string {
	switch f {
	case LogText:
		return "text"
	case LogJSON:
		return "json"
	}
	return fmt.Sprintf("LogFormat(%d)", int(f))
}

// UnmarshalText reads text or json, in any case.
func (f *LogFormat) UnmarshalText(text []byte) error {
	switch string(text) {
	case "text", "TEXT", "Text":
		*f = LogText
	case "json", "JSON", "Json":
		*f = LogJSON
	default:
		return fmt.Errorf("unknown log format %q", text)
	}
	return nil
}
