# Sourced by shell tests (. "${0%/*}/../lib.sh"): a temporary directory
# $dir removed on exit, fail MESSAGE (counted in $fails) and ok MESSAGE.
# A test ends with a status that says whether $fails is 0.
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
