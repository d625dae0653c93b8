#include <stdio.h>

#define CHECK(expr)                                           \
  do {                                                        \
    if (!(expr)) {                                            \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #expr); \
      return 1;                                               \
    }                                                         \
  } while (0)
