# Convergence curves of every solver on one problem: judged-normalisation residual against
# iteration (left) and against time (right). Variables set by `conebench report`:
#   data  file with one block per solver (blocks separated by two blank lines); each block starts
#         with a line "# <solver label>" and then rows "iteration time_s error"
#   titles  the solver labels, each double-quoted, space separated (word());  nblk  blocks
#   out   output file without extension (writes out.png and out.svg);  ttl  title;  tol  tolerance
#   zfloor  where an error of exactly 0 is drawn;  zeros  1 when some error is exactly 0
# Iteration 0 is drawn at 1 on the log axis (x = iteration + 1).
load ARG0[1:strstrt(ARG0, "convergence.gp") - 1]."palette.gp"
set key outside right top title "solver" box
set logscale y 10
set format y "10^{%T}"
set grid xtics ytics
err(e) = e > 0 ? e : zfloor
# the floor line (macros; empty when no error is 0), without and with its key entry
zstyle = sprintf(', %.17g with lines dashtype 3 linecolor rgb "gray60" ', zfloor)
zleft = zeros ? zstyle.'notitle' : ""
zright = zeros ? zstyle.sprintf('title "error = 0 (drawn at %.0e)"', zfloor) : ""
if (zeros) { set yrange [zfloor / 10:*] }  # the floor line above the bottom edge
do for [t in "pngcairo svg"] {
    if (t eq "pngcairo") { set terminal pngcairo size 1400,560 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1400,560 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    set multiplot layout 1,2 title ttl font ",13" noenhanced
    set xlabel "iteration + 1  (iteration 0 at 1)"; set ylabel "residual ‖e‖ / max(‖q‖,‖p‖,‖y‖)"
    set logscale x 10; set format x "%g"
    set key off
    plot for [i=0:nblk-1] data index i using ($1 + 1):(err($3)) with linespoints \
         linetype (i + 1) dashtype 1 + (i >= 12) pointsize 0.6 title word(titles, i+1) noenhanced, \
         tol with lines dashtype 2 linecolor rgb "gray40" notitle @zleft
    set xlabel "time [s]"; set format x "10^{%T}"
    set key outside right top title "solver" box
    plot for [i=0:nblk-1] data index i using 2:(err($3)) with linespoints linetype (i + 1) \
         dashtype 1 + (i >= 12) pointsize 0.6 title word(titles, i+1) noenhanced, \
         tol with lines dashtype 2 linecolor rgb "gray40" title "tolerance" @zright
    unset multiplot
    set output
}
