# The cost of each step of one step sequence, for every (solver, warm start) run: iterations
# per step (left), CPU time per step (middle) and cumulative CPU time (right). Variables set by
# `conebench report`:
#   data  file with n blocks (separated by two blank lines), block i the run of titles' word
#         i + 1: "# label" then rows "step iterations cpu_s cumulative_cpu_s solved(1/0)"
#   n  blocks;  titles  the runs' names, each double-quoted, space separated (word())
#   colours, points, dashes  each run's colour ("#rrggbb"), point type and dash type
#   pi  a marker every pi-th step (pointinterval: markers stay apart on long sequences)
#   out  output file without extension (writes out.png, and out.svg when terms has svg)
#   terms  "pngcairo svg" or "pngcairo";  ttl  title
set grid xtics ytics
set logscale y 10
set format y "10^{%T}"
col(i) = word(colours, i + 1)
pt(i) = word(points, i + 1) + 0
dt(i) = word(dashes, i + 1) + 0
bad(s, v) = s == 0 ? v : NaN
do for [t in terms] {
    if (t eq "pngcairo") { set terminal pngcairo size 1650,560 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1650,560 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    set multiplot layout 1,3 title ttl font ",13" noenhanced
    set xlabel "step"
    set key off
    set ylabel "iterations + 1 (log scale)"
    set format y "%g"
    plot for [i=0:n-1] data index i using 1:($2 + 1) with linespoints pointinterval pi dashtype dt(i) \
         linewidth 1.5 linecolor rgb col(i) pointtype pt(i) pointsize 0.6 notitle, \
         for [i=0:n-1] data index i using 1:(bad($5, $2 + 1)) with points pointtype 2 \
         pointsize 1.6 linecolor rgb "black" notitle
    set format y "10^{%T}"
    set ylabel "CPU time of the step [s] (setup or update + solve)"
    plot for [i=0:n-1] data index i using 1:3 with linespoints pointinterval pi dashtype dt(i) \
         linewidth 1.5 linecolor rgb col(i) pointtype pt(i) pointsize 0.6 notitle, \
         for [i=0:n-1] data index i using 1:(bad($5, $3)) with points pointtype 2 \
         pointsize 1.6 linecolor rgb "black" notitle
    set ylabel "cumulative CPU time [s]"
    set key right bottom box opaque font ",9" title "solver, warm start"
    plot for [i=0:n-1] data index i using 1:4 with linespoints pointinterval pi dashtype dt(i) \
         linewidth 1.5 linecolor rgb col(i) pointtype pt(i) pointsize 0.6 \
         title word(titles, i + 1) noenhanced, \
         NaN with points pointtype 2 pointsize 1.6 linecolor rgb "black" title "step not solved"
    unset multiplot
    set output
}
