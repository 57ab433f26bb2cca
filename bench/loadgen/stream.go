// Stream mode: many concurrent SSE responses, timed event by event on arrival.
package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

type StreamResult struct {
	StartUs      int64   `json:"start_us"`
	Status       int     `json:"status"`
	Err          string  `json:"err,omitempty"`
	FirstEventUs int64   `json:"first_event_us"`
	EndUs        int64   `json:"end_us"`
	Events       int     `json:"events"`
	Done         bool    `json:"done"`
	Bytes        int64   `json:"bytes"`
	MaxGapUs     int64   `json:"max_gap_us"`
	GapsUs       []int64 `json:"gaps_us,omitempty"`
}

// defaultDoneMarker ends a Chat Completions stream; a job's `done_marker` names another
// (a Responses API stream ends with `event: response.completed` and has no [DONE]).
const defaultDoneMarker = "data: [DONE]"

func errorsAs(err error, target any) bool { return errors.As(err, target) }

// markerScan finds the done marker anywhere in a stream read chunk by chunk: it
// keeps the last len(marker)-1 bytes of what it has seen, so a marker split
// across two reads is found too. Once found it stops searching.
type markerScan struct {
	marker []byte
	carry  []byte
	found  bool
}

func newMarkerScan(marker string) *markerScan {
	return &markerScan{marker: []byte(marker), carry: make([]byte, 0, len(marker))}
}

// next scans one chunk; when the marker ends inside it, it returns the index in
// the chunk just past the marker's last byte, else -1.
func (m *markerScan) next(chunk []byte) int {
	if m.found || len(m.marker) == 0 {
		return -1
	}
	k := len(m.marker)
	end := -1
	if len(m.carry) > 0 {
		head := chunk[:min(len(chunk), k-1)]
		joined := append(append(make([]byte, 0, len(m.carry)+len(head)), m.carry...), head...)
		if i := bytes.Index(joined, m.marker); i >= 0 {
			end = i + k - len(m.carry)
		}
	}
	if end < 0 {
		if i := bytes.Index(chunk, m.marker); i >= 0 {
			end = i + k
		}
	}
	if end >= 0 {
		m.found = true
		return end
	}
	if len(chunk) >= k-1 {
		m.carry = append(m.carry[:0], chunk[len(chunk)-(k-1):]...)
	} else {
		m.carry = append(m.carry, chunk...)
		if len(m.carry) > k-1 {
			m.carry = m.carry[len(m.carry)-(k-1):]
		}
	}
	return -1
}

// readStream counts SSE events ("\n\n"-terminated) as they arrive: every event
// completed by one read gets that read's arrival time. The stream is done when
// the job's done marker was seen and the event carrying it was completed (a
// stream cut inside its last event, whose JSON may be large, is not done).
func readStream(body io.Reader, job *Job, t0 time.Time, r *StreamResult) error {
	buf := make([]byte, 32*1024)
	if job.ReadBps > 0 {
		buf = make([]byte, 4*1024)
	}
	var prevNewline bool
	var last time.Duration = -1
	marker := job.DoneMarker
	if marker == "" {
		marker = defaultDoneMarker
	}
	scan := newMarkerScan(marker)
	// markerEnd: where in the current chunk the marker ended (0 once it ended in an earlier chunk).
	markerEnd := -1
	readStart := time.Now()
	for {
		n, err := body.Read(buf)
		if n > 0 {
			now := time.Since(t0)
			chunk := buf[:n]
			r.Bytes += int64(n)
			if markerEnd > 0 {
				markerEnd = 0
			}
			if end := scan.next(chunk); end >= 0 {
				markerEnd = end
			}
			for j, b := range chunk {
				if b == '\n' {
					if prevNewline {
						r.Events++
						if markerEnd >= 0 && j >= markerEnd {
							r.Done = true
						}
						if last < 0 {
							r.FirstEventUs = now.Microseconds()
						} else {
							gap := (now - last).Microseconds()
							if gap > r.MaxGapUs {
								r.MaxGapUs = gap
							}
							if job.Gaps {
								r.GapsUs = append(r.GapsUs, gap)
							}
						}
						last = now
						prevNewline = false
						continue
					}
					prevNewline = true
				} else {
					prevNewline = false
				}
			}
			if job.ReadBps > 0 {
				want := time.Duration(float64(r.Bytes) / float64(job.ReadBps) * 1e9)
				if ahead := want - time.Since(readStart); ahead > 0 {
					time.Sleep(ahead)
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func oneStream(client *http.Client, job *Job, t0 time.Time, due time.Duration, i int) StreamResult {
	r := StreamResult{StartUs: due.Microseconds(), FirstEventUs: -1}
	req, err := newRequest(context.Background(), job, i)
	if err == nil {
		var resp *http.Response
		if resp, err = client.Do(req); err == nil {
			r.Status = resp.StatusCode
			err = readStream(resp.Body, job, t0, &r)
			resp.Body.Close()
		}
	}
	if err != nil {
		r.Err = errKind(err)
	}
	r.EndUs = time.Since(t0).Microseconds()
	if r.FirstEventUs >= 0 {
		r.FirstEventUs -= r.StartUs
	}
	return r
}

func runStreams(job *Job) []StreamResult {
	client := newClient(job)
	out := make([]StreamResult, job.Streams)
	var wg sync.WaitGroup
	t0 := time.Now()
	for i := 0; i < job.Streams; i++ {
		due := time.Duration(0)
		if job.Streams > 1 {
			due = time.Duration(float64(job.RampMs) * 1e6 * float64(i) / float64(job.Streams))
		}
		if wait := due - time.Since(t0); wait > 0 {
			time.Sleep(wait)
		}
		wg.Add(1)
		go func(i int, due time.Duration) {
			defer wg.Done()
			out[i] = oneStream(client, job, t0, due, i)
		}(i, due)
	}
	wg.Wait()
	return out
}
