# Stop distance X_max of a sphere launched in slip-free rolling on a plane (Acary & Bourrier
# §6.1, Fig. 2) over (mu, mu_r): the nonsmooth model's map with contours, and its relative
# difference to the closed-form rigid-body solution.
# Variables: grid (space separated "mu mu_r x_stop rel_diff", a blank line between mu blocks),
# out (no suffix), sub (subtitle).
if (!exists("sub")) sub = ""
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1300,560 enhanced font "DejaVu Sans,11" } \
    else { set terminal svg size 1300,560 enhanced font "DejaVu Sans,11" }
    set output out.".".fmt
    set multiplot layout 1,2 title "Sphere rolling on a plane, stop distance X_{max} (Acary and Bourrier §6.1, Fig. 2): R = 0.5 m, ρ = 2500 kg/m³, U_X(0) = 2.5 m/s, Ω_Y(0) = 5 rad/s\n{/=9 ".sub."}"
    set view map
    set lmargin 10
    set pm3d map interpolate 0,0
    set xlabel "Coulomb friction μ"
    set ylabel "rolling resistance μ_r (m)"
    set title "(a) X_{max} (m), nonsmooth Moreau–Jean + nsgs, contours in m"
    set logscale cb
    set cblabel "X_{max} (m)"
    set cbtics ("1" 1, "2" 2, "5" 5, "10" 10, "20" 20, "50" 50, "100" 100, "200" 200)
    set palette rgb 33,13,10
    set contour base
    set cntrparam levels discrete 2, 3, 5, 10, 20, 50
    set cntrlabel onecolor font ",9" start 5 interval 30
    unset key
    splot grid using 1:2:3 with pm3d notitle, \
          grid using 1:2:3 nosurface with lines lc rgb "white" lw 1.5 notitle, \
          grid using 1:2:3 nosurface with labels textcolor rgb "white" notitle
    unset contour
    unset logscale cb
    set cbtics autofreq
    set title "(b) (X_{max} − X_{closed form}) / X_{closed form}"
    set cblabel "relative difference"
    set palette defined (-1 "#2166ac", 0 "#f7f7f7", 1 "#b2182b")
    set format cb "%.0e"
    stats grid using 4 nooutput
    lim = (abs(STATS_min) > abs(STATS_max) ? abs(STATS_min) : abs(STATS_max))
    set cbrange [-lim:lim]
    splot grid using 1:2:4 with pm3d notitle
    unset multiplot
    set output
    unset format cb
    unset cbrange
}
