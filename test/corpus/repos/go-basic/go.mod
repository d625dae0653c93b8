module example.com/durations

go 1.19
