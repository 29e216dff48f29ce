# conebench tests: the keys of the JSON objects on stdin (one object a line), one a line as a
# path: a nested key as parent.child, the keys of objects inside an array as parent[].child.
# Enough JSON for conebench's own output (strings with escapes, nesting, no whitespace needed).
{
  s = $0; n = length(s); d = 0; pending = ""
  for (i = 1; i <= n; i++) {
    c = substr(s, i, 1)
    if (c == "\"") { # a string: a key when ':' follows inside an object
      str = ""
      for (i++; i <= n && substr(s, i, 1) != "\""; i++) {
        if (substr(s, i, 1) == "\\")
          i++
        str = str substr(s, i, 1)
      }
      j = i + 1
      while (substr(s, j, 1) == " ")
        j++
      if (substr(s, j, 1) == ":" && type[d] == "{") {
        pending = prefix[d] str
        print pending
        i = j
      } else
        pending = ""
    } else if (c == "{" || c == "[") {
      # an object's keys are written base.key; an array's elements take base[] as their base
      base = pending != "" ? pending : (d > 0 && type[d] == "[" ? prefix[d] : "")
      d++
      type[d] = c
      prefix[d] = c == "[" ? base "[]" : (base == "" ? "" : base ".")
      pending = ""
    } else if (c == "}" || c == "]") {
      d--
      pending = ""
    } else if (c == ",")
      pending = ""
  }
}
