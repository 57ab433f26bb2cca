module edgeway.dev/bench/loadgen

go 1.22
