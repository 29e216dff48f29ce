#!/usr/bin/env bash
# conebench output files (src/core/fileio.c, man conebench FILES "output files"): a regular
# target is replaced atomically and keeps its mode; a symbolic link is followed (the target is
# updated, the link stays a link); a FIFO is written through (its reader gets the bytes, it stays
# a FIFO; with no reader, a writer stopped while it waits leaves nothing); a character device is written through, never replaced (a private mknod of /dev/null's
# 1,3 when root, skipped saying so otherwise); a directory is refused (exit 2); /dev/full is
# exit 1 with "FILE:0: write failed" and no partial file. Text and FCLIB writers alike.
# Usage: cli_outputs.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"

"$bin" generate random --kind coulomb3d --nc 5 --seed 3 -o "$tmp/p.dat" 2>/dev/null
# The trace written to a plain new file: what every other target must receive (its time column
# aside: same_trace A compares iterations and errors).
# info without the lines that name the file or hash its bytes: the problem itself.
problem_of() { "$bin" info "$1" | grep -v -e '^file:' -e '^sha256:'; }
same_trace() { [ "$(cut -d, -f1,3 "$1")" = "$(cut -d, -f1,3 "$tmp/ref.csv")" ]; }
run "$bin" solve "$tmp/p.dat" --solver nsgs --trace "$tmp/ref.csv" --solution "$tmp/ref.sol"
check "plain trace" '[ "$rc" = 0 ] && [ "$(head -1 "$tmp/ref.csv")" = "iteration,time_s,error" ]'
"$bin" convert "$tmp/p.dat" "$tmp/ref.hdf5" 2>/dev/null

# A regular file keeps its mode (600 and 640) and gets the new bytes; no temporary file left.
printf 'old\n' >"$tmp/t600.csv"; chmod 600 "$tmp/t600.csv"
run "$bin" solve "$tmp/p.dat" --solver nsgs --trace "$tmp/t600.csv"
check "mode 600 kept" '[ "$rc" = 0 ] && [ "$(stat -c %a "$tmp/t600.csv")" = 600 ] &&
  same_trace "$tmp/t600.csv"'
printf 'old\n' >"$tmp/t640.hdf5"; chmod 640 "$tmp/t640.hdf5"
run "$bin" convert "$tmp/p.dat" "$tmp/t640.hdf5"
check "FCLIB: mode 640 kept" '[ "$rc" = 0 ] && [ "$(stat -c %a "$tmp/t640.hdf5")" = 640 ] &&
  [ "$(problem_of "$tmp/t640.hdf5")" = "$(problem_of "$tmp/ref.hdf5")" ]'
check "no temporary file left" '[ -z "$(ls "$tmp" | grep "\.tmp\.")" ]'

# A symbolic link (relative, through a second link) is followed: the link stays, its final
# target gets the bytes; a dangling link creates its target.
mkdir "$tmp/d"; printf 'old\n' >"$tmp/d/target.csv"; chmod 604 "$tmp/d/target.csv"
ln -s d/target.csv "$tmp/l1"; ln -s l1 "$tmp/l2"
run "$bin" solve "$tmp/p.dat" --solver nsgs --trace "$tmp/l2"
check "symlink followed" '[ "$rc" = 0 ] && [ -L "$tmp/l1" ] && [ -L "$tmp/l2" ] &&
  same_trace "$tmp/d/target.csv" && [ "$(stat -c %a "$tmp/d/target.csv")" = 604 ]'
ln -s d/new.sol "$tmp/dangling"
run "$bin" solve "$tmp/p.dat" --solver nsgs --solution "$tmp/dangling"
check "dangling symlink: target created" '[ "$rc" = 0 ] && [ -L "$tmp/dangling" ] &&
  cmp -s "$tmp/d/new.sol" "$tmp/ref.sol"'
ln -s d/new.hdf5 "$tmp/link.hdf5"
run "$bin" convert "$tmp/p.dat" "$tmp/link.hdf5"
check "FCLIB through a symlink" '[ "$rc" = 0 ] && [ -L "$tmp/link.hdf5" ] && [ -f "$tmp/d/new.hdf5" ] &&
  [ "$(problem_of "$tmp/d/new.hdf5")" = "$(problem_of "$tmp/ref.hdf5")" ]'
ln -s loop2 "$tmp/loop1"; ln -s loop1 "$tmp/loop2"
run "$bin" solve "$tmp/p.dat" --solver nsgs --trace "$tmp/loop1"
check "symlink loop: exit 2" '[ "$rc" = 2 ] && [ -L "$tmp/loop1" ] &&
  grep -qx "conebench: $tmp/loop1:0: cannot follow the symbolic link: too many levels" "$tmp/err"'

