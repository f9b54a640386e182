#!/bin/sh
# Make docs/optima.md, the table of exact optima, from the files beside
# this script: results.tsv (what mmtree proved, one line per tree in this
# folder), published.tsv and sources.tsv (the published values and where
# they come from) and notes.md (prose: disagreements, open cells).
#
#   sh trees/optima/table.sh > docs/optima.md
#
# Needs only a POSIX shell and awk; the test suite checks that
# docs/optima.md is what this script writes.
set -eu
dir=$(dirname "$0")
awk -F'\t' -v notes="$dir/notes.md" '
function codes(p, c, r,    n, i) {
    if (r == "r")
        return c ^ p
    n = 1
    for (i = 0; i < p; i++)
        n *= c - i
    return n
}
function game(p, c, r) { return "MM(" p "," c ")" (r == "n" ? "n" : "") }
function objname(rule) {
    return rule == "optimal" ? "optimal" : rule == "optimal-consistent" ? "consistent" : "worst"
}
# The class of a first guess: its colour multiplicities, largest first
# (every code with the same ones is the same guess up to symmetry).
function pattern(code,    n, i, k, m, cnt, ch, out, j, t) {
    n = split(code, ch, "")
    for (i = 1; i <= n; i++)
        cnt[ch[i]]++
    k = 0
    for (i in cnt)
        m[++k] = cnt[i]
    for (i = 1; i <= k; i++)
        for (j = i + 1; j <= k; j++)
            if (m[j] > m[i]) { t = m[i]; m[i] = m[j]; m[j] = t }
    out = ""
    for (i = 1; i <= k; i++)
        out = out m[i]
    return out
}
function secs(s) {
    if (s < 1) return sprintf("%.2f s", s)
    if (s < 100) return sprintf("%.1f s", s)
    if (s < 6000) return sprintf("%.0f s", s)
    if (s < 360000) return sprintf("%.1f h", s / 3600)
    return sprintf("%.0f h", s / 3600)
}
# the CPU time of cell k, and its threads when more than one
function cpu(k) { return secs(seconds[k]) (threads[k] > 1 ? " on " threads[k] " threads" : "") }
function at_worst(h,    n, a) { n = split(h, a, ","); return a[n] }
function hist_md(h) { gsub(",", " ", h); return h }
# Our value of a field for key k (game and rule), "" when unknown.
function ours(k, f) {
    if (!(k in status)) return ""
    if (f == "total" || f == "upper") return total[k]
    if (f == "worst") return worst[k]
    if (f == "at_worst") return at_worst(hist[k])
    if (f == "first") return first[k]
    if (f == "histogram") return hist[k]
    return ""
}
# How published entry i compares with ours: "" (nothing to compare),
# "same", or a remark.
function compare(i,    k, f, v, o, w) {
    k = pkey[i]; f = pfield[i]; v = pval[i]
    o = ours(k, f)
    if (o == "") return ""
    if (f == "first") return pattern(o) == pattern(v) ? "same" : "other class"
    if (f == "histogram") return o == v ? "same" : "other tree"
    # codes at the worst depth compare only at the same depth
    if (f == "at_worst" && (w = pworst(k, psrc[i])) != "" && w != worst[k])
        return "at depth " w "; ours has none there"
    if (status[k] != "proven") {   # ours is a tree, not a value
        if (f != "upper" && f != "total") return ""
        if (o + 0 > v + 0) return "better than our tree"
        if (o + 0 == v + 0) return "same"
        return f == "upper" ? "improved" : "ours lower"
    }
    if (f == "upper")
        return (o + 0 < v + 0) ? "improved" : (o + 0 == v + 0) ? "same" : "below the optimum"
    if (o + 0 == v + 0) return "same"
    return (o + 0 < v + 0) ? "ours lower" : "ours higher"
}
# The worst case source s publishes for key k, "" when none.
function pworst(k, s,    i) {
    for (i = 1; i <= np; i++)
        if (pkey[i] == k && psrc[i] == s && pfield[i] == "worst")
            return pval[i]
    return ""
}
# Is entry i a disagreement with a proven value (listed and explained)?
function differs(i,    c) {
    c = compare(i)
    return (pkey[i] in status) && status[pkey[i]] == "proven" &&
        c != "" && c != "same" && c != "improved"
}
function label(f, v) {
    if (f == "total") return v
    if (f == "upper") return "<= " v
    if (f == "at_worst") return v " at worst"
    if (f == "histogram") return "histogram " hist_md(v)
    return f " " v
}
# The published column for key k: one item per field and value, with
# every source that gives it.
function published(k,    i, j, s, c, v, done) {
    s = ""
    for (i = 1; i <= np; i++) {
        if (pkey[i] != k || (i in done)) continue
        v = psrc[i]
        for (j = i + 1; j <= np; j++)
            if (pkey[j] == k && pfield[j] == pfield[i] && pval[j] == pval[i]) {
                v = v ", " psrc[j]
                done[j] = 1
            }
        v = label(pfield[i], pval[i]) " [" v "]"
        c = compare(i)
        if (c != "" && c != "same") v = "**" v ", " c "**"
        s = s (s == "" ? "" : "; ") v
    }
    # (k in status) first: testing status[k] would make the entry
    if ((k in status) && status[k] == "proven" && !has_main(k))
        s = "*new*" (s == "" ? "" : "; " s)
    return s
}
function has_main(k,    i, main) {
    main = (k ~ /optimal-worst$/) ? "worst" : "total"
    for (i = 1; i <= np; i++)
        if (pkey[i] == k && pfield[i] == main)
            return 1
    return 0
}
function cell_value(k) {
    if (!(k in status)) return "-"
    if (status[k] == "proven") return k ~ /optimal-worst$/ ? worst[k] " / " total[k] : total[k]
    if (k ~ /optimal-worst$/ && lower[k] == worst[k])   # the least total is not
        return worst[k] " / <= " total[k]                   # proven, the worst case is
    if (k ~ /optimal-worst$/) return ">= " lower[k] " (tree " worst[k] " / " total[k] ")"
    return lower[k] " .. " total[k]
}
# The total column: a stopped worst-case search bounds the worst case,
# not the total: the column shows the total of the tree alone.
function total_cell(k) {
    if (status[k] == "proven") return total[k]
    if (k ~ /optimal-worst$/) return total[k] " (tree)"
    return lower[k] " .. " total[k]
}
function row(p, c, r, rule,    k, n, v, w) {
    k = p SUBSEP c SUBSEP r SUBSEP rule
    n = codes(p, c, r)
    if (!(k in status)) {
        printf "| %s | %d | not computed yet | | | | | | | %s |\n", game(p, c, r), n, published(k)
        return
    }
    v = total_cell(k)
    w = worst[k]
    if (rule == "optimal-worst" && status[k] != "proven" && lower[k] != worst[k])
        w = lower[k] " .. " worst[k]
    printf "| %s | %d | %s | %.4f | %s | %s | %s | %s | %s%s | %s |\n", game(p, c, r), n,
        v, total[k] / n, w, at_worst(hist[k]), hist_md(hist[k]), first[k],
        cpu(k), (status[k] == "proven" ? "" : ", stopped"), published(k)
}
FILENAME ~ /sources.tsv$/ && !/^#/ && NF { nsrc++; skey[nsrc] = $1; slabel[$1] = $2; scite[$1] = $3; next }
FILENAME ~ /published.tsv$/ && !/^#/ && NF {
    np++
    pkey[np] = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4; pfield[np] = $5; pval[np] = $6; psrc[np] = $7
    pgame[$1 SUBSEP $2 SUBSEP $3] = 1
    next
}
FILENAME ~ /results.tsv$/ && !/^#/ && NF {
    k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
    status[k] = $5; total[k] = $6; worst[k] = $7; hist[k] = $8; first[k] = $9
    lower[k] = $10; seconds[k] = $11; threads[k] = $12
    rgame[$1 SUBSEP $2 SUBSEP $3] = 1
    next
}
END {
    split("optimal optimal-consistent optimal-worst", rules, " ")
    # the cells: every game of 2..8 pegs and 2..16 colours with at most
    # 10,000 codes, with repetition first
    ng = 0
    for (ri = 1; ri <= 2; ri++) {
        r = ri == 1 ? "r" : "n"
        for (p = 2; p <= 8; p++)
            for (c = (r == "r" ? 2 : p); c <= 16; c++)
                if (codes(p, c, r) <= 10000) { ng++; gp[ng] = p; gc[ng] = c; gr[ng] = r }
    }
    nb = 0   # beyond 10,000 codes: the games with a line or a published value
    for (ri = 1; ri <= 2; ri++)
        for (p = 2; p <= 8; p++)
            for (c = 2; c <= 16; c++) {
                r = ri == 1 ? "r" : "n"
                g = p SUBSEP c SUBSEP r
                if (codes(p, c, r) > 10000 && ((g in rgame) || (g in pgame))) {
                    nb++; bp[nb] = p; bc[nb] = c; br[nb] = r
                }
            }

    print "# Exact optima of Mastermind"
    print ""
    print "<!-- Made by sh trees/optima/table.sh > docs/optima.md from trees/optima/:"
    print "     results.tsv, published.tsv, sources.tsv and notes.md.  Do not edit. -->"
    print ""
    print "MM(p,c) is Mastermind with p pegs and c colours, codes repeating colours"
    print "as they like; MM(p,c)n allows no colour twice (Neuwirth'\''s N games; Bulls"
    print "and Cows is MM(4,10)n).  Each game has three optima:"
    print ""
    print "- **optimal**: the least total number of guesses to find every code once"
    print "  (the expected number times the codes); among those trees, the least"
    print "  worst case, then the fewest codes that need it."
    print "- **consistent** (`--rule optimal-consistent`, Ville'\''s MM*): the same"
    print "  when every guess must be a code that is still possible."
    print "- **worst** (`--rule optimal-worst`): the least worst case; then the least"
    print "  total among the trees with that worst case, then the fewest codes that"
    print "  need it."
    print ""
    print "Every value here is mmtree'\''s own: `mmtree build -p P -c C [-n] --rule R`"
    print "proves it by exhaustive branch and bound, and the tree it built is in"
    print "`trees/optima/mmP-C[n]-OBJ.mmt` (OBJ: optimal, consistent, worst), so that"
    print "anyone can check it in milliseconds: `mmtree verify trees/optima/mm4-7-optimal.mmt`."
    print "The test suite verifies every tree and checks it against this table."
    print "*stopped*: the search did not finish; the tree is the best it found and"
    print "the bound (the lower end of a range a .. b) is proven; a worst-case search"
    print "that settled the least worst case but not the least total with it gives"
    print "the worst case alone and its tree'\''s total as a bound (w / <= t).  Time:"
    print "the CPU time (user and system) of the runs that made the tree, on one"
    print "thread of this project'\''s 2-core machine unless it says how many (the"
    print "notes at the end say where a run'\''s time is bounded rather than"
    print "measured).  Published values are in square brackets, with their"
    print "sources at the end; **bold** where they differ from ours; *new* where"
    print "none of those sources gives a value for that optimum (a value may still"
    print "have been published elsewhere)."
    print ""
    print "## Summary"
    print ""
    print "Totals (expected number of guesses times codes); for worst, the least"
    print "worst case / the least total with it."
    print ""
    print "| game | codes | optimal | consistent | worst |"
    print "|---|---|---|---|---|"
    for (i = 1; i <= ng; i++) {
        g = gp[i] SUBSEP gc[i] SUBSEP gr[i]
        printf "| %s | %d | %s | %s | %s |\n", game(gp[i], gc[i], gr[i]), codes(gp[i], gc[i], gr[i]),
            cell_value(g SUBSEP "optimal"), cell_value(g SUBSEP "optimal-consistent"),
            cell_value(g SUBSEP "optimal-worst")
    }
    for (ri = 1; ri <= 3; ri++) {
        rule = rules[ri]
        print ""
        print "## " objname(rule) " (`--rule " rule "`)"
        print ""
        print "| game | codes | total | expected | worst | at worst | histogram | first | time | published |"
        print "|---|---|---|---|---|---|---|---|---|---|"
        for (i = 1; i <= ng; i++)
            row(gp[i], gc[i], gr[i], rule)
    }
    print ""
    print "## Beyond 10,000 codes"
    print ""
    print "| game | codes | objective | total | expected | worst | at worst | histogram | first | time | published |"
    print "|---|---|---|---|---|---|---|---|---|---|---|"
    for (i = 1; i <= nb; i++)
        for (ri = 1; ri <= 3; ri++) {
            k = bp[i] SUBSEP bc[i] SUBSEP br[i] SUBSEP rules[ri]
            if (!(k in status) && published(k) == "") continue
            n = codes(bp[i], bc[i], br[i])
            if (!(k in status)) {
                printf "| %s | %d | %s | not computed | | | | | | | %s |\n", game(bp[i], bc[i], br[i]),
                    n, objname(rules[ri]), published(k)
                continue
            }
            v = total_cell(k)
            w = worst[k]
            if (rules[ri] == "optimal-worst" && status[k] != "proven" && lower[k] != worst[k])
                w = lower[k] " .. " worst[k]
            printf "| %s | %d | %s | %s | %.4f | %s | %s | %s | %s | %s%s | %s |\n",
                game(bp[i], bc[i], br[i]), n, objname(rules[ri]), v, total[k] / n, w,
                at_worst(hist[k]), hist_md(hist[k]), first[k], cpu(k),
                (status[k] == "proven" ? "" : ", stopped"), published(k)
        }
    print ""
    print "## Where published values differ"
    print ""
    nd = 0
    for (i = 1; i <= np; i++) {
        if (!differs(i)) continue
        c = compare(i)
        split(pkey[i], kk, SUBSEP)
        printf "- %s %s, %s: %s [%s]; ours %s (`trees/optima/mm%d-%d%s-%s.mmt`): %s.\n",
            game(kk[1], kk[2], kk[3]), objname(kk[4]), pfield[i], pval[i], psrc[i],
            ours(pkey[i], pfield[i]), kk[1], kk[2], (kk[3] == "n" ? "n" : ""), objname(kk[4]), c
        nd++
    }
    if (!nd) print "None."
    print ""
    while ((getline line < notes) > 0)
        print line
    print ""
    print "## Sources"
    print ""
    for (i = 1; i <= nsrc; i++)
        printf "- **%s** (%s): %s\n", skey[i], slabel[skey[i]], scite[skey[i]]
}
' "$dir/sources.tsv" "$dir/published.tsv" "$dir/results.tsv"
