# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# test/platforms.mk: the tests only Linux can run, those Windows cannot,
# and those of Windows alone, each once with its reason. test/build.mk
# builds LINUX_ONLY only for Linux, NOT_WINDOWS for every OS but Windows
# and WINDOWS_ONLY for Windows alone; test/macos and test/windows read the
# same lines and report each as skipped with its reason. A test that
# needs no line here builds for every OS. One line a test, in this form
# (test/tools.py parses it):
#   LINUX_ONLY += <file name without .c>  # <what only Linux has>
LINUX_ONLY += perfpage   # perf_event mmap pages
LINUX_ONLY += perfclose  # perf_event descriptors
LINUX_ONLY += perforder  # perf_event: the order hardware cycle events are asked in
LINUX_ONLY += perfown    # perf_event, one event per thread
LINUX_ONLY += perfsignal # perf_event, one event per thread, opened in a signal handler
LINUX_ONLY += disturb    # perf_event cycle events opened to disturb the chosen counter
LINUX_ONLY += perfabi    # perf_event and futex declarations compared with the Linux kernel headers
LINUX_ONLY += open       # cpucycles-open, which changes Linux kernel settings
LINUX_ONLY += hostile    # seccomp filters and mount namespaces
LINUX_ONLY += whyperf    # perf_event_open refused by seccomp filters, capabilities, rlimits, PR_SET_TSC
LINUX_ONLY += pending    # taking a pending signal out and queueing it back (rt_sigtimedwait, rt_tgsigqueueinfo)
LINUX_ONLY += sentfault  # SI_TKILL and queueing a held signal back with its siginfo
LINUX_ONLY += settling   # tgkill, SI_TKILL and queueing a held signal back with its siginfo
LINUX_ONLY += meanwhile  # the library calling sigaction through the executable (ELF symbol lookup)
LINUX_ONLY += vfork      # vfork's shared memory while the parent's other threads run (Linux semantics)
LINUX_ONLY += pidns      # pid namespaces (unshare)
LINUX_ONLY += rtwait     # sched_setaffinity and SCHED_FIFO on one CPU
LINUX_ONLY += twocopies  # a plugin linked with the archive and --exclude-libs (ELF linkers)
LINUX_ONLY += plugin     # twocopies' plugin, a shared object rather than a program
LINUX_ONLY += runtimes   # the library calling sigaction through the executable (ELF symbol lookup), ucontext registers
# Windows has no fork, no signals (nor sigaction, sigsetjmp, alarm), no
# mmap, no /proc and no POSIX threads without winpthread's DLL.
NOT_WINDOWS += guard        # fork, signals sent between threads, rlimits, mmap
NOT_WINDOWS += sigcode      # signals' codes: kill, raise, pthread_kill and a fault
NOT_WINDOWS += persecond    # fixture trees with symlinks, FIFOs and inotify
NOT_WINDOWS += select       # mmap'ed pages and signals around a selection
NOT_WINDOWS += why          # mmap'ed pages and signals in the traced selection
NOT_WINDOWS += gaps         # POSIX threads and signals delivered mid-read, in forked children
NOT_WINDOWS += latethreads  # fork and POSIX threads
NOT_WINDOWS += lazy         # fork, and open() interposed to count the estimate's reads
NOT_WINDOWS += once         # fork, POSIX threads and signal handlers making the first call
NOT_WINDOWS += stack        # a first call on an 8 KiB alternate signal stack (sigaltstack, mmap)
NOT_WINDOWS += threads      # fork and POSIX threads (test/windows/winthreads is its Windows form)
NOT_WINDOWS += handlers     # the program's own signal handlers beside the guard
NOT_WINDOWS += fork         # fork
NOT_WINDOWS += forkmid      # fork in the middle of a selection
NOT_WINDOWS += crosscore    # cpucycles-info's cross-core measurement, POSIX threads (not built for Windows)
NOT_WINDOWS += trust        # fixture trees of Linux's /sys and /proc
WINDOWS_ONLY += winguard    # Windows' vectored exception handlers beside the guard
WINDOWS_ONLY += winthreads  # Windows threads making the first call at once
WINDOWS_ONLY += winos       # os-windows.c: ProgramData, the registry, thread ids, WaitOnAddress
