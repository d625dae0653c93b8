#include "numbers.h"
#include "check.h"

int main(void) {
  CHECK(gcd(0, 7) == 7);
  CHECK(gcd(0, 0) == 0);
  return 0;
}
