#include <stdio.h>
#include "bits.h"

int main(void) {
  if (parity(0) != 0 || parity(7) != 1 || parity(3) != 0) {
    fprintf(stderr, "parity is wrong\n");
    return 1;
  }
  return 0;
}
