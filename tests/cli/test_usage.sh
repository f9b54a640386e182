#!/bin/sh
# Bad usage of mmtree build and stats: exit status 2 and one line on
# stderr naming the bad value; --help: exit 0 and the usage text.
mmtree=$1
. "${0%/*}/../lib.sh"
expect 2 "unknown rule 'bogus'" "$mmtree" build --rule bogus
expect 2 "'1177' is not a code" "$mmtree" build --first 1177
expect 2 "'123' is not a code" "$mmtree" build --first 123
expect 2 "no repeated colours" "$mmtree" build --no-repeat --first 1123
expect 2 "pegs must be 1..8" "$mmtree" build --pegs 9
expect 2 "'0'" "$mmtree" build --pegs 0
expect 2 "colors must be 1..16" "$mmtree" build --colors 17
expect 2 "'x'" "$mmtree" build --colors x
expect 2 "distinct colours" "$mmtree" build --pegs 5 --colors 4 --no-repeat
expect 2 "more than" "$mmtree" build --pegs 8 --colors 9
expect 2 "unknown option '--bogus'" "$mmtree" build --bogus
expect 2 "needs a value" "$mmtree" build --rule
expect 2 "unknown format 'yaml'" "$mmtree" build --format yaml
expect 2 "cannot open 'no/such/file'" "$mmtree" stats no/such/file
expect 2 "unknown command 'frobnicate'" "$mmtree" frobnicate
for cmd in build stats; do
    expect 0 "" "$mmtree" $cmd --help
    has "$dir/out" "usage: mmtree $cmd"
done
[ "$fails" -eq 0 ]
