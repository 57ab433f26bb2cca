package main

import (
	"context"
	"testing"
)

// Request i carries the i-th value (mod its length) of each rotated header, beside the fixed ones.
func TestRotatedHeadersFollowTheRequestIndex(t *testing.T) {
	job := &Job{
		URL:           "http://127.0.0.1:1/",
		Headers:       map[string]string{"authorization": "Bearer k"},
		RotateHeaders: map[string][]string{"x-edgeway-user": {"u0", "u1", "u2"}},
	}
	for i, want := range []string{"u0", "u1", "u2", "u0", "u1"} {
		req, err := newRequest(context.Background(), job, i)
		if err != nil {
			t.Fatal(err)
		}
		if got := req.Header.Get("x-edgeway-user"); got != want {
			t.Fatalf("request %d: x-edgeway-user %q, want %q", i, got, want)
		}
		if req.Header.Get("authorization") != "Bearer k" {
			t.Fatalf("request %d lost its fixed header", i)
		}
	}
}

// An empty list sets nothing (no panic on a modulo by zero).
func TestEmptyRotationSetsNoHeader(t *testing.T) {
	job := &Job{URL: "http://127.0.0.1:1/", RotateHeaders: map[string][]string{"x-edgeway-user": {}}}
	req, err := newRequest(context.Background(), job, 3)
	if err != nil {
		t.Fatal(err)
	}
	if req.Header.Get("x-edgeway-user") != "" {
		t.Fatal("an empty rotation set a header")
	}
}
