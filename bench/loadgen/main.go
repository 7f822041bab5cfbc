// Command loadgen sends HTTP requests at a constant rate (open loop) and reports latency percentiles.
//
// wrk measures throughput well but paces badly: its per-connection delay makes every connection fire at once, so a
// proxy sees bursts, and a closed loop hides queueing (coordinated omission). loadgen schedules request i at
// start + i/rate whatever happened before, hands it to one of `-connections` keep-alive workers, and measures each
// latency from the request's SCHEDULED time: a request that had to wait for a free connection counts its wait.
//
//	loadgen -url http://127.0.0.1:8080/x -rate 7000 -duration 10s [-warmup 3s] [-connections 64] [-H 'K: V']...
//
// Prints one JSON object: target and achieved rate, count, errors (non-2xx or transport), and p50/p90/p99/p999/max
// in milliseconds. No dependencies beyond the standard library (the module proxy is all this machine reaches).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type headers []string

func (h *headers) String() string     { return strings.Join(*h, ", ") }
func (h *headers) Set(v string) error { *h = append(*h, v); return nil }

type result struct {
	TargetRate   float64 `json:"target_rate"`
	AchievedRate float64 `json:"achieved_rate"`
	Count        int     `json:"count"`
	Errors       int64   `json:"errors"`
	P50          float64 `json:"p50_ms"`
	P90          float64 `json:"p90_ms"`
	P99          float64 `json:"p99_ms"`
	P999         float64 `json:"p999_ms"`
	Max          float64 `json:"max_ms"`
}

func main() {
	url := flag.String("url", "", "URL to request (GET)")
	rate := flag.Float64("rate", 1000, "requests per second")
	duration := flag.Duration("duration", 10*time.Second, "measured duration")
	warmup := flag.Duration("warmup", 3*time.Second, "unmeasured warm-up at the same rate")
	connections := flag.Int("connections", 64, "keep-alive connections (workers)")
	var hdrs headers
	flag.Var(&hdrs, "H", "request header 'Name: value' (repeatable)")
	flag.Parse()
	if *url == "" || *rate <= 0 {
		fmt.Fprintln(os.Stderr, "usage: loadgen -url URL -rate R [-duration D] [-warmup W] [-connections C] [-H 'K: V']...")
		os.Exit(2)
	}

	transport := &http.Transport{MaxIdleConns: *connections, MaxIdleConnsPerHost: *connections, MaxConnsPerHost: *connections, DisableCompression: true}
	client := &http.Client{Transport: transport, Timeout: 30 * time.Second}
	jobs := make(chan time.Time, 1<<20)
	var errors int64
	var mu sync.Mutex
	var latencies []float64
	measureFrom := time.Now().Add(*warmup)

	var workers sync.WaitGroup
	for w := 0; w < *connections; w++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for scheduled := range jobs {
				req, _ := http.NewRequest(http.MethodGet, *url, nil)
				for _, h := range hdrs {
					if name, value, ok := strings.Cut(h, ":"); ok {
						req.Header.Set(strings.TrimSpace(name), strings.TrimSpace(value))
					}
				}
				resp, err := client.Do(req)
				failed := err != nil
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					failed = resp.StatusCode >= 300
				}
				if scheduled.Before(measureFrom) {
					continue
				}
				if failed {
					atomic.AddInt64(&errors, 1)
				}
				latency := float64(time.Since(scheduled).Microseconds()) / 1000
				mu.Lock()
				latencies = append(latencies, latency)
				mu.Unlock()
			}
		}()
	}

	interval := time.Duration(float64(time.Second) / *rate)
	start := time.Now()
	end := measureFrom.Add(*duration)
	sent := 0
	for {
		now := time.Now()
		if now.After(end) {
			break
		}
		due := int(now.Sub(start) / interval)
		for ; sent <= due; sent++ {
			jobs <- start.Add(time.Duration(sent) * interval)
		}
		time.Sleep(interval / 4)
	}
	close(jobs)
	workers.Wait()

	sort.Float64s(latencies)
	at := func(q float64) float64 {
		if len(latencies) == 0 {
			return 0
		}
		return latencies[min(len(latencies)-1, int(q*float64(len(latencies))))]
	}
	out := result{TargetRate: *rate, AchievedRate: float64(len(latencies)) / duration.Seconds(), Count: len(latencies), Errors: errors,
		P50: at(0.50), P90: at(0.90), P99: at(0.99), P999: at(0.999), Max: at(1)}
	_ = json.NewEncoder(os.Stdout).Encode(out)
}
