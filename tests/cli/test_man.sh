#!/bin/sh
# The man page (docs/mmtree.1.scd) documents every subcommand that
# 'mmtree --help' lists and every option that each one's --help lists.
#
#   sh test_man.sh MMTREE SOURCE-ROOT
set -u
mmtree=$1
page=$2/docs/mmtree.1.scd
fail=0
cmds=$("$mmtree" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')
[ -n "$cmds" ] || { echo "FAIL: no commands in mmtree --help"; exit 1; }
for cmd in $cmds; do
    if ! grep -q "^## $cmd\$" "$page"; then
        echo "FAIL: the man page has no section '## $cmd'"
        fail=1
        continue
    fi
    # The command's section: from its heading to the next one.
    section=$(awk -v h="## $cmd" '$0 == h {on = 1; next} on && /^#/ {exit} on' "$page")
    # The options of its --help: the lines that start with one.
    for opt in $("$mmtree" "$cmd" --help | grep -E '^ {1,6}(-[A-Za-z], +)?--[a-z]' |
                 grep -oE -- '--[a-z][a-z0-9-]*' | head -1000 | sort -u); do
        [ "$opt" = --help ] && continue
        printf '%s\n' "$section" | grep -qF -- "*$opt*" ||
            { echo "FAIL: man page, $cmd: $opt is not documented"; fail=1; }
    done
done
exit $fail
