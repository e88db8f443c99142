/*
 * gen: the data set's deterministic generator and its binary COPY encoding.
 * Row i has major = i and minor = round(u_i * 1000), u_i uniform in [0, 1)
 * from a counter-based generator (splitmix64 of seed and i): the same seed
 * gives the same table on every machine and PostgreSQL version, and any row
 * can be computed on its own (for verification). minor is 0..1000; 0 and 1000
 * are half as likely as the others, as with PostgreSQL's random()*1000.
 */
#ifndef BENCH_DATASET_GENERATOR_H
#define BENCH_DATASET_GENERATOR_H

#include <stddef.h>
#include <stdint.h>

/* 53-bit uniform double in [0, 1) for row I. */
double gen_uniform(uint64_t seed, uint64_t i);

/* minor for row I: 0..1000. */
int gen_minor(uint64_t seed, uint64_t i);

/* PostgreSQL's binary COPY header and trailer. */
#define GEN_COPY_HEADER_BYTES 19
#define GEN_COPY_TRAILER_BYTES 2
#define GEN_COPY_ROW_BYTES 18

size_t gen_copy_header(char *buf);
size_t gen_copy_trailer(char *buf);

/* Encode rows FIRST .. FIRST+COUNT-1 into BUF (COUNT * GEN_COPY_ROW_BYTES). */
size_t gen_copy_rows(uint64_t seed, uint64_t first, size_t count, char *buf);

#endif
