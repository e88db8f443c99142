/*
 * clock: the one monotonic clock of the project (CLOCK_MONOTONIC), in the
 * unit the caller needs, and a plain sleep. Never the wall clock: records
 * take their UTC stamps from time(2) (bench/record/record_file.c, record_host.c).
 */
#ifndef IO_CLOCK_H
#define IO_CLOCK_H

#include <stdint.h>

/* Nanoseconds since an arbitrary fixed point. */
uint64_t clock_now_ns(void);

/* The same in milliseconds and in seconds, as doubles. */
double clock_now_ms(void);
double clock_now_s(void);

/* Sleep MS milliseconds; a signal may end the sleep early. */
void clock_sleep_ms(int ms);

#endif
