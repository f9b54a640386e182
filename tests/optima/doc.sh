#!/bin/sh
# docs/optima.md is what trees/optima/table.sh makes of the table's files:
# nobody edits it by hand, and nobody forgets to remake it.
#
#   sh doc.sh SOURCE-ROOT
set -u
root=$1
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
sh "$root/trees/optima/table.sh" >"$tmp" || exit 1
if ! cmp -s "$tmp" "$root/docs/optima.md"; then
    echo "FAIL: docs/optima.md is not what trees/optima/table.sh makes; remake it:" >&2
    echo "  sh trees/optima/table.sh > docs/optima.md" >&2
    diff "$root/docs/optima.md" "$tmp" | head -20 >&2
    exit 1
fi
echo "docs/optima.md is up to date"
