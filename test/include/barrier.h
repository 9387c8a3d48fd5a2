/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* barrier.h: the start line of a test's racing threads, used once per
   process. POSIX barriers are an option macOS does not implement, so a
   mutex and a condition variable stand in: the last thread to arrive
   wakes all the others at once. */
#ifndef BARRIER_H
#define BARRIER_H

#include <pthread.h>

struct barrier {
  pthread_mutex_t lock;
  pthread_cond_t open;
  int waiting; /* threads still to arrive */
};

static int barrier_init(struct barrier *b, int threads)
{
  b->waiting = threads;
  if (pthread_mutex_init(&b->lock, 0) != 0) return -1;
  if (pthread_cond_init(&b->open, 0) != 0) return -1;
  return 0;
}

static void barrier_wait(struct barrier *b)
{
  pthread_mutex_lock(&b->lock);
  if (--b->waiting == 0) pthread_cond_broadcast(&b->open);
  while (b->waiting > 0) pthread_cond_wait(&b->open, &b->lock);
  pthread_mutex_unlock(&b->lock);
}

#endif
