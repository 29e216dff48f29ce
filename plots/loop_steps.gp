# Solvers inside the time loop (`loop` campaign lines): per step, the solver's iterations and the
# step's CPU time against simulated time, one curve per trajectory. Variables set by
# `conebench report`:
#   n          number of trajectories; f1..fn their step series (loops/<id>.csv: step,t,nc,
#              iterations,cpu_s,solve_s,error,solved); t1..tn titles; c1..cn colours
#   bin        width of the time bins (s): each curve is the mean over the steps of a bin
#   out        output file without extension (writes out.png and out.svg);  ttl  title
set datafile separator ","
set key outside right top box Left reverse width 1
set grid
# Bin means first (into datablocks), so that autoscaling sees the values drawn.
set table $iters
plot for [i=1:n] value(sprintf("f%d", i)) using (bin * (floor($2 / bin) + 0.5)):4 every ::1 \
     smooth unique
set table $cpu
plot for [i=1:n] value(sprintf("f%d", i)) using (bin * (floor($2 / bin) + 0.5)):5 every ::1 \
     smooth unique
unset table
set datafile separator whitespace
set logscale y 10
set format y "10^{%L}"
set xlabel "simulated time t (s)"
do for [fmt in "pngcairo svg"] {
    if (fmt eq "pngcairo") { set terminal pngcairo size 1200,800 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1200,800 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    set multiplot layout 2,1 title ttl noenhanced
    set title sprintf("(a) solver iterations per step, mean over bins of %g s (a bin of 0 not drawn)", bin)
    set ylabel "iterations (log scale)"
    plot for [i=1:n] $iters index (i - 1) using 1:($2 > 0 ? $2 : 1/0) with lines \
         linewidth 1.5 linecolor rgb value(sprintf("c%d", i)) title value(sprintf("t%d", i)) noenhanced
    set title sprintf("(b) CPU time per step (detection, assembly, solve), mean over bins of %g s", bin)
    set ylabel "CPU time per step (s, log scale)"
    plot for [i=1:n] $cpu index (i - 1) using 1:($2 > 0 ? $2 : 1/0) with lines \
         linewidth 1 linecolor rgb value(sprintf("c%d", i)) title value(sprintf("t%d", i)) noenhanced
    unset multiplot
    set output
}
