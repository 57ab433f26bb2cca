// Closed and open modes: one request at a time per worker, or one due every 1/rate.
package main

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// once sends one request and reads the whole body; latency ends at the last byte.
func once(client *http.Client, job *Job, rec *recorder, t0 time.Time, due time.Duration, i int) {
	req, err := newRequest(context.Background(), job, i)
	if err == nil {
		var resp *http.Response
		resp, err = client.Do(req)
		if err == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			lat := time.Since(t0) - due
			if err == nil {
				kind := ""
				if resp.StatusCode < 200 || resp.StatusCode >= 300 {
					kind = "http " + strconv.Itoa(resp.StatusCode)
				}
				rec.add(due.Microseconds(), lat.Microseconds(), resp.StatusCode, kind, resp.Header)
				return
			}
		}
	}
	rec.add(due.Microseconds(), (time.Since(t0) - due).Microseconds(), 0, errKind(err), nil)
}

func runClosed(job *Job, rec *recorder) {
	client := newClient(job)
	t0 := time.Now()
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for w := 0; w < job.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= job.Requests {
					return
				}
				once(client, job, rec, t0, time.Since(t0), i)
			}
		}()
	}
	wg.Wait()
}

func runOpen(job *Job, rec *recorder) {
	client := newClient(job)
	interval := 1e9 / job.Rate
	n := int((float64(job.DurationMs)*job.Rate + 999) / 1000)
	sem := make(chan struct{}, job.MaxInFlight)
	var wg sync.WaitGroup
	t0 := time.Now()
	for i := 0; i < n; i++ {
		due := time.Duration(float64(i) * interval)
		if wait := due - time.Since(t0); wait > 0 {
			time.Sleep(wait)
		} else if lag := (-wait).Microseconds(); lag > rec.res.MaxLagUs {
			rec.res.MaxLagUs = lag
		}
		select {
		case sem <- struct{}{}:
		default:
			rec.add(due.Microseconds(), 0, 0, "client: too many in flight", nil)
			continue
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			once(client, job, rec, t0, due, i)
			<-sem
		}(i)
	}
	wg.Wait()
}
