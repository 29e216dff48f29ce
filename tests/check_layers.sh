#!/usr/bin/env bash
# conebench — the layer rule, checked: every #include "..." between the library's folders runs
# down the order  core < {solvers, io} < mech < mech/scenarios < bench < studies < cli  (solvers and io are
# siblings: neither may include the other); public headers include only public headers; a
# NAME_internal.h header is private to its folder and subfolders; no include cycle, no layer
# cycle. With a build directory (second argument) the rule is also checked on the objects'
# symbols (nm), which catches a call made through a local extern declaration.
# Usage: tests/check_layers.sh [ROOT] [BUILD]    exit 0 clean, 1 violations, 2 usage.
set -u
root=${1:-.}
build=${2:-}
cd "$root" || exit 2
[ -d src ] && [ -d include/conebench ] || {
    echo "check_layers: $root: no src/ or include/conebench/" >&2
    exit 2
}

# L = layer of path $1 ("?" when none). Public headers are listed one by one: a new public
# header must be given its layer here.
layer_of() {
    case "$1" in
    src/core/*) L=core ;;
    src/solvers/*) L=solvers ;;
    src/io/*) L=io ;;
    src/mech/scenarios/*) L=scenarios ;;
    src/mech/*) L=mech ;;
    src/bench/*) L=bench ;;
    src/studies/*) L=studies ;;
    cli/*) L=cli ;;
    include/conebench/common.h | include/conebench/cone.h | include/conebench/judge.h | \
        include/conebench/problem.h) L=core ;;
    include/conebench/solver.h | include/conebench/plugin.h) L=solvers ;;
    include/conebench/io.h | include/conebench/generate.h) L=io ;;
    *) L="?" ;;
    esac
}
# R = rank of layer $1 (solvers and io are siblings: same rank, checked apart).
rank_of() {
    case "$1" in
    core) R=0 ;; solvers | io) R=1 ;; mech) R=2 ;; scenarios) R=3 ;; bench) R=4 ;; studies) R=5 ;; cli) R=6 ;;
    *) R=99 ;;
    esac
}
# 0 when layer $1 may include or call layer $2.
allowed() {
    [ "$1" = "$2" ] && return 0
    case "$1:$2" in solvers:io | io:solvers) return 1 ;; esac
    rank_of "$1"
    local r1=$R
    rank_of "$2"
    [ "$R" -lt "$r1" ]
}
# T = the file `#include "$2"` in $1 names: its folder, include/, then every library folder
# (the build would not find a header of a higher layer; the check still names it).
resolve() {
    local c
    T=
    for c in "${1%/*}/$2" "include/$2" "src/core/$2" "src/solvers/$2" "src/solvers/siconos/$2" \
        "src/io/$2" "src/mech/$2" "src/mech/scenarios/$2" "src/bench/$2" "src/studies/$2" "cli/$2"; do
        if [ -f "$c" ]; then
            T=$c
            return
        fi
    done
}

fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() {
    echo "check_layers: $*"
    fail=1
}

n=0
while IFS=: read -r f line name; do
    layer_of "$f"
    lf=$L
    resolve "$f" "$name"
    [ -z "$T" ] && continue # not ours: a system or Siconos header written in quotes
    layer_of "$T"
    lt=$L
    n=$((n + 1))
    echo "$f $T" >>"$tmp/files"
    [ "$lf" != "$lt" ] && [ "$lf" != "?" ] && [ "$lt" != "?" ] && echo "$lf $lt" >>"$tmp/layers"
    if [ "$lf" = "?" ] || [ "$lt" = "?" ]; then
        [ "$lf" = "?" ] && nl=$f || nl=$T
        bad "$f:$line includes $T: $nl has no layer (public headers are listed in this script)"
    elif ! allowed "$lf" "$lt"; then
        bad "$f:$line includes $T ($lf -> $lt runs up or across)"
    elif [ "${f#include/}" != "$f" ] && [ "${T#include/}" = "$T" ]; then
        bad "$f:$line: a public header includes the internal $T"
    elif [ "${T%_internal.h}" != "$T" ] && [ "${f#"${T%/*}"/}" = "$f" ]; then
        bad "$f:$line includes $T, private to ${T%/*}/"
    fi
done < <(find src cli include/conebench -name '*.[ch]' -print0 | sort -z |
    xargs -0 grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' |
    sed -E 's/^([^:]+):([0-9]+):[^"]*"([^"]+)".*/\1:\2:\3/')

touch "$tmp/files" "$tmp/layers"
tsort <"$tmp/files" >/dev/null 2>"$tmp/err" || {
    bad "include cycle:"
    sed 's/^/  /' "$tmp/err"
}
sort -u "$tmp/layers" | tsort >/dev/null 2>"$tmp/err" || {
    bad "layer cycle:"
    sed 's/^/  /' "$tmp/err"
}

# Symbols: an object that needs a cb_ symbol defined by an object of a higher or sibling layer
# (one nm call per listing; nm -A prefixes each line with "object:").
if [ -n "$build" ]; then
    # Objects whose source is gone (a file removed since the last build) are left out.
    find "$build/src" "$build/cli" -name '*.o' 2>/dev/null | sort |
        while read -r o; do
            src=${o#"$build/"}
            [ -f "${src%.o}.c" ] && echo "$o"
        done >"$tmp/objs"
    if [ -s "$tmp/objs" ]; then
        xargs nm -A -g --defined-only <"$tmp/objs" |
            awk -v b="$build/" '$(NF-1) ~ /^[TDRB]$/ && $NF ~ /^cb/ {
                o = $1; sub(/:.*/, "", o); sub(b, "", o); sub(/\.o$/, ".c", o); print $NF, o }' |
            sort -k1,1 >"$tmp/defs"
        xargs nm -A -u <"$tmp/objs" |
            awk -v b="$build/" '$NF ~ /^cb/ {
                o = $1; sub(/:.*/, "", o); sub(b, "", o); sub(/\.o$/, ".c", o); print $NF, o }' |
            sort -k1,1 | join - "$tmp/defs" | awk '{print $2, $3, $1}' | sort -k1,2 >"$tmp/uses"
    fi
    touch "$tmp/uses"
    # File-level cycles through calls (A calls B, B calls A): fatal (CHECK_FILE_CYCLES=0 makes
    # them warnings while a cycle is being removed).
    awk '$1 != $2 {print $1, $2}' "$tmp/uses" | sort -u | tsort >/dev/null 2>"$tmp/err" || {
        if [ "${CHECK_FILE_CYCLES:-1}" = 1 ]; then bad "call cycle between files:"; else
            echo "check_layers: warning: call cycle between files:"; fi
        sed 's/^/  /' "$tmp/err"
    }
    while read -r s def sym; do # user, definer, symbol
        [ "$s $def" = "${prev:-}" ] && continue
        prev="$s $def"
        layer_of "$s"
        ls=$L
        layer_of "$def"
        allowed "$ls" "$L" || bad "$s needs $sym (and maybe more) from $def ($ls -> $L)"
    done <"$tmp/uses"
fi

[ $fail = 0 ] && echo "check_layers: $n includes${build:+ and the symbols of the objects}:" \
    "every arrow runs down the layers, no cycle"
exit $fail
