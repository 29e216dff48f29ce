# conebench tests: the items documented in docs/conebench.1, one a line as
# "SECTION<TAB>SUBSECTION<TAB>ITEM". An item is named by the line after a .TP: under COMMANDS
# each --option of that line; elsewhere the keys of a ".B key, key, ..." line. Roff escapes
# "\-" are read as "-", quotes around section names dropped.
function unescape(s) {
  gsub(/\\-/, "-", s)
  gsub(/"/, "", s)
  return s
}
/^\.SH / { sec = unescape(substr($0, 5)); subsec = ""; tp = 0; next }
/^\.SS / { subsec = unescape(substr($0, 5)); tp = 0; next }
/^\.TP/ { tp = 1; next }
tp {
  tp = 0
  line = unescape($0)
  if (sec == "COMMANDS") {
    while (match(line, /--[a-z][a-z-]*/)) {
      print sec "\t" subsec "\t" substr(line, RSTART, RLENGTH)
      line = substr(line, RSTART + RLENGTH)
    }
  } else if (line ~ /^\.B /) {
    n = split(substr(line, 4), k, /, /)
    for (i = 1; i <= n; i++)
      print sec "\t" subsec "\t" k[i]
  }
}
