module gw.dev/loadgen

go 1.25
