# Sourced by shell tests (. "${0%/*}/../lib.sh"): a temporary directory
# $dir removed on exit, fail MESSAGE (counted in $fails), ok MESSAGE,
# expect and has.  A test ends with a status that says whether $fails
# is 0.
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# expect STATUS PATTERN CMD...: run CMD, its output in $dir/out and
# $dir/err; it must exit STATUS, its stderr must have a line matching
# PATTERN (grep; "" for any), and for STATUS 2 (bad usage or input) be
# that one line.  (local: dash and bash have it, and a test's own
# $want or $got must survive a call.)
expect() {
    local want="$1" pat="$2" got
    shift 2
    "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        fail "$*: exit $got, want $want"
    elif [ -n "$pat" ] && ! grep -q -- "$pat" "$dir/err"; then
        fail "$*: stderr lacks '$pat'"
    elif [ "$want" -eq 2 ] && [ "$(grep -c . "$dir/err")" -ne 1 ]; then
        fail "$*: not one line on stderr"
    else
        ok "$* -> $got"
        return
    fi
    sed 's/^/  | /' "$dir/out" "$dir/err" | head -n 20
}

# has FILE TEXT: FILE has a line containing TEXT (a fixed string).
has() {
    grep -qF -- "$2" "$1" && return
    fail "no line with '$2' in $1:"
    sed 's/^/  | /' "$1" | head -n 20
}
