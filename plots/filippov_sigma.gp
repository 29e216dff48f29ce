# The discontinuity set Σ = (ω2, ω3) plane of the rolling wheel for four driving torques
# (Antali & Stepan 2019, Fig. 13). Variables set by `conebench filippov map`:
#   dir              directory holding filippov_sigma.dat and filippov_sigma_curves.dat
#   xa, xb, xcc, xd  the four x = M_d/(μmgρ) of the panels (a)–(d)
# Writes dir/filippov_sigma.png and .svg.
data = dir."/filippov_sigma.dat"
curves = dir."/filippov_sigma_curves.dat"
out = dir."/filippov_sigma"
xs = sprintf("%g %g %g %g", xa, xb, xcc, xd)
set xrange [-2.5:2.5]
set yrange [-2.5:2.5]
set size ratio -1
set cbrange [-0.5:4.5]
set palette maxcolors 5
set palette defined (0 "#bdbdbd", 1 "#a6dba0", 2 "#5aae61", 3 "#f4a582", 4 "#c2a5cf")
unset colorbox
set xlabel "ω_2 √(ρ/(gμ))"
set ylabel "ω_3 √(ρ/(gμ))"
set grid front lc rgb "gray40" lw 0.5 dt 3
do for [t in "pngcairo svg"] {
    if (t eq "pngcairo") { set terminal pngcairo size 1300,1200 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1300,1200 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    set multiplot layout 2,2 title "Rolling wheel: cases on the discontinuity set Σ (ω_2, ω_3) for four driving torques (AS Fig. 13)" font ",13" margins 0.07,0.97,0.11,0.92 spacing 0.1,0.1
    do for [p=0:3] {
        set title sprintf("(%s)  M_d = %s μ m g ρ", word("a b c d", p+1), word(xs, p+1))
        if (p == 0) { set key at screen 0.5, screen 0.01 center bottom horizontal box opaque maxrows 1 font ",10" } else { unset key }
        plot data index p using 1:2:3 with image notitle, \
             keyentry with boxes fs solid 1.0 fc rgb "#a6dba0" title "I", \
             keyentry with boxes fs solid 1.0 fc rgb "#5aae61" title "II", \
             keyentry with boxes fs solid 1.0 fc rgb "#f4a582" title "III", \
             keyentry with boxes fs solid 1.0 fc rgb "#c2a5cf" title "IV", \
             curves index p using 1:2 with lines lw 2 lc rgb "black" title "eq. 69", \
             curves index p using 1:3 with lines lw 2 lc rgb "black" notitle, \
             curves index p using 1:4 with lines lw 2 dt 2 lc rgb "black" title "eq. 70", \
             curves index p using 1:5 with lines lw 2 dt 2 lc rgb "black" notitle
    }
    unset multiplot
    set output
}
