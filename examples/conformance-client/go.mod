module github.com/mcpgen/mcpgen/examples/conformance-client

go 1.26.8

replace (
	github.com/mcpgen/mcpgen => ../../
	github.com/mcpgen/mcpgen/runtime/client/sdkclient => ../../runtime/client/sdkclient
)

require (
	github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000
	github.com/mcpgen/mcpgen/runtime/client/sdkclient v0.0.0-00010101000000-000000000000
	github.com/modelcontextprotocol/go-sdk v1.8.0
)

require (
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/segmentio/asm v1.2.1 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
