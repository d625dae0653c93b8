#ifndef BITS_H
#define BITS_H

/* How many bits of x are set. */
int popcount(unsigned x);
/* 1 when an odd number of bits of x are set, else 0. */
int parity(unsigned x);

#endif
