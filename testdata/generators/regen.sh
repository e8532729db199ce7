#!/usr/bin/env bash
# regen.sh regenerates every tools.json of testdata/generators from its
# program, checks them and the hand-written calls.json beside them (each
# valid call validates against its tool's inputSchema, each invalid call does
# not), and rewrites the keyword table in README.md.
#
# Needs: Go (the version in gogen/go.mod or newer) with access to the Go module
# proxy, Node.js 20+ and npm with access to the npm registry, python3 with
# pydantic 2.x importable. zod is installed into a temporary directory that is
# removed afterwards; nothing is installed into this tree.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"

for cmd in go node npm python3; do
	command -v "$cmd" >/dev/null || { echo "regen.sh: $cmd not found" >&2; exit 1; }
done
python3 -c 'import pydantic, sys; sys.exit(0 if pydantic.VERSION.startswith("2.") else "pydantic 2.x is needed, found " + pydantic.VERSION)'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# zod: install the version pinned in zod/package.json next to a copy of the
# program, so that its import of "zod" resolves there.
echo "== zod"
mkdir "$tmp/zod"
cp zod/package.json zod/gen.mjs "$tmp/zod/"
(cd "$tmp/zod" && npm install --no-audit --no-fund --ignore-scripts --no-package-lock --loglevel=error >/dev/null)
node "$tmp/zod/gen.mjs" >"$tmp/zod.json"
mv "$tmp/zod.json" zod/tools.json

echo "== pydantic"
python3 pydantic/gen.py >"$tmp/pydantic.json"
mv "$tmp/pydantic.json" pydantic/tools.json

# jsonschemago and invopop: the nested Go module gogen/ writes both, then
# checks all four tools.json and calls.json and writes the keyword table.
echo "== jsonschemago, invopop"
(cd gogen && go build -o "$tmp/gogen" .)
"$tmp/gogen" gen .

echo "== check"
"$tmp/gogen" check .

"$tmp/gogen" keywords -readme README.md .
echo "== done"
