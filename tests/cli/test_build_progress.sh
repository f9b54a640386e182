#!/bin/sh
# The progress of a one-step build in a log (stderr to a file, not a
# terminal): with --progress S a line every S seconds and a last one at
# 100.0%, the share never falling, the nodes never fewer; the last line
# counts the nodes of the tree written.  Without --progress, no lines.
# A game whose build takes minutes gets one warning with its size and
# the time it takes before the build starts.
mmtree=$1
. "${0%/*}/../lib.sh"

# "share nodes" of each progress line of a log
fields() {
    sed -n 's/^mmtree: [0-9.]* [a-z]*: \([0-9.]*\)% done.* \([0-9]*\) nodes$/\1 \2/p' "$1"
}

for rule in knuth entropy; do
    "$mmtree" build -p 5 -c 6 --rule $rule -j1 --progress 0.01 -o "$dir/t.mmt" \
        2>"$dir/log"
    rc=$?
    fields "$dir/log" >"$dir/f"
    n=$(wc -l <"$dir/f")
    nodes=$("$mmtree" stats --json "$dir/t.mmt" | sed -n 's/.*"nodes": *\([0-9]*\).*/\1/p')
    if [ "$rc" -ne 0 ] || [ "$n" -lt 1 ]; then
        fail "$rule: exit $rc, $n progress lines: $(cat "$dir/log")"
        continue
    fi
    if awk 'NR > 1 && ($1 < s || $2 < k) { bad = 1 } { s = $1; k = $2 }
            END { exit bad }' "$dir/f"
    then ok "$rule: $n lines, the share and the nodes never fall"
    else fail "$rule: the share or the nodes fell: $(cat "$dir/f")"; fi
    last=$(tail -n 1 "$dir/f")
    if [ "$last" = "100.0 $nodes" ]; then ok "$rule: the last line is 100.0%, $nodes nodes"
    else fail "$rule: last line '$last', the tree has $nodes nodes"; fi
    if grep '100.0% done' "$dir/log" | grep -q left
    then fail "$rule: a time left at the end: $(cat "$dir/log")"; fi
    if [ "$(grep -c '^mmtree: MM(5,6)' "$dir/log")" -eq 1 ]; then ok "$rule: the summary"
    else fail "$rule: no summary: $(cat "$dir/log")"; fi
done

"$mmtree" build -p 5 -c 6 --rule knuth -o "$dir/t.mmt" 2>"$dir/log"
if grep -q '% done' "$dir/log"; then fail "progress lines without --progress"
else ok "no progress lines without --progress"; fi

# MM(6,8) on one thread takes minutes: the warning comes before the build,
# which is stopped once it is there.
"$mmtree" build -p 6 -c 8 --rule entropy -j1 -o "$dir/big.mmt" 2>"$dir/warn" &
pid=$!
i=0
while [ $i -lt 100 ] && ! grep -q warning "$dir/warn"; do
    sleep 0.1
    i=$((i + 1))
done
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
if grep -q '^mmtree: warning: MM(6,8) has 262144 codes: building its entropy tree takes some [0-9]* minutes' "$dir/warn"
then ok "MM(6,8) warns: $(cat "$dir/warn")"
else fail "MM(6,8): no warning: $(cat "$dir/warn")"; fi
"$mmtree" build -p 5 -c 6 --rule entropy -o "$dir/t.mmt" 2>"$dir/log"
if grep -q warning "$dir/log"; then fail "MM(5,6) warns: $(cat "$dir/log")"
else ok "MM(5,6) does not warn"; fi
[ -e "$dir/big.mmt" ] && fail "the stopped build wrote its tree"
exit $((fails > 0))
