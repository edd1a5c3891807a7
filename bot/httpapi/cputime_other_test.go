//go:build !unix

package httpapi

import (
	"testing"
	"time"
)

// cpuTime is unknown here: reportCPU reports nothing.
func cpuTime() time.Duration { return 0 }

func reportCPU(*testing.B, time.Duration) {}
