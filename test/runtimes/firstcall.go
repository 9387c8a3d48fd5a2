// SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0

// firstcall.go: test-runtimes' Go program. Goroutines, each locked to an
// OS thread of its own, dereference nil and recover the panic Go makes of
// each SIGSEGV, all through the process's first call of the library, made
// through cgo by one goroutine or by callers goroutines at once, each on
// its own OS thread (argument: one or many). Then Go must still make the
// panic of a fault, here and in them. Prints the witness's report and
// "after nil recovered background N".
package main

/*
#include "witness.h"
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

const faulters, callers, warm = 3, 4, 1000

type box struct{ value int }

var none *box // never set
var stop atomic.Bool
var caught [faulters]atomic.Int64

//go:noinline
func read(b *box) int { return b.value }

func faults() (recovered bool) {
	defer func() { recovered = recover() != nil }()
	read(none)
	return false
}

func faulter(i int) {
	runtime.LockOSThread()
	for !stop.Load() {
		if faults() {
			caught[i].Add(1)
		}
	}
}

// Until each faulter has recovered more panics after from.
func await(from []int64, more int64) {
	for i := range caught {
		for caught[i].Load() < from[i]+more {
			time.Sleep(time.Millisecond)
		}
	}
}

func main() {
	n := 1
	if len(os.Args) > 1 && os.Args[1] == "many" {
		n = callers
	}
	for i := 0; i < faulters; i++ {
		go faulter(i)
	}
	await(make([]int64, faulters), warm)
	C.witness_before(C.int(n))
	if n == 1 {
		C.witness_call()
	} else {
		var done sync.WaitGroup
		done.Add(n)
		for i := 0; i < n; i++ {
			go func() {
				runtime.LockOSThread()
				C.witness_call()
				done.Done()
			}()
		}
		done.Wait()
	}
	C.witness_after()
	at := make([]int64, faulters)
	for i := range caught {
		at[i] = caught[i].Load()
	}
	here := "not recovered"
	if faults() {
		here = "recovered"
	}
	await(at, warm)
	stop.Store(true)
	var total int64
	for i := range caught {
		total += caught[i].Load()
	}
	fmt.Println(C.GoString(C.witness_report()))
	fmt.Printf("after nil %s background %d\n", here, total)
}
