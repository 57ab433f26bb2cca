// Tests of the stream reader's event counting and done marker (`go test` in bench/loadgen).
package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

// chunks is a reader that returns one given piece per Read, as a network read would.
type chunks struct{ parts []string }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	c.parts[0] = c.parts[0][n:]
	if c.parts[0] == "" {
		c.parts = c.parts[1:]
	}
	return n, nil
}

func read(t *testing.T, marker string, parts ...string) StreamResult {
	t.Helper()
	r := StreamResult{}
	if err := readStream(&chunks{parts: parts}, &Job{DoneMarker: marker}, time.Now(), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

const completed = "event: response.completed"

func TestChatStreamEndsAtDone(t *testing.T) {
	r := read(t, "", "data: {\"a\":1}\n\n", "data: [DONE]\n\n")
	if r.Events != 2 || !r.Done {
		t.Fatalf("events %d done %v", r.Events, r.Done)
	}
}

func TestMarkerSplitAcrossReads(t *testing.T) {
	big := "data: {\"response\":\"" + strings.Repeat("x", 100_000) + "\"}\n\n"
	r := read(t, completed, "event: response.created\ndata: {}\n\n", "event: response.comp", "leted\n"+big)
	if r.Events != 2 || !r.Done {
		t.Fatalf("events %d done %v", r.Events, r.Done)
	}
}

func TestMarkerSplitOneByteAtATime(t *testing.T) {
	stream := "event: x\ndata: {}\n\n" + completed + "\ndata: {}\n\n"
	parts := make([]string, len(stream))
	for i := range stream {
		parts[i] = stream[i : i+1]
	}
	r := read(t, completed, parts...)
	if r.Events != 2 || !r.Done {
		t.Fatalf("events %d done %v", r.Events, r.Done)
	}
}

func TestCutInsideTheLastEventIsNotDone(t *testing.T) {
	r := read(t, completed, "event: response.created\ndata: {}\n\n", completed+"\ndata: {\"response\":{\"out")
	if r.Events != 1 || r.Done {
		t.Fatalf("events %d done %v", r.Events, r.Done)
	}
}

func TestNoMarkerIsNotDone(t *testing.T) {
	r := read(t, "", "data: {\"a\":1}\n\n", "data: {\"b\":2}\n\n")
	if r.Events != 2 || r.Done {
		t.Fatalf("events %d done %v", r.Events, r.Done)
	}
	// The chat marker does not end a Responses stream.
	if r := read(t, completed, "data: [DONE]\n\n"); r.Done {
		t.Fatal("[DONE] ended a stream whose marker is response.completed")
	}
}

func TestMarkerScanReturnsTheEndInTheChunk(t *testing.T) {
	m := newMarkerScan("abcd")
	if got := m.next([]byte("xxab")); got != -1 {
		t.Fatalf("got %d", got)
	}
	if got := m.next([]byte("cdyy")); got != 2 {
		t.Fatalf("got %d, want 2", got)
	}
	if got := m.next([]byte("abcd")); got != -1 {
		t.Fatalf("found again: %d", got)
	}
	m = newMarkerScan("abcd")
	m.next([]byte("a"))
	m.next([]byte("b"))
	if got := m.next([]byte("cd")); got != 2 {
		t.Fatalf("got %d, want 2", got)
	}
}
