#include "bits.h"

int popcount(unsigned x) {
  int n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

int parity(unsigned x) { return popcount(x) & 1; }
