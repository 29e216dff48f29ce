#!/bin/sh
# The linker version script of libconebench.so: every cb_ function declared in the public
# headers (include/conebench/*.h) is exported, everything else stays local (internal helpers
# shared between layers are not part of the API). Usage: export_map.sh INCLUDE_DIR > MAP
set -eu
dir=${1:-include/conebench}
echo "CONEBENCH_0 {"
echo "  global:"
# (cb_plugin_solvers is what a plugin defines, through a macro of plugin.h, not the library.)
grep -ho '\bcb_[A-Za-z0-9_]*[[:space:]]*(' "$dir"/*.h | sed 's/[[:space:]]*($//' | sort -u |
  grep -vx 'cb_plugin_solvers' |
  sed 's/^/    /; s/$/;/'
echo "  local: *;"
echo "};"
