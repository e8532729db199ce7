package mcphttp

import "context"

// WithDrain is the context a Server serves its connections under, ended
// by drain as a shutdown's is: for benchmarks and tests that call a
// Handler in process as a Server would.
func WithDrain(drain context.Context) context.Context { return withDrain(drain) }
