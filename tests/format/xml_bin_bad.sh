#!/bin/sh
# Bad files must make `mmtree stats` exit 2 with one line
# "FILE:line:col: error: ..." or "FILE: byte N: error: ..." that says what
# is wrong, and nothing else (a sanitizer report would add lines and change
# the exit status).
#   xml_bin_bad.sh xml MMTREE DIR   the hand-made documents of DIR/bad
#                                   (listed in DIR/bad/expect.txt) and a
#                                   document nested 10^6 deep
#   xml_bin_bad.sh bin MMTREE GEN   the damaged .mmt files that GEN
#                                   (bin_badgen) writes, among them the
#                                   truncation of a small file at every byte
set -u
mode=$1
mmtree=$2
arg=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# check FILE POSITION TEXT: POSITION is "line:col", "byte N" or "byte *".
check() {
    n=$((n + 1))
    "$mmtree" stats "$1" >/dev/null 2>"$tmp/err" </dev/null
    rc=$?
    first=$(head -n 1 "$tmp/err")
    case $2 in
    "byte *") want="$1: byte " ;;
    byte*) want="$1: $2: error: " ;;
    *) want="$1:$2: error: " ;;
    esac
    if [ "$rc" -ne 2 ]; then
        echo "FAIL $1: exit status $rc, not 2: $first"
        fail=1
    elif [ "${first#"$want"}" = "$first" ]; then
        echo "FAIL $1: '$first' does not start with '$want'"
        fail=1
    elif ! printf '%s\n' "$first" | grep -qF -- "$3"; then
        echo "FAIL $1: '$first' does not say '$3'"
        fail=1
    elif [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
        echo "FAIL $1: more than one line on stderr:"
        cat "$tmp/err"
        fail=1
    fi
}

# check_list DIR: every "file|position|text" line of DIR/expect.txt.
check_list() {
    while IFS='|' read -r name pos text; do
        case $name in '' | '#'*) continue ;; esac
        check "$1/$name" "$pos" "$text"
    done <"$1/expect.txt"
}

case $mode in
xml)
    check_list "$arg/bad"
    # 10^6 nested elements: refused at the 65th level, long before
    # libxml2's limit of 256.
    {
        printf '<?xml version="1.0"?>\n<mmtree xmlns="urn:mmtree:tree:1">'
        printf '<game pegs="2" colors="6" repeat="true"/><provenance/><tree>\n'
        printf '<node guess="11" count="4">\n'
        yes '<node reply="0,0" guess="22" count="1">' | head -n 1000000
    } >"$tmp/deep.xml"
    check "$tmp/deep.xml" 67:1 "the tree is deeper than 64 guesses"
    ;;
bin)
    mkdir "$tmp/bin" && "$arg" "$tmp/bin" || { echo "FAIL: $arg"; exit 1; }
    if ! "$mmtree" stats "$tmp/bin/good.mmt" >/dev/null; then
        echo "FAIL: the undamaged file does not read"
        fail=1
    fi
    check_list "$tmp/bin"
    ;;
*)
    echo "usage: xml_bin_bad.sh xml|bin MMTREE DIR|GEN" >&2
    exit 2
    ;;
esac
echo "$n bad $mode files"
exit $fail
