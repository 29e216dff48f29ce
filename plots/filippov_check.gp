# Cross-checks of the extended-Filippov case at sampled rolling states of the wheel (AS §6),
# on the region-map plane of plots/filippov_regions.gp (x = M_d/(μmgρ), y = ρω2ω3/(gμ)).
# Variables set by `conebench filippov check`:
#   dir      output directory holding filippov_check_wheel.dat
#            (columns: x y case ccp_agree compliant_agree near_boundary)
#   nstates  number of wheel states
# Writes dir/filippov_check.png and .svg.
data = dir."/filippov_check_wheel.dat"
out = dir."/filippov_check"
set title sprintf("Rolling wheel: Filippov case vs. (1) Moreau–Jean CCP step and (2) compliant slide law (%d states)", nstates) font ",13"
set xlabel "x = M_d / (μ m g ρ)    (M_d = physical driving torque, AS eq. 62)"
set ylabel "y = ρ ω_2 ω_3 / (g μ)"
set xrange [-2.1:2.1]
set yrange [-2.1:2.1]
set xtics -2,0.5,2
set ytics -2,0.5,2
set size ratio -1
set cbrange [-0.5:4.5]
set palette maxcolors 5
set palette defined (0 "#969696", 1 "#a6dba0", 2 "#1b7837", 3 "#f4a582", 4 "#8856a7")
unset colorbox
set key outside right top box opaque width 1 spacing 1.2
set grid front lc rgb "gray60" lw 0.5 dt 3
set samples 721
agree(c4, c5) = (c4 != 0 && c5 != 0)
do for [t in "pngcairo svg"] {
    if (t eq "pngcairo") { set terminal pngcairo size 1350,900 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1350,900 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    plot sample [s=0:2*pi] '+' using (1.5*cos(s)):(sin(s)) with lines lw 2.5 lc rgb "black" title "eq. 69: repelling boundary (|F_f| = μN)", \
         [s=0:2*pi] '+' using (cos(s)**3):(2*sin(s)**3) with lines lw 1.2 dt 2 lc rgb "gray30" title "eq. 70: 2 ↔ 4 directions", \
         data using 1:(agree($4, $5) ? $2 : 1/0):3 with points pt 7 ps 0.55 lc palette notitle, \
         keyentry with points pt 7 ps 1.2 lc rgb "#a6dba0" title "case I (rolls)", \
         keyentry with points pt 7 ps 1.2 lc rgb "#1b7837" title "case II (rolls)", \
         keyentry with points pt 7 ps 1.2 lc rgb "#f4a582" title "case III (slips)", \
         keyentry with points pt 7 ps 1.2 lc rgb "#8856a7" title "case IV (slips)", \
         keyentry with points pt 7 ps 1.2 lc rgb "#969696" title "degenerate", \
         keyentry with points pt 7 ps 0.8 lc rgb "black" title "agree (both checks; colour = case)", \
         data using 1:($6 != 0 ? $2 : 1/0) with points pt 6 ps 0.9 lw 0.8 lc rgb "gray20" title "near boundary (excluded)", \
         data using 1:($4 == 0 ? $2 : 1/0) with points pt 4 ps 3 lw 2.5 lc rgb "#d7191c" notitle, \
         keyentry with points pt 4 ps 2 lw 2.5 lc rgb "#d7191c" title "disagree (CCP)", \
         data using 1:($5 == 0 ? $2 : 1/0) with points pt 8 ps 3 lw 2.5 lc rgb "#2b83ba" notitle, \
         keyentry with points pt 8 ps 2 lw 2.5 lc rgb "#2b83ba" title "disagree (compliant)"
    set output
}
