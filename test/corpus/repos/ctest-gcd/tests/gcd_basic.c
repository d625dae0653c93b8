#include "numbers.h"
#include "check.h"

int main(void) {
  CHECK(gcd(12, 18) == 6);
  CHECK(gcd(17, 5) == 1);
  return 0;
}
