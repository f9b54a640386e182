#!/bin/sh
# Print the table of trees/README.md: the published strategies for MM(4,6)
# and the trees mmtree compiles, each measured by 'mmtree stats'.
#
#   sh trees/table.sh [path/to/mmtree]     (from the top of the source tree)
set -u
mmtree=${1:-build/cli/mmtree}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# row NAME FILE: one table row from 'mmtree stats FILE'.
row() {
    "$mmtree" stats "$2" >"$tmp/stats" 2>&1 || { echo "| $1 | $(head -1 "$tmp/stats") | | | |"; return; }
    field() { sed -n "s/^$1: *//p" "$tmp/stats"; }
    printf '| %s | %s | %s | %s | %s |\n' "$1" "$(field total)" "$(field expected)" \
        "$(field worst)" "$(field 'first guess')"
}

echo '| strategy | total | expected | worst | first guess |'
echo '|---|---|---|---|---|'
row 'Knuth 1976, Figure 1 (`knuth1976.txt`)' trees/knuth1976.txt
row 'Neuwirth 1982, Appendix (`neuwirth1982.txt`)' trees/neuwirth1982.txt
for rule in naive knuth irving entropy kooi branch2 e3 optimal optimal-consistent optimal-worst; do
    for opt in "" --consistent-only; do
        case $rule$opt in naive--consistent-only | optimal*--consistent-only) continue ;; esac
        if "$mmtree" build -q --rule $rule $opt -o "$tmp/t.txt" 2>"$tmp/err"; then
            row "\`build --rule $rule${opt:+ $opt}\`" "$tmp/t.txt"
        else
            echo "| \`build --rule $rule${opt:+ $opt}\` | $(sed 's/^mmtree: error: //' "$tmp/err") | | | |"
        fi
    done
done
