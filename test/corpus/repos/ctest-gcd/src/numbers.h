#ifndef NUMBERS_H
#define NUMBERS_H

/* The greatest common divisor of a and b (gcd(0, 0) is 0). */
unsigned gcd(unsigned a, unsigned b);

#endif
