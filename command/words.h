/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* words.h: what a file or a register held, made fit for one line of
   cpucycles-info whatever its bytes were. */
#ifndef WORDS_H
#define WORDS_H
#include <stddef.h>

/* The longest text a line quotes from one file: a kernel's answer here is
   a word or a short list, so anything longer is cut (and says so). */
#define WORDS_MAX 96

/* in[0..n) as printable ASCII words in out (size >= WORDS_MAX + 4): runs
   of spaces, tabs and newlines become one space, ends trimmed, any other
   byte outside '!'..'~' becomes '?', and text beyond WORDS_MAX ends in
   "...". An empty result is "(empty)". */
void words_clean(const char *in, size_t n, char *out);

/* The same as one word: spaces inside become '_' (a hypervisor's vendor
   string, "Microsoft Hv"). */
void words_one(const char *in, size_t n, char *out);

/* A file holding one decimal number (an optional '-', digits, space
   around): 1 with *value set, 0 for anything else, overflow included. */
int words_number(const char *in, size_t n, long long *value);

/* Whether the word w is one of the space-separated words of list. */
int words_has(const char *list, const char *w);
#endif
