# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# test/platforms.mk: the tests only Linux can run, each once with its
# reason. test/build.mk builds them only for Linux; test/macos reads the
# same lines and reports each as skipped with its reason. A test that
# needs no line here builds for every OS. One line a test, in this form
# (test/macos parses it):
#   LINUX_ONLY += <file name without .c>  # <what only Linux has>
LINUX_ONLY += perfpage   # perf_event mmap pages
LINUX_ONLY += perfclose  # perf_event descriptors
LINUX_ONLY += perforder  # perf_event: the order hardware cycle events are asked in
LINUX_ONLY += perfown    # perf_event, one event per thread
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
