// Command loadgen is the bench's measuring instrument: it reads one job (JSON) on
// stdin, runs it against one URL and writes raw per-request samples (JSON) on
// stdout. All statistics are computed by the caller (bench/lib/stats.mjs), so
// this program only sends, times and counts. Standard library only, so it
// builds offline; bench/lib/loadgen.mjs builds it on first use.
//
// Modes:
//
//	closed: `concurrency` workers send back to back, `requests` in total.
//	open:   request i is due at t0 + i/rate (open loop); latency is measured
//	        from that intended time, so a slow server cannot slow the arrivals
//	        down and hide its own latency (no coordinated omission).
//	stream: `streams` SSE requests started evenly over `ramp_ms`; per stream
//	        the time to first event, every inter-event gap, event count and
//	        whether the terminator arrived (`done_marker`, searched across the
//	        whole stream; default "data: [DONE]"); `read_bps` throttles the reader.
//
// In every mode request i sends bodies[i % len(bodies)] when `bodies` is set (else `body`), and each
// header of `rotate_headers` set to its values[i % len(values)] (an end user per request, say).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

type Job struct {
	Mode           string              `json:"mode"`
	URL            string              `json:"url"`
	Headers        map[string]string   `json:"headers"`
	Body           string              `json:"body"`
	Bodies         []string            `json:"bodies"`
	RotateHeaders  map[string][]string `json:"rotate_headers"`
	Concurrency    int                 `json:"concurrency"`
	Requests       int                 `json:"requests"`
	Rate           float64             `json:"rate"`
	DurationMs     int                 `json:"duration_ms"`
	Streams        int                 `json:"streams"`
	RampMs         int                 `json:"ramp_ms"`
	Gaps           bool                `json:"gaps"`
	ReadBps        int                 `json:"read_bps"`
	DoneMarker     string              `json:"done_marker"`
	TimeoutMs      int                 `json:"timeout_ms"`
	MaxInFlight    int                 `json:"max_in_flight"`
	CountHeaders   []string            `json:"count_headers"`
	NumericHeaders []string            `json:"numeric_headers"`
}

// Samples are parallel arrays; status 0 is a transport error or a timeout.
type Samples struct {
	StartUs []int64 `json:"start_us"`
	LatUs   []int64 `json:"lat_us"`
	Status  []int   `json:"status"`
}

type Result struct {
	Samples      Samples                   `json:"samples"`
	Streams      []StreamResult            `json:"streams,omitempty"`
	Errors       map[string]int            `json:"errors"`
	HeaderCounts map[string]map[string]int `json:"header_counts"`
	HeaderValues map[string][]float64      `json:"header_values"`
	WallMs       float64                   `json:"wall_ms"`
	MaxLagUs     int64                     `json:"max_lag_us"`
	ClientCPUMs  float64                   `json:"client_cpu_ms"`
}

type recorder struct {
	mu  sync.Mutex
	job *Job
	res *Result
}

func (r *recorder) add(startUs, latUs int64, status int, errKind string, h http.Header) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.res.Samples.StartUs = append(r.res.Samples.StartUs, startUs)
	r.res.Samples.LatUs = append(r.res.Samples.LatUs, latUs)
	r.res.Samples.Status = append(r.res.Samples.Status, status)
	if errKind != "" {
		r.res.Errors[errKind]++
	}
	if h == nil {
		return
	}
	for _, name := range r.job.CountHeaders {
		if r.res.HeaderCounts[name] == nil {
			r.res.HeaderCounts[name] = map[string]int{}
		}
		r.res.HeaderCounts[name][h.Get(name)]++
	}
	for _, name := range r.job.NumericHeaders {
		if v, err := strconv.ParseFloat(h.Get(name), 64); err == nil {
			r.res.HeaderValues[name] = append(r.res.HeaderValues[name], v)
		}
	}
}

func newClient(job *Job) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Client{
		Timeout: time.Duration(job.TimeoutMs) * time.Millisecond,
		Transport: &http.Transport{
			DialContext:         dialer.DialContext,
			MaxIdleConns:        0,
			MaxIdleConnsPerHost: 10000,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
			ForceAttemptHTTP2:   false,
		},
	}
}

// newRequest builds request i: its body is bodies[i % len(bodies)] when bodies is set, else body;
// each header of rotate_headers is set to its values[i % len(values)] (after the fixed headers).
func newRequest(ctx context.Context, job *Job, i int) (*http.Request, error) {
	method := http.MethodGet
	var body io.Reader
	text := job.Body
	if len(job.Bodies) > 0 {
		text = job.Bodies[i%len(job.Bodies)]
	}
	if text != "" {
		method = http.MethodPost
		body = strings.NewReader(text)
	}
	req, err := http.NewRequestWithContext(ctx, method, job.URL, body)
	if err != nil {
		return nil, err
	}
	for k, v := range job.Headers {
		req.Header.Set(k, v)
	}
	for k, values := range job.RotateHeaders {
		if len(values) > 0 {
			req.Header.Set(k, values[i%len(values)])
		}
	}
	return req, nil
}

func errKind(err error) string {
	var ne net.Error
	switch {
	case err == nil:
		return ""
	case errorsAs(err, &ne) && ne.Timeout():
		return "timeout"
	case strings.Contains(err.Error(), "connection refused"):
		return "connection refused"
	case strings.Contains(err.Error(), "reset"):
		return "connection reset"
	default:
		return "transport: " + err.Error()
	}
}

func cpuMs() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

func main() {
	var job Job
	if err := json.NewDecoder(os.Stdin).Decode(&job); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen: bad job:", err)
		os.Exit(2)
	}
	if job.TimeoutMs <= 0 {
		job.TimeoutMs = 10000
	}
	if job.MaxInFlight <= 0 {
		job.MaxInFlight = 20000
	}
	if job.Concurrency <= 0 {
		job.Concurrency = 1
	}
	res := &Result{Samples: Samples{StartUs: []int64{}, LatUs: []int64{}, Status: []int{}}, Errors: map[string]int{}, HeaderCounts: map[string]map[string]int{}, HeaderValues: map[string][]float64{}}
	rec := &recorder{job: &job, res: res}
	start := time.Now()
	switch job.Mode {
	case "closed":
		runClosed(&job, rec)
	case "open":
		if job.Rate <= 0 {
			fmt.Fprintln(os.Stderr, "loadgen: open mode needs rate > 0")
			os.Exit(2)
		}
		runOpen(&job, rec)
	case "stream":
		res.Streams = runStreams(&job)
	default:
		fmt.Fprintln(os.Stderr, "loadgen: unknown mode", job.Mode)
		os.Exit(2)
	}
	res.WallMs = float64(time.Since(start).Microseconds()) / 1000
	res.ClientCPUMs = cpuMs()
	out, _ := json.Marshal(res)
	var buf bytes.Buffer
	buf.Write(out)
	buf.WriteByte('\n')
	os.Stdout.Write(buf.Bytes())
}
