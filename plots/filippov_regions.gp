# Region map of the rolling wheel in the (M_d, ω2ω3) plane (Antali & Stepan 2019, Fig. 12).
# Variables set by `conebench filippov map`:
#   dir     output directory holding filippov_regions.dat and filippov_curves.dat
#   xc, yc  crossing of the two boundary curves (x = M_d/(μmgρ), y = ρω2ω3/(gμ))
# Writes dir/filippov_regions.png and .svg.
data = dir."/filippov_regions.dat"
curves = dir."/filippov_curves.dat"
out = dir."/filippov_regions"
set title "Rolling wheel: cases of the limit directions (computed from the slipping dynamics; AS Fig. 12)" font ",13"
set xlabel "x = M_d / (μ m g ρ)    (M_d = physical driving torque, AS eq. 62)"
set ylabel "y = ρ ω_2 ω_3 / (g μ)"
set x2label "AS Fig. 12 scale: 2 M_d / (μ m g ρ)   (eq. 69–70 as printed, C_1 = −M_d/(mρ))"
set xrange [-2.25:2.25]
set yrange [-2.5:2.5]
set x2range [-4.5:4.5]
set xtics -2,0.5,2 nomirror
set x2tics -4,1,4
set ytics -2.5,0.5,2.5
set cbrange [-0.5:4.5]
set palette maxcolors 5
set palette defined (0 "#bdbdbd", 1 "#a6dba0", 2 "#5aae61", 3 "#f4a582", 4 "#c2a5cf")
unset colorbox
set key outside right top box opaque title "case (Table 3)" width 1
set grid front lc rgb "gray40" lw 0.5 dt 3
# special values |M_d| of the text in eq. 62 normalisation: 1.5, 1, xc
do for [s in "-1 1"] {
    set arrow from s*1.5, -2.5 to s*1.5, 2.5 nohead front lc rgb "gray20" dt 4 lw 1
    set arrow from s*1.0, -2.5 to s*1.0, 2.5 nohead front lc rgb "gray20" dt 4 lw 1
    set arrow from s*xc, -2.5 to s*xc, 2.5 nohead front lc rgb "gray20" dt 4 lw 1
}
set label 1 "1.5" at 1.5, -2.35 center front font ",9"
set label 2 "1" at 1.0, -2.35 center front font ",9"
set label 3 sprintf("%.4f", xc) at xc, -2.35 left offset 0.3,0 front font ",9"
set object 1 circle at xc, yc size 0.04 front fc rgb "black" fs solid
do for [t in "pngcairo svg"] {
    if (t eq "pngcairo") { set terminal pngcairo size 1350,800 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1350,800 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    plot data using 1:2:3 with image notitle, \
         keyentry with boxes fs solid 1.0 fc rgb "#a6dba0" title "I: 2 attracting", \
         keyentry with boxes fs solid 1.0 fc rgb "#5aae61" title "II: 4 attracting", \
         keyentry with boxes fs solid 1.0 fc rgb "#f4a582" title "III: 1 attr. + 1 repelling", \
         keyentry with boxes fs solid 1.0 fc rgb "#c2a5cf" title "IV: 3 attr. + 1 repelling", \
         curves index 0 using 1:2 with lines lw 2.5 lc rgb "black" title "eq. 69: repelling boundary", \
         curves index 1 using 1:2 with lines lw 2.5 dt 2 lc rgb "black" title "eq. 70: 2 ↔ 4 directions", \
         curves index 2 using 1:2 with lines lw 1.2 dt 3 lc rgb "#b2182b" title "eq. 69 as printed (factor 2 off)", \
         curves index 3 using 1:2 with lines lw 1.2 dt 3 lc rgb "#2166ac" title "eq. 70 as printed (factor 2 off)", \
         keyentry with lines dt 4 lc rgb "gray20" title "special |M_d|: 0.2296, 1, 1.5 μmgρ"
    set output
}
