#!/bin/sh
# Bad usage of mmtree build and stats: exit status 2 and one line on
# stderr naming the bad value; --help: exit 0 and the usage text.
mmtree=$1
fails=0
expect() { # status, pattern, args...
    want=$1 pat=$2
    shift 2
    err=$("$mmtree" "$@" 2>&1 >/dev/null)
    got=$?
    lines=$(printf '%s\n' "$err" | grep -c .)
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: mmtree $*: exit $got, want $want ($err)"; fails=$((fails + 1))
    elif ! printf '%s' "$err" | grep -q -- "$pat"; then
        echo "FAIL: mmtree $*: message '$err' lacks '$pat'"; fails=$((fails + 1))
    elif [ "$want" -eq 2 ] && [ "$lines" -ne 1 ]; then
        echo "FAIL: mmtree $*: $lines lines on stderr"; fails=$((fails + 1))
    else
        echo "ok: mmtree $* -> $got"
    fi
}
expect 2 "unknown rule 'bogus'" build --rule bogus
expect 2 "'1177' is not a code" build --first 1177
expect 2 "'123' is not a code" build --first 123
expect 2 "no repeated colours" build --no-repeat --first 1123
expect 2 "pegs must be 1..8" build --pegs 9
expect 2 "'0'" build --pegs 0
expect 2 "colors must be 1..16" build --colors 17
expect 2 "'x'" build --colors x
expect 2 "distinct colours" build --pegs 5 --colors 4 --no-repeat
expect 2 "more than" build --pegs 8 --colors 9
expect 2 "unknown option '--bogus'" build --bogus
expect 2 "needs a value" build --rule
expect 2 "unknown format 'yaml'" build --format yaml
expect 2 "cannot open 'no/such/file'" stats no/such/file
expect 2 "unknown command 'frobnicate'" frobnicate
for cmd in build stats; do
    if "$mmtree" $cmd --help | grep -q "usage: mmtree $cmd"; then
        echo "ok: $cmd --help"
    else
        echo "FAIL: $cmd --help"; fails=$((fails + 1))
    fi
done
[ "$fails" -eq 0 ]
