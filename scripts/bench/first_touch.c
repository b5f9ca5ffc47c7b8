// What a page costs the first time a process writes it, against the same page written again:
//   cc -O2 scripts/bench/first_touch.c -o /tmp/first_touch && /tmp/first_touch MB [huge]
// Three rounds in one process: map MB of anonymous memory (with "huge", MADV_HUGEPAGE), write one
// byte per 4 KiB page (the first touch: the kernel zeroes the page, and on a VM whose guest hands
// free memory back to the host, the host backs it again), then memset all of it (the pages now
// present), then unmap. Round 1 takes memory the system had free; rounds 2 and 3 mostly take the
// pages round 1 just gave back.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  if (argc < 2 || atol(argv[1]) <= 0) {
    fprintf(stderr, "usage: %s MB [huge]\n", argv[0]);
    return 2;
  }
  const size_t bytes = (size_t)atol(argv[1]) << 20;
  const int huge = argc > 2 && strcmp(argv[2], "huge") == 0;
  for (int round = 1; round <= 3; ++round) {
    char* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      perror("mmap");
      return 1;
    }
    if (huge) madvise(p, bytes, MADV_HUGEPAGE);
    double start = now();
    for (size_t i = 0; i < bytes; i += 4096) p[i] = 1;
    const double first = now() - start;
    start = now();
    memset(p, 2, bytes);
    const double again = now() - start;
    printf("round %d: first touch %.3f s (%.2f ms per MB), written again %.3f s (%.3f ms per MB)\n",
           round, first, first * 1e3 / (double)(bytes >> 20), again,
           again * 1e3 / (double)(bytes >> 20));
    munmap(p, bytes);
  }
  return 0;
}
