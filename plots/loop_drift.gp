# Solvers inside the time loop: how far each trajectory's end drifts from the reference
# trajectory (tol 1e-12), against the solver tolerance of every step. Variables set by
# `conebench report`:
#   data   CSV blocks (one per solver, separated by two blank lines): tol,drift_pos_rel,
#          drift_energy (a drift of exactly 0 is drawn at floor)
#   n      number of blocks; t1..tn solver labels; c1..cn colours
#   pos_max, energy_max   the thresholds of "indistinguishable" (drawn dashed)
#   floor  where a drift of 0 is drawn;  out  output without extension;  ttl  title
set datafile separator ","
set key below box horizontal
set grid
set offsets 0, 0, graph 0.05, graph 0.05
set logscale xy 10
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "solver tolerance of every step"
do for [fmt in "pngcairo svg"] {
    if (fmt eq "pngcairo") { set terminal pngcairo size 1200,640 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1200,640 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    set multiplot layout 1,2 title ttl noenhanced
    set title "(a) final positions: max_k ‖x_k − x_{ref,k}‖ / body radius"
    set ylabel "position drift / smallest body radius"
    plot for [i=1:n] data index (i - 1) using 1:($2 > 0 ? $2 : floor) with linespoints linewidth 2 \
         pointtype 7 linecolor rgb value(sprintf("c%d", i)) title value(sprintf("t%d", i)) noenhanced, \
         pos_max with lines dashtype 2 linecolor rgb "black" title "indistinguishable below"
    set title "(b) final energy: |E − E_{ref}| / dissipated energy"
    set ylabel "energy drift / energy the reference dissipated"
    plot for [i=1:n] data index (i - 1) using 1:($3 > 0 ? $3 : floor) with linespoints linewidth 2 \
         pointtype 7 linecolor rgb value(sprintf("c%d", i)) title value(sprintf("t%d", i)) noenhanced, \
         energy_max with lines dashtype 2 linecolor rgb "black" title "indistinguishable below"
    unset multiplot
    set output
}