# A FIFO is written through: the reader gets exactly the trace, the FIFO stays a FIFO.
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/fifo.out" &
reader=$!
run "$bin" solve "$tmp/p.dat" --solver nsgs --trace "$tmp/fifo"
wait "$reader"
check "FIFO written through" '[ "$rc" = 0 ] && [ -p "$tmp/fifo" ] && same_trace "$tmp/fifo.out"'
mkfifo "$tmp/fifo.hdf5"
cat "$tmp/fifo.hdf5" >"$tmp/got.hdf5" &
reader=$!
run "$bin" convert "$tmp/p.dat" "$tmp/fifo.hdf5"
wait "$reader"
check "FIFO: FCLIB bytes through" '[ "$rc" = 0 ] && [ -p "$tmp/fifo.hdf5" ] && 
  [ "$(problem_of "$tmp/got.hdf5")" = "$(problem_of "$tmp/ref.hdf5")" ]'
# A FIFO nobody reads: the writer waits at its open, before any temporary file exists, so a
# writer stopped there (SIGTERM from timeout) leaves nothing in TMPDIR; the FIFO stays a FIFO.
mkdir "$tmp/tmpdir"
for out in solve.sol fifo.hdf5; do
  [ -p "$tmp/$out" ] || mkfifo "$tmp/$out"
  if [ "$out" = solve.sol ]; then
    TMPDIR="$tmp/tmpdir" timeout 3 "$bin" solve "$tmp/p.dat" --solver nsgs --solution "$tmp/$out" \
      >/dev/null 2>&1
  else
    TMPDIR="$tmp/tmpdir" timeout 3 "$bin" convert "$tmp/p.dat" "$tmp/$out" >/dev/null 2>&1
  fi
  rc=$?
  check "FIFO without a reader ($out): stopped, nothing left" '[ "$rc" = 124 ] &&
    [ -p "$tmp/$out" ] && [ -z "$(ls -A "$tmp/tmpdir")" ]'
done


# A directory is refused; nothing is written into it.
mkdir "$tmp/dir"
run "$bin" solve "$tmp/p.dat" --solver nsgs --trace "$tmp/dir"
check "directory: exit 2" '[ "$rc" = 2 ] && [ -z "$(ls -A "$tmp/dir")" ] &&
  grep -qx "conebench: $tmp/dir:0: is a directory" "$tmp/err"'

# /dev/stdout into a pipe: a link only the kernel follows (/proc/self/fd/1 → "pipe:[N]"), written
# through as a shell redirection would.
if [ -e /dev/stdout ]; then
  "$bin" convert "$tmp/p.dat" /dev/stdout 2>"$tmp/err" | cat >"$tmp/piped.dat"
  st=${PIPESTATUS[0]}
  check "/dev/stdout into a pipe: the problem" '[ "$st" = 0 ] &&
    [ "$(problem_of "$tmp/piped.dat")" = "$(problem_of "$tmp/p.dat")" ]'
else
  echo "cli outputs: /dev/stdout check skipped: no /dev/stdout"
fi

# /dev/full: exit 1 naming the file, and it stays a device; no partial output anywhere.
if [ -c /dev/full ]; then
  run "$bin" solve "$tmp/p.dat" --solver nsgs --trace /dev/full
  check "/dev/full: exit 1" '[ "$rc" = 1 ] && [ -c /dev/full ] &&
    grep -qx "conebench: /dev/full:0: write failed: No space left on device" "$tmp/err"'
  run "$bin" convert "$tmp/p.dat" /dev/full
  check "/dev/full (convert): exit 1" '[ "$rc" = 1 ] && [ -c /dev/full ] &&
    grep -qx "conebench: /dev/full:0: write failed: No space left on device" "$tmp/err"'
  ln -s /dev/full "$tmp/full.csv"
  run "$bin" generate random --kind coulomb3d --nc 5 --seed 3 -o "$tmp/full.csv"
  check "/dev/full through a symlink: exit 1" '[ "$rc" = 1 ] && [ -L "$tmp/full.csv" ] &&
    grep -qx "conebench: $tmp/full.csv:0: write failed: No space left on device" "$tmp/err"'
else
  echo "cli outputs: /dev/full checks skipped: no /dev/full character device"
fi

# A private character device (the numbers of /dev/null) stays a device after every writer.
if [ "$(id -u)" = 0 ] && mknod "$tmp/null" c 1 3 2>/dev/null; then
  run "$bin" solve "$tmp/p.dat" --solver nsgs --trace "$tmp/null" --solution "$tmp/null"
  check "device (solve): written through" '[ "$rc" = 0 ] && [ -c "$tmp/null" ] &&
    [ "$(stat -c %t,%T "$tmp/null")" = 1,3 ]'
  run "$bin" convert "$tmp/p.dat" "$tmp/null"
  check "device (convert): written through" '[ "$rc" = 0 ] && [ -c "$tmp/null" ]'
  run "$bin" generate random --kind rolling3d --nc 4 --seed 1 -o "$tmp/null" --solution "$tmp/null"
  check "device (generate): written through" '[ "$rc" = 0 ] && [ -c "$tmp/null" ] &&
    [ "$(stat -c %t,%T "$tmp/null")" = 1,3 ]'
  check "device: no temporary file left" '[ -z "$(ls "$tmp" /tmp | grep "conebench-out\.tmp\.$")" ]'
else
  echo "cli outputs: character device checks skipped: mknod needs root (or is not permitted here)"
fi
echo "cli outputs: $pass passed, $fail failed"
[ "$fail" = 0 ]
