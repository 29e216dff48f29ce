# Twelve distinguishable line colours (then the cycle repeats with dashes, see the callers), for
# figures with many solvers: loaded by profile.gp and convergence.gp from their own folder.
colours = "#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #17becf #bcbd22 #000000 #7f7f7f #aec7e8"
do for [i=1:12] { set linetype i linecolor rgb word(colours, i) linewidth 2 pointtype (i % 13) + 1 }
set linetype cycle 12
