#include <stdio.h>
#include "bits.h"

int main(void) {
  if (popcount(0) != 0 || popcount(0xFF) != 8 || popcount(0x80000001u) != 2) {
    fprintf(stderr, "popcount is wrong\n");
    return 1;
  }
  return 0;
}
